// The continuous-batching scheduler, clock-agnostic: plan a step (admission by free KV blocks,
// chunked prefill within a token budget, a cap on running sequences, preemption when KV runs
// out), ask the estimate how long it takes, then commit it and hand out the tokens produced.
// The virtual clock (virtual.ts) and the wall clock (server/server.ts) drive the same object.
import { HARDWARE } from '../../model/efficiency.js';
import { type ServerConfig } from '../../model/estimate.js';
import { stepTime, type StepBatch } from '../../model/step-time.js';
import { Rng } from './rng.js';
import { schedulerLimits, type SchedulerLimits } from './rank-limits.js';
import { BlockPool, blocksFor } from './block-pool.js';

import type { PlannedStep, SchedulerStats, Seq, SimRequest, TokenEvent } from './scheduler-types.js';

const BLOCK = HARDWARE.kvBlockTokens;
/** SGLang reserves this share of each running request's remaining max_new_tokens when admitting (its new_token_ratio decays toward ~0.1-0.3). */
const SGLANG_NEW_TOKEN_RATIO = 0.3;

export class Scheduler {
  readonly totalBlocks: number;
  /** The KV blocks: free, held, and cached by prefix (block-pool.ts). */
  private readonly pool: BlockPool;
  private waiting: Seq[] = [];
  private running: Seq[] = [];
  private rng: Rng;
  private specSteps: number;
  private stats = { preemptions: 0, promptTokens: 0, generationTokens: 0, steps: 0 };
  /** maxRunningSeqs / maxBatchedTokens as the whole server holds them (per-rank flags x ranks: rank-limits.ts). */
  private readonly limits: SchedulerLimits;

  constructor(
    readonly cfg: ServerConfig,
    seed: number,
  ) {
    this.totalBlocks = Math.floor(cfg.kvCapacityTokens / BLOCK);
    this.pool = new BlockPool(this.totalBlocks, cfg);
    this.rng = new Rng(seed ^ 0x5eed);
    this.limits = schedulerLimits(cfg);
    const s = cfg.knobs.speculative;
    this.specSteps = s ? Math.max(1, s.numSteps ?? (s.draftTokens ? s.draftTokens - 1 : 3)) : 0;
  }

  add(req: SimRequest): void {
    const keys = this.pool.keysOf(req);
    this.waiting.push({
      req,
      promptEff: req.promptLen,
      computed: 0,
      generated: 0,
      blocks: 0,
      preempted: 0,
      state: 'waiting',
      hashed: 0,
      ...(keys ? { keys } : {}),
    });
  }

  /** Remove a request (client went away); frees its KV. */
  cancel(id: number): void {
    const drop = (list: Seq[]) => {
      const i = list.findIndex((s) => s.req.id === id);
      if (i >= 0) {
        this.pool.release(list[i]!);
        list[i]!.state = 'done';
        list.splice(i, 1);
      }
    };
    drop(this.waiting);
    drop(this.running);
  }

  hasWork(): boolean {
    return this.running.length > 0 || this.waiting.length > 0;
  }

  snapshot(): SchedulerStats {
    return {
      running: this.running.length,
      waiting: this.waiting.length,
      kvUsage: this.totalBlocks ? 1 - this.pool.free / this.totalBlocks : 0,
      ...this.stats,
    };
  }

  private grow(seq: Seq, tokens: number): boolean {
    return this.pool.grow(seq, tokens);
  }

  /** Recompute preemption: free the sequence's KV and put it back at the head of the queue. */
  private preempt(seq: Seq): void {
    this.running.splice(this.running.indexOf(seq), 1);
    // vLLM v1 keeps prefix caching on by default: freed blocks keep their hashes until reused, and a
    // request's blocks are freed tail first (v1/core/single_type_kv_cache_manager.py free(): reversed
    // order, "so that the tail blocks are evicted first"), after every block already free.
    this.pool.preempt(seq);
    seq.promptEff = seq.req.promptLen + seq.generated;
    seq.computed = 0;
    seq.preempted++;
    seq.state = 'waiting';
    this.stats.preemptions++;
    this.waiting.unshift(seq);
  }

