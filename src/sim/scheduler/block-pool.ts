// The KV budget in blocks, as the scheduler spends it: blocks free (or idle in the prefix cache,
// which the pool may evict), blocks each sequence holds, prefix hits at admission, and the blocks a
// sequence fills that join the cache. Requests whose token blocks are unknown (the virtual clock's
// length-only workloads) never hit; for those, vLLM's recompute preemption keeps the estimate it
// always had (legacyHit).
import { ENGINE_BEHAVIOUR } from '../../model/engine-behaviour.js';
import { HARDWARE } from '../../model/efficiency.js';
import type { ServerConfig } from '../../model/estimate.js';
import { PrefixCache } from './prefix-cache.js';
import type { Seq, SimRequest } from './scheduler-types.js';

const BLOCK = HARDWARE.kvBlockTokens;
export const blocksFor = (tokens: number) => Math.ceil(tokens / BLOCK);
/** SGLang turns longest-prefix-match off above this many waiting requests (schedule_policy.py _determine_active_policy). */
const LPM_MAX_QUEUE = 128;
const GiB = 1024 ** 3;

/** Is the prefix cache on for this server: the knob, else the engine's default, unless the attention backend turns reuse off. */
export function prefixCacheOn(cfg: Pick<ServerConfig, 'engine' | 'knobs'>): boolean {
  const b = ENGINE_BEHAVIOUR[cfg.engine];
  if (cfg.knobs.attentionBackend && b.noPrefixCacheBackends.includes(cfg.knobs.attentionBackend)) return false;
  return cfg.knobs.prefixCaching ?? b.prefixCacheByDefault;
}

export class BlockPool {
  free: number;
  /** Blocks handed out so far (monotonic): how far the free queue has been consumed since a preemption. */
  private allocated = 0;
  private readonly cache: PrefixCache | undefined;
  private readonly keepsPreempted: boolean;
  /** Simulated seconds one GPU takes to read a block back from host memory. */
  private readonly hostReadS: number;
  /** Host-memory reads the next step pays, seconds; and the last admission's share (undone if it fails). */
  private loadS = 0;
  private lastLoadS = 0;
  private readonly replicas: number;

  constructor(
    readonly total: number,
    readonly cfg: ServerConfig,
  ) {
    this.free = total;
    const on = prefixCacheOn(cfg);
    const perTokenHost = cfg.kvBytesPerTokenPerGpu * cfg.par.tp * cfg.par.pp;
    const hostBlocks = on && cfg.knobs.kvOffloadGiB ? Math.floor((cfg.knobs.kvOffloadGiB * GiB) / (perTokenHost * BLOCK)) : 0;
    this.cache = on ? new PrefixCache(hostBlocks) : undefined;
    this.keepsPreempted = on && ENGINE_BEHAVIOUR[cfg.engine].keepsPreemptedBlocks;
    this.hostReadS = (cfg.kvBytesPerTokenPerGpu * BLOCK) / HARDWARE.hostKvBytesPerS;
    this.replicas = Math.max(1, cfg.par.dp);
  }

  /** The cache keys of a request's blocks: each DP replica (or attention-DP rank) keeps its own cache, requests dealt round-robin. */
  keysOf(req: SimRequest): readonly number[] | undefined {
    if (!this.cache || !req.blocks) return undefined;
    if (this.replicas === 1) return req.blocks;
    const salt = (req.id % this.replicas) * 0x9e3779b1;
    return req.blocks.map((k) => (k + salt) % 2 ** 52);
  }

  /** Hand out `n` blocks, evicting idle cached blocks when the truly free ones do not suffice. */
  private take(n: number): void {
    if (this.cache) {
      const truly = this.free - this.cache.idleCount();
      if (n > truly) this.cache.evict(n - truly);
    }
    this.free -= n;
    this.allocated += n;
  }

  grow(seq: Seq, tokens: number): boolean {
    const need = blocksFor(tokens) - seq.blocks;
    if (need <= 0) return true;
    if (need > this.free) return false;
    this.take(need);
    seq.blocks += need;
    return true;
  }

