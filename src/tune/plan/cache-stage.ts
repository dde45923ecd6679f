// The cache stage: does the carried winner's prefix cache pay on this workload, and which of its
// engine's cache knobs (src/engines/<engine>/cache-stage.ts, reached through the adapter) serve it best. It is offered only when
// the workload resends what it sent before (workloadReuse, the one owner of that answer), and
// skipped with that answer otherwise. It also writes the notes other stages need on such traffic:
// DP replicas keep one cache each, and some attention backends turn the cache off.
import { getAdapter } from '../../engines/index.js';
import { resolveVersion } from '../../engines/data/versions.js';
import { ENGINE_BEHAVIOUR } from '../../model/engine-behaviour.js';
import { workloadReuse } from '../../core/workload-reuse.js';
import type { Variant } from '../../core/variant.js';
import type { Candidate } from '../../engines/kit/plan-types.js';
import type { ExpandContext } from './types.js';

type StageOut = { candidates: Candidate[]; skipped?: string; notes: string[] };

/** What DP replicas do to a prefix cache, said where replicas are planned or carried. */
export function replicaCacheNote(replicas: number): string {
  return (
    `With ${replicas} DP replicas each replica keeps its own prefix cache and requests are dealt round-robin, so the requests that share a prefix ` +
    '(one system prompt, the turns of one conversation) land on different replicas and each computes the prefix again. A cache-aware router ' +
    '(a later step) would send them to the replica that holds their prefix: it could change this answer in favour of replicas.'
  );
}

export function cacheStage(w: Variant, ctx: ExpandContext): StageOut {
  const reuse = workloadReuse(ctx.config.scenario);
  if (!reuse.has) return { candidates: [], notes: [], skipped: `no prefix reuse for a cache to serve: ${reuse.why}` };
  const version = resolveVersion(w.engine, w.engineVersion ?? ctx.deps.engineVersion?.(w.engine)).table;
  const own = getAdapter(w.engine).cacheStage?.({ knobs: w.knobs, version }) ?? { candidates: [], notes: [] };
  const notes = [`Possible reuse: ${reuse.why}.`, ...own.notes];
  if ((w.knobs.dp ?? 1) > 1 && ENGINE_BEHAVIOUR[w.engine].dpAddsReplicas && !w.knobs.dpAttention) notes.push(replicaCacheNote(w.knobs.dp!));
  const candidates = own.candidates.map((c) => ({ knobs: c.knobs, change: c.change, needs: c.needs }));
  if (!candidates.length) return { candidates, notes, skipped: 'the carried winner already sets every cache knob this stage tries' };
  return { candidates, notes };
}

/** The attention stage on shared-prefix traffic: a backend that turns the engine's prefix cache off measures caching, not its kernels. */
export function cacheOffBackendNotes(w: Variant, backends: readonly string[], ctx: ExpandContext): string[] {
  const reuse = workloadReuse(ctx.config.scenario);
  if (!reuse.has) return [];
  return ENGINE_BEHAVIOUR[w.engine].noPrefixCacheBackends
    .filter((b) => backends.includes(b))
    .map(
      (b) =>
        `attn=${b}: ${getAdapter(w.engine).label} reuses no KV block under this backend (engine audit 4: 1.2.1 logs cache_reuse=False), so on this workload (${reuse.why}) the comparison measures the prefix cache, not the attention kernel.`,
    );
}

/** The parallelism stage on shared-prefix traffic, when it tries DP replicas. */
export function parallelismCacheNotes(candidates: readonly Candidate[], ctx: ExpandContext): string[] {
  if (!workloadReuse(ctx.config.scenario).has) return [];
  const dp = Math.max(0, ...candidates.filter((c) => (c.knobs.dp ?? 1) > 1 && !c.knobs.dpAttention).map((c) => c.knobs.dp!));
  return dp > 1 ? [replicaCacheNote(dp)] : [];
}
