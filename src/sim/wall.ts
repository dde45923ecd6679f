// The wall clock: drive the scheduler with timers so a step of S simulated seconds takes S/speed
// real seconds. Step ends are scheduled against an absolute deadline, so timer lateness does not
// accumulate into simulated time; when the process falls behind, steps run back to back.
import type { ServerConfig } from '../model/estimate.js';
import { Scheduler, type SimRequest } from './scheduler.js';

export interface TokenSink {
  /** Called once per step that produced tokens for the request. */
  onTokens(tokens: number, first: boolean, done: boolean): void;
}

export class WallRunner {
  private sched: Scheduler;
  private sinks = new Map<number, TokenSink>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private stepping = false;
  private lastEndMs = 0;
  private t0 = performance.now();
  /** Recent step intervals (wall ms) for utilisation. */
  private busy: [number, number][] = [];
  private genWindow: [number, number][] = [];
  private finished = 0;
  private stopped = false;
  /** Wall ms the simulated clock lost because steps finished later than scheduled (a busy host). */
  private lostMs = 0;

  constructor(
    readonly cfg: ServerConfig,
    seed: number,
    readonly speed: number,
  ) {
    this.sched = new Scheduler(cfg, seed);
  }

  /** Simulated seconds since start. */
  simNow(): number {
    return ((performance.now() - this.t0) / 1000) * this.speed;
  }

  submit(r: Omit<SimRequest, 'id' | 'arrival'>, sink: TokenSink): number {
    const id = this.nextId++;
    this.sinks.set(id, sink);
    this.sched.add({ ...r, id, arrival: this.simNow() });
    this.kick();
    return id;
  }

  cancel(id: number): void {
    if (!this.sinks.delete(id)) return;
    this.sched.cancel(id);
  }

  private kick(): void {
    if (this.stepping || this.stopped) return;
    const step = this.sched.plan();
    if (!step) return;
    this.stepping = true;
    const now = performance.now();
    const start = Math.max(now, this.lastEndMs);
    const end = start + (step.seconds / this.speed) * 1000;
    this.lastEndMs = end;
    this.busy.push([start, end]);
    const run = () => {
      this.timer = undefined;
      this.lostMs += Math.max(0, performance.now() - end);
      this.stepping = false;
      if (this.stopped) return;
      let gen = 0;
      for (const ev of this.sched.commit(step)) {
        gen += ev.tokens;
        const sink = this.sinks.get(ev.req.id);
        if (ev.done) {
          this.sinks.delete(ev.req.id);
          this.finished++;
        }
        sink?.onTokens(ev.tokens, ev.first, ev.done);
      }
      this.genWindow.push([performance.now(), gen]);
      this.kick();
    };
    this.timer = setTimeout(run, Math.max(0, end - now));
  }

  /** Fraction of the last `windowMs` the simulated GPUs were busy, 0..1. */
  utilisation(windowMs = 1000): number {
    const now = performance.now();
    const from = now - windowMs;
    this.busy = this.busy.filter(([, e]) => e > from - windowMs);
    let t = 0;
    for (const [s, e] of this.busy) t += Math.max(0, Math.min(e, now) - Math.max(s, from));
    return Math.min(1, t / windowMs);
  }

  /** Generated tokens per simulated second over the last wall second. */
  genThroughput(): number {
    const from = performance.now() - 1000;
    this.genWindow = this.genWindow.filter(([t]) => t > from);
    const n = this.genWindow.reduce((a, [, g]) => a + g, 0);
    return n / this.speed;
  }

  stats() {
    const s = this.sched.snapshot();
    return {
      ...s,
      genThroughput: this.genThroughput(),
      kvUsedTokens: Math.round(s.kvUsage * this.cfg.kvCapacityTokens),
      requestsFinished: this.finished,
      wallLagMs: this.lostMs,
    };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