  /** Make room for `seq` to hold `tokens`, preempting the latest arrivals. False if seq itself went. */
  private growOrPreempt(seq: Seq, tokens: number, scheduled: Set<Seq>): boolean {
    while (!this.grow(seq, tokens)) {
      let victim = seq;
      for (let i = this.running.length - 1; i >= 0; i--) {
        const s = this.running[i]!;
        if (s !== seq && !scheduled.has(s)) {
          victim = s;
          break;
        }
      }
      this.preempt(victim);
      if (victim === seq) return false;
    }
    return true;
  }

  private tokensPerSeq(): number {
    return this.specSteps ? this.specSteps + 1 : 1;
  }

  /** Plan the next step (admission, budget, preemption); undefined when there is nothing to run. */
  plan(): PlannedStep | undefined {
    const policy = this.cfg.eff.policy;
    const work: PlannedStep['work'] = [];
    if (policy === 'prefill-first') this.planPrefillFirst(work);
    else this.planMixed(work, policy === 'no-evict');
    if (work.length === 0) return undefined;
    const tps = this.tokensPerSeq();
    const batch: StepBatch = {
      prefillTokens: 0,
      prefillAttnPairs: 0,
      decodeSeqs: 0,
      decodeCtx: 0,
      tokensPerSeq: tps,
      draftSteps: this.specSteps,
    };
    for (const w of work) {
      if (w.prefill > 0) {
        batch.prefillTokens += w.prefill;
        batch.prefillAttnPairs += w.prefill * (w.seq.computed + w.prefill / 2);
      }
      if (w.decode) {
        batch.decodeSeqs++;
        batch.decodeCtx += w.seq.req.promptLen + w.seq.generated;
      }
    }
    // Blocks read back from the prefix cache's host tier this step add their copy time.
    return { batch, seconds: stepTime(this.cfg, batch).seconds + this.pool.takeLoadSeconds(), work };
  }

  private planMixed(work: PlannedStep['work'], noEvict: boolean): void {
    let budget = this.limits.maxBatchedTokens;
    const scheduled = new Set<Seq>();
    const tps = this.tokensPerSeq();
    for (const seq of [...this.running]) {
      if (budget <= 0) break;
      if (seq.state !== 'running') continue; // preempted by an earlier sequence this step
      if (seq.computed < seq.promptEff) {
        const chunk = Math.min(seq.promptEff - seq.computed, budget);
        if (!this.growOrPreempt(seq, seq.computed + chunk, scheduled)) continue;
        work.push({ seq, prefill: chunk, decode: false });
        budget -= chunk;
      } else {
        if (!this.growOrPreempt(seq, seq.req.promptLen + seq.generated + tps, scheduled)) continue;
        work.push({ seq, prefill: 0, decode: true });
        budget -= tps;
      }
      scheduled.add(seq);
    }
    // No-evict admission reserves each request's whole prompt + max_tokens up front.
    let reserved = 0;
    if (noEvict) for (const s of this.running) reserved += blocksFor(s.req.promptLen + s.req.maxTokens) - s.blocks;
    while (budget > 0 && this.waiting.length && this.running.length < this.limits.maxRunningSeqs) {
      const seq = this.waiting[0]!;
      seq.computed = this.pool.hit(seq);
      let chunk = Math.min(seq.promptEff - seq.computed, budget);
      if (noEvict) {
        // TRT-LLM schedules whole prompts (chunked prefill off by default): all of it not cached.
        chunk = seq.promptEff - seq.computed;
        const full = blocksFor(seq.req.promptLen + seq.req.maxTokens);
        if ((chunk > budget && work.length > 0) || full > this.pool.free - reserved) {
          this.pool.abandon(seq);
          break;
        }
        reserved += full - blocksFor(seq.computed + chunk);
      }
      if (!this.grow(seq, seq.computed + chunk)) {
        this.pool.abandon(seq);
        seq.computed = 0;
        break;
      }
      delete seq.cached;
      this.admit(seq, chunk, work, scheduled);
      budget -= chunk;
    }
  }

