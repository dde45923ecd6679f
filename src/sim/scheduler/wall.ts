// The wall clock: drive the scheduler with timers so a step of S simulated seconds takes S/speed
// real seconds. While the server stays busy, each step starts at the previous step's scheduled end
// (not when its timer actually fired), so a late event loop delays deliveries briefly but never
// stretches simulated time: the following steps run back to back until the schedule is caught up.
import type { ServerConfig } from '../../model/estimate.js';
import { Scheduler } from './scheduler.js';
import type { SimRequest, TokenEvent } from './scheduler-types.js';
import { BurstFrontEnd, type FrontEndBatch } from './front-end.js';

/** Streams written per event-loop turn: ~64 SSE writes keep one turn near a millisecond. */
const DELIVERY_SLICE = 64;

export interface TokenSink {
  /** Called once per step that produced tokens for the request, with the prompt tokens it found in the prefix cache. */
  onTokens(tokens: number, first: boolean, done: boolean, cachedTokens: number): void;
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
  /** The API front end (front-end.ts): requests still in it, and one timer per busy period. */
  private front = new BurstFrontEnd();
  private frontWaiting = new Map<number, () => void>();
  private frontTimers = new Map<FrontEndBatch, NodeJS.Timeout>();
  /** How late step deliveries were against their schedule (a busy host), wall ms. */
  private lateSumMs = 0;
  private lateMaxMs = 0;
  private lateSteps = 0;
  private chained = false;
  /** Deliveries of finished steps, written in slices so one step never blocks the loop for long. */
  private outbox: [TokenSink, TokenEvent][] = [];
  private outboxHead = 0;
  private flushing = false;

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
    const now = this.simNow();
    // The engine's serial API front end (efficiency.ts frontEndPerRequestS), as on the virtual clock:
    // requests sent together reach the scheduler together when the front end has worked through them.
    const eff = this.cfg.eff;
    const { batch } = this.front.send(id, now, eff.frontEndPerRequestS + eff.frontEndPerPromptTokenS * r.promptLen);
    this.frontWaiting.set(id, () => this.sched.add({ ...r, id, arrival: now }));
    this.armFront(batch);
    return id;
  }

  /** (Re)arm the hand-off of a front-end busy period: it ends later each time a request joins it. */
  private armFront(batch: FrontEndBatch): void {
    const old = this.frontTimers.get(batch);
    if (old) clearTimeout(old);
    const release = () => {
      this.frontTimers.delete(batch);
      for (const id of batch.ids) {
        const add = this.frontWaiting.get(id);
        if (!add) continue;
        this.frontWaiting.delete(id);
        if (!this.stopped && this.sinks.has(id)) add();
      }
      // Handed over: a request joining this busy period later is released with it alone.
      batch.ids.length = 0;
      this.kick();
    };
    const waitMs = ((batch.at - this.simNow()) / this.speed) * 1000;
    if (waitMs < 1) release();
    else this.frontTimers.set(batch, setTimeout(release, waitMs));
  }

  cancel(id: number): void {
    if (!this.sinks.delete(id)) return;
    if (this.frontWaiting.delete(id)) return;
    this.sched.cancel(id);
  }

  private kick(): void {
    if (this.stepping || this.stopped) return;
    const step = this.sched.plan();
    if (!step) return;
    this.stepping = true;
    const now = performance.now();
    // Idle -> busy starts now; a busy chain keeps to its schedule.
    const start = this.chained ? this.lastEndMs : Math.max(now, this.lastEndMs);
    const end = start + (step.seconds / this.speed) * 1000;
    this.lastEndMs = end;
    this.busy.push([start, end]);
    const run = () => {
      this.timer = undefined;
      const late = Math.max(0, performance.now() - end);
      this.lateSumMs += late;
      this.lateMaxMs = Math.max(this.lateMaxMs, late);
      this.lateSteps++;
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
        if (sink) this.outbox.push([sink, ev]);
      }
      this.flush();
      this.genWindow.push([performance.now(), gen]);
      this.chained = true;
      this.kick();
      this.chained = false;
    };
    this.timer = setTimeout(run, Math.max(0, end - now));
  }

  private flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    const slice = () => {
      const end = Math.min(this.outbox.length, this.outboxHead + DELIVERY_SLICE);
      for (; this.outboxHead < end; this.outboxHead++) {
        const [sink, ev] = this.outbox[this.outboxHead]!;
        sink.onTokens(ev.tokens, ev.first, ev.done, ev.req.cachedTokens ?? 0);
      }
      if (this.outboxHead < this.outbox.length && !this.stopped) {
        setImmediate(slice);
        return;
      }
      this.outbox = [];
      this.outboxHead = 0;
      this.flushing = false;
    };
    slice();
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
      deliveryLateMs: { mean: this.lateSteps ? this.lateSumMs / this.lateSteps : 0, max: this.lateMaxMs },
    };
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const t of this.frontTimers.values()) clearTimeout(t);
    this.frontTimers.clear();
    this.frontWaiting.clear();
    this.timer = undefined;
  }
}