  /** The sequence gives back every block it holds (cached ones stay cached, idle). */
  release(seq: Seq): void {
    let freed = seq.blocks;
    if (this.cache && seq.keys && seq.hashed) freed = seq.blocks - seq.hashed + this.cache.release(seq.keys, seq.hashed);
    this.free += freed;
    seq.blocks = 0;
    seq.hashed = 0;
  }

  /** Recompute preemption: vLLM's freed blocks keep their hashes (legacyHit) when the request's blocks are unknown. */
  preempt(seq: Seq): void {
    if (this.keepsPreempted && seq.blocks > 0 && !seq.keys)
      seq.cached = { blocks: seq.blocks, tokens: seq.computed, freeBefore: this.free, allocMark: this.allocated };
    this.release(seq);
  }

  /** Prompt tokens an admitted request finds cached (whole blocks, its last token always computed): it holds them from now on. */
  hit(seq: Seq): number {
    this.lastLoadS = 0;
    const keys = seq.keys;
    if (!this.cache || !keys) return this.legacyHit(seq);
    const max = Math.floor((seq.promptEff - 1) / BLOCK);
    let m = this.cache.match(keys, max);
    if (m.fromHost > 0 && this.free - m.idle < m.fromHost) m = this.cache.gpuRun(keys, max);
    if (m.blocks === 0) return 0;
    this.cache.hold(keys, m.blocks);
    this.free -= m.idle;
    seq.blocks = m.blocks;
    seq.hashed = m.blocks;
    if (m.fromHost > 0) {
      this.take(m.fromHost);
      this.lastLoadS = m.fromHost * this.hostReadS;
      this.loadS += this.lastLoadS;
    }
    return m.blocks * BLOCK;
  }

  /** The admission after hit() did not happen: give the blocks back. */
  abandon(seq: Seq): void {
    this.loadS -= this.lastLoadS;
    this.lastLoadS = 0;
    this.release(seq);
  }

  /** Host-memory reads to add to the step being planned (then cleared). */
  takeLoadSeconds(): number {
    const s = this.loadS;
    this.loadS = 0;
    return s;
  }

  /** Blocks the sequence has filled join the cache (a block cached already is shared instead). */
  register(seq: Seq): void {
    const keys = seq.keys;
    if (!this.cache || !keys) return;
    const kv = seq.computed < seq.promptEff ? seq.computed : seq.req.promptLen + seq.generated - 1;
    const full = Math.min(keys.length, Math.floor(kv / BLOCK), seq.blocks);
    for (; seq.hashed < full; seq.hashed++) {
      const r = this.cache.add(keys[seq.hashed]!);
      if (!r.own && !r.wasIdle) this.free += 1;
    }
  }

  /** Longest-prefix-match admission order (SGLang --schedule-policy lpm): most cached blocks first, stable. */
  orderByHit(waiting: Seq[]): void {
    const cache = this.cache;
    if (!cache || waiting.length > LPM_MAX_QUEUE) return;
    const score = new Map<Seq, number>();
    for (const s of waiting) score.set(s, s.keys ? cache.match(s.keys, Math.floor((s.promptEff - 1) / BLOCK)).blocks : 0);
    waiting.sort((a, b) => score.get(b)! - score.get(a)!);
  }

  /** Prompt tokens a re-admitted vLLM request finds in the prefix cache: its blocks not yet reused, whole blocks only. */
  private legacyHit(seq: Seq): number {
    const c = seq.cached;
    if (!c) return 0;
    const evicted = Math.max(0, this.allocated - c.allocMark - c.freeBefore);
    const kept = Math.max(0, c.blocks - evicted);
    return Math.max(0, Math.min(kept * BLOCK, Math.floor(c.tokens / BLOCK) * BLOCK, Math.floor((seq.promptEff - 1) / BLOCK) * BLOCK));
  }
}
