// The session's GPU-hours ledger: every launch's GPU time, grouped in waves (launches that ran at
// the same time; one launch per wave when nothing runs in parallel), and the session's wall time.
// On the simulated host the session's wall is simulated: the sum over waves of the longest member
// (planning and the gaps between launches are not counted, and the summary says simulated time);
// on a GPU host it is the wall clock from open to the summary.
import type { SessionGpuTime, TuneListener, VariantGpuTime, VariantResult } from '../../core/events.js';
import { sessionGpuTime, simulatedWallS } from './gpu-hours.js';

export class CostLedger {
  private readonly waves: VariantGpuTime[][] = [];
  private readonly startMs = performance.now();
  /** The servers' CPU-seconds (VariantResult.cpuS), for a host without GPUs. */
  private cpuS = 0;

  constructor(
    private readonly hostGpus: number,
    private readonly simulated: boolean,
    /** CPU threads of a host without GPUs (llama.cpp): its cost is said in CPU terms. */
    private readonly cpuThreads?: number,
  ) {}

  /** One wave of results that ran together; results without GPU time (journal hits, planned) add nothing. */
  addWave(results: readonly (Pick<VariantResult, 'gpuTime' | 'cpuS'> | undefined)[]): void {
    const wave = results.map((r) => r?.gpuTime).filter((t): t is VariantGpuTime => !!t);
    for (const r of results) if (r?.gpuTime && r.cpuS !== undefined) this.cpuS += r.cpuS;
    if (wave.length) this.waves.push(wave);
  }

  /**
   * A launch that ends without variant-finished (a validation side, a finalist's sweep): a wave of
   * its own in the ledger, and a launch-cost event with the same GPU time for the live views.
   */
  addLaunch(emit: TuneListener, stage: string, first: Pick<VariantResult, 'variantId' | 'gpuTime' | 'cpuS'> | undefined): void {
    this.addWave([first]);
    if (first?.gpuTime) emit({ type: 'launch-cost', variantId: first.variantId, stage, gpuTime: first.gpuTime });
  }

  summary(): SessionGpuTime {
    const wallS = this.simulated ? simulatedWallS(this.waves) : (performance.now() - this.startMs) / 1000;
    const cpu = this.cpuThreads !== undefined ? { threads: this.cpuThreads, cpuS: this.cpuS } : undefined;
    return sessionGpuTime(this.hostGpus, wallS, this.waves.flat(), this.simulated, cpu);
  }
}
