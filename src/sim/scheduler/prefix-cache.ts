// The prefix cache's contents: KV blocks known by the hash of their tokens (and of every token
// before them), the sequences holding each, the blocks no sequence holds in least-recently-used
// order, and an optional second tier in host memory that evicted blocks move to. It only says
// which blocks are where; the block pool (block-pool.ts) counts them against the KV budget.
//
// As in vLLM's block pool (v1/core/block_pool.py): a block a finished request leaves behind stays
// cached until its memory is needed, and the oldest such block goes first; a request's blocks are
// released tail first (single_type_kv_cache_manager.py free(): "so that the tail blocks are
// evicted first"). SGLang's radix cache evicts least-recently-used leaves, the same order here.

export interface CacheMatch {
  /** Leading blocks found, on the GPU or in host memory. */
  blocks: number;
  /** Of them, blocks only in host memory (they need GPU blocks and a copy back). */
  fromHost: number;
  /** Of them, GPU blocks no sequence holds (taking them leaves fewer free blocks). */
  idle: number;
}

export class PrefixCache {
  /** Sequences holding each cached GPU block (0: idle, evictable). */
  private readonly refs = new Map<number, number>();
  /** Idle GPU blocks, oldest first. */
  private readonly idle = new Map<number, true>();
  /** Blocks in host memory, oldest first. */
  private readonly host = new Map<number, true>();

  constructor(private readonly hostBlocks: number) {}

  /** GPU blocks no sequence holds: free for the pool, until evicted. */
  idleCount(): number {
    return this.idle.size;
  }

  /** How many leading blocks of `keys` (at most `max`) are cached, and where. */
  match(keys: readonly number[], max: number): CacheMatch {
    const out: CacheMatch = { blocks: 0, fromHost: 0, idle: 0 };
    const n = Math.min(max, keys.length);
    while (out.blocks < n) {
      const k = keys[out.blocks]!;
      const r = this.refs.get(k);
      if (r !== undefined) {
        if (r === 0) out.idle++;
      } else if (this.host.has(k)) out.fromHost++;
      else break;
      out.blocks++;
    }
    return out;
  }

  /** Leading blocks of `keys` held on the GPU, stopping at the first that is not (a match without host memory). */
  gpuRun(keys: readonly number[], max: number): CacheMatch {
    const out: CacheMatch = { blocks: 0, fromHost: 0, idle: 0 };
    while (out.blocks < Math.min(max, keys.length)) {
      const r = this.refs.get(keys[out.blocks]!);
      if (r === undefined) break;
      if (r === 0) out.idle++;
      out.blocks++;
    }
    return out;
  }

  /** A sequence holds the first `n` blocks of `keys` (a match): blocks from host memory become GPU blocks. */
  hold(keys: readonly number[], n: number): void {
    for (let i = 0; i < n; i++) {
      const k = keys[i]!;
      const r = this.refs.get(k);
      if (r === 0) this.idle.delete(k);
      else if (r === undefined) this.host.delete(k);
      this.refs.set(k, (r ?? 0) + 1);
    }
  }

  /**
   * A sequence's own block filled up with the tokens of `key`: it becomes a cache entry (true), or,
   * when the same block is cached already, the sequence holds that one and gives its own back
   * (false; `wasIdle` says whether the cached one was idle).
   */
  add(key: number): { own: boolean; wasIdle: boolean } {
    const r = this.refs.get(key);
    if (r === undefined) {
      this.host.delete(key);
      this.refs.set(key, 1);
      return { own: true, wasIdle: false };
    }
    if (r === 0) this.idle.delete(key);
    this.refs.set(key, r + 1);
    return { own: false, wasIdle: r === 0 };
  }

  /** A sequence lets go of its first `n` blocks of `keys`, tail first; returns how many became idle. */
  release(keys: readonly number[], n: number): number {
    let idled = 0;
    for (let i = n - 1; i >= 0; i--) {
      const k = keys[i]!;
      const r = (this.refs.get(k) ?? 1) - 1;
      this.refs.set(k, r);
      if (r === 0) {
        this.idle.set(k, true);
        idled++;
      }
    }
    return idled;
  }

  /** Evict the `n` oldest idle blocks (to host memory when there is a host tier). */
  evict(n: number): void {
    let left = n;
    for (const k of this.idle.keys()) {
      if (left-- <= 0) break;
      this.idle.delete(k);
      this.refs.delete(k);
      if (this.hostBlocks > 0) this.toHost(k);
    }
  }

  private toHost(k: number): void {
    this.host.delete(k);
    this.host.set(k, true);
    if (this.host.size > this.hostBlocks) {
      const oldest = this.host.keys().next().value;
      if (oldest !== undefined) this.host.delete(oldest);
    }
  }
}