  /** The waiting queue's head starts running: its first prefill chunk goes into this step. */
  private admit(seq: Seq, chunk: number, work: PlannedStep['work'], scheduled: Set<Seq>): void {
    this.waiting.shift();
    seq.req.cachedTokens ??= seq.computed;
    seq.state = 'running';
    this.running.push(seq);
    work.push({ seq, prefill: chunk, decode: false });
    scheduled.add(seq);
  }

  private planPrefillFirst(work: PlannedStep['work']): void {
    const tps = this.tokensPerSeq();
    // Unfinished chunked prefills continue first, then new requests while KV (with a reservation
    // for the running requests' future tokens) and the token budget allow.
    let budget = this.limits.maxBatchedTokens;
    let reserve = 0;
    for (const s of this.running) if (s.computed >= s.promptEff) reserve += (s.req.maxTokens - s.generated) * SGLANG_NEW_TOKEN_RATIO;
    const scheduled = new Set<Seq>();
    if (this.cfg.knobs.schedulePolicy === 'lpm') this.pool.orderByHit(this.waiting);
    for (const seq of this.running) {
      if (seq.computed < seq.promptEff && budget > 0) {
        const chunk = Math.min(seq.promptEff - seq.computed, budget);
        if (!this.grow(seq, seq.computed + chunk)) continue;
        work.push({ seq, prefill: chunk, decode: false });
        scheduled.add(seq);
        budget -= chunk;
      }
    }
    while (budget > 0 && this.waiting.length && this.running.length < this.limits.maxRunningSeqs) {
      const seq = this.waiting[0]!;
      seq.computed = this.pool.hit(seq);
      const need = blocksFor(seq.promptEff + seq.req.maxTokens * SGLANG_NEW_TOKEN_RATIO + reserve) - seq.blocks;
      const chunk = Math.min(seq.promptEff - seq.computed, budget);
      if ((need > this.pool.free && this.running.length > 0) || !this.grow(seq, seq.computed + chunk)) {
        this.pool.abandon(seq);
        seq.computed = 0;
        break;
      }
      reserve += seq.req.maxTokens * SGLANG_NEW_TOKEN_RATIO;
      this.admit(seq, chunk, work, scheduled);
      budget -= chunk;
    }
    if (work.length > 0) return;
    // Decode batch: every running sequence; retract the latest arrivals when KV runs out.
    for (const seq of [...this.running]) {
      if (seq.state !== 'running') continue;
      if (!this.growOrPreempt(seq, seq.req.promptLen + seq.generated + tps, scheduled)) continue;
      work.push({ seq, prefill: 0, decode: true });
      scheduled.add(seq);
    }
  }

  /** Apply a planned step's results; returns the tokens each request produced. */
  commit(step: PlannedStep): TokenEvent[] {
    const out: TokenEvent[] = [];
    this.stats.steps++;
    let finished = 0;
    for (const { seq, prefill, decode } of step.work) {
      if (seq.state !== 'running') continue;
      let produced = 0;
      let first = false;
      if (prefill > 0) {
        seq.computed += prefill;
        this.stats.promptTokens += prefill;
        // The step that finishes the prompt also samples the first output token.
        if (seq.computed >= seq.promptEff) {
          first = seq.generated === 0;
          produced = 1;
        }
      } else if (decode) {
        produced = 1;
        for (let i = 0; i < this.specSteps; i++) {
          if (this.rng.next() < HARDWARE.specAcceptRate) produced++;
          else break;
        }
      }
      produced = Math.min(produced, seq.req.outputTarget - seq.generated);
      if (produced > 0) {
        seq.generated += produced;
        this.stats.generationTokens += produced;
      }
      // Blocks filled by this step join the prefix cache (before a finished request lets go of them).
      this.pool.register(seq);
      if (produced <= 0) continue;
      const done = seq.generated >= seq.req.outputTarget;
      if (done) {
        seq.state = 'done';
        this.pool.release(seq);
        finished++;
      }
      out.push({ req: seq.req, tokens: produced, first, done });
    }
    if (finished) this.running = this.running.filter((s) => s.state === 'running');
    return out;
  }
}
