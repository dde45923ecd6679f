// While a server is measured: its /metrics (running, waiting, KV use, preemptions) and the GPUs
// (the vendor's tool through the host model, or the simulated host's own report), sampled every interval as events; on a real
// host also how much of its CPU other processes took and the load average, returned when stopped
// (src/host/host-load.ts).
import type { GpuSample } from '../../core/metrics.js';
import type { EngineAdapter } from '../../engines/kit/types.js';
import { readSimGpus } from '../../host/gpus.js';
import { queryGpus } from '../../host/gpu-detect.js';
import { baseUrl } from '../launch/launch.js';
import type { RunVariantContext } from './contract/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';
import type { HostLoad } from '../../core/host-load.js';
import { hostLoadOf, hostTicks, loadAvg1, withDescendants } from '../../host/host-load.js';
import { cpuIdentity } from '../../host/cpu.js';

/**
 * Sample /metrics and the GPUs now, every interval, and once more when stopped. With the server's
 * pid on a real host, the stop also returns the host's load over the run (`pinned` names the
 * cores the server and the client were kept on).
 */
export function startSampler(
  ctx: RunVariantContext,
  adapter: EngineAdapter,
  spec: LaunchSpec,
  variantId: string,
  serverPid?: number,
  pinned?: string,
): () => Promise<HostLoad | undefined> {
  const everyMs = Math.max(250, ctx.config.sampleIntervalS * 1000);
  // The run's own processes (servelab, the server and their children) are not "other work".
  const own = !ctx.host.simulated && serverPid ? withDescendants([process.pid, serverPid]) : undefined;
  const first = own ? hostTicks(own) : undefined;
  let maxLoad = first ? loadAvg1() : 0;
  let stopped = false;
  let running: Promise<void> | null = null;
  const base = baseUrl(spec);
  const metricsUrl = `${base}${adapter.metricsPath}`;
  const sample = async () => {
    if (first) maxLoad = Math.max(maxLoad, loadAvg1());
    const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (res?.ok) {
      const m = adapter.parseMetrics(await res.text().catch(() => ''));
      if (Object.keys(m).length) {
        ctx.emit({
          type: 'server-metrics',
          variantId,
          metrics: {
            running: m.running ?? 0,
            waiting: m.waiting ?? 0,
            preemptions: m.preemptions ?? 0,
            // A gauge the engine does not export stays absent (shown as not reported, never as 0%).
            ...(m.kvUsage !== undefined ? { kvUsage: m.kvUsage } : {}),
            ...(m.promptTokPerS !== undefined ? { promptTokPerS: m.promptTokPerS } : {}),
            ...(m.genTokPerS !== undefined ? { genTokPerS: m.genTokPerS } : {}),
          },
        });
      }
    } else if (res) await res.arrayBuffer().catch(() => undefined);
    // The simulated host reports its GPUs through the sim server; a real host through its vendor's tool.
    const gpus = ctx.host.simulated ? await readSimGpus(base) : await queryGpus({ timeoutMs: 5000 }).catch(() => null);
    if (!gpus) return;
    // A pinned simulated server counts its GPUs from 0, as an engine under CUDA_VISIBLE_DEVICES
    // does: its i-th GPU is host GPU gpuIds[i], and it reports those only (the vendor's tool on a real
    // host sees every GPU, so a real sample stays whole).
    const ids = ctx.host.simulated ? ctx.gpuIds : undefined;
    ctx.emit(
      ids?.length
        ? { type: 'gpu-sample', partial: true, gpus: pinnedSample(gpus.map(toGpuSample), ids) }
        : { type: 'gpu-sample', gpus: gpus.map(toGpuSample) },
    );
  };
  const tick = () => {
    if (running || stopped) return;
    running = sample().finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return async () => {
    clearInterval(timer);
    stopped = true;
    await running;
    // One last sample, so even a benchmark shorter than the interval shows the server under load.
    await sample().catch(() => undefined);
    const last = own && first ? hostTicks(own) : undefined;
    return first && last ? hostLoadOf(first, last, maxLoad, Math.max(1, cpuIdentity().logicalCpus), pinned) : undefined;
  };
}

/** A pinned server's own GPUs (numbered from 0) as the host GPUs it was pinned to. */
export function pinnedSample(own: readonly GpuSample[], gpuIds: readonly number[]): GpuSample[] {
  return own.slice(0, gpuIds.length).map((g, i) => ({ ...g, index: gpuIds[i]! }));
}

function toGpuSample(g: {
  index: number;
  name: string;
  utilPct?: number;
  memUsedMiB?: number;
  memTotalMiB: number;
  powerW?: number;
}): GpuSample {
  const s = { index: g.index, name: g.name, utilPct: g.utilPct ?? 0, memUsedMiB: g.memUsedMiB ?? 0, memTotalMiB: g.memTotalMiB };
  return g.powerW !== undefined ? { ...s, powerW: g.powerW } : s;
}
