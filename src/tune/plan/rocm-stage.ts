// The ROCm stage: on an AMD host, which of the carried winner's engine's ROCm switches (AITER and
// its sub-switches, quick-reduce, the runtime's scratch switch; src/engines/<engine>/rocm-stage.ts,
// reached through the adapter) serve this workload best. The switches are environment variables,
// so its variants differ from the winner by their environment alone. On an AMD host it joins the
// GPU engines' stages right after the attention stage; elsewhere a named `--stages rocm` is skipped
// with the reason. The same host also gets ROCm's attention backends in the attention stage.
import { getAdapter } from '../../engines/index.js';
import { resolveVersion } from '../../engines/data/versions.js';
import { rocmFp8Note } from '../../engines/data/rocm-fp8.js';
import type { PlanHost, StageOut } from '../../engines/kit/plan-types.js';
import type { Variant } from '../../core/variant.js';
import type { StageName } from '../config/config.js';
import type { ExpandContext } from './types.js';

const isAmd = (host: Pick<PlanHost, 'vendor'>) => host.vendor === 'amd';

/** The session's stages on this host: on an AMD host the ROCm stage follows the attention stage (unless named already). */
export function withRocmStage(stages: readonly StageName[], host: Pick<PlanHost, 'vendor'>): StageName[] {
  const at = stages.indexOf('attention');
  if (!isAmd(host) || at < 0 || stages.includes('rocm')) return [...stages];
  return [...stages.slice(0, at + 1), 'rocm', ...stages.slice(at + 1)];
}

function versionOf(w: Variant, ctx: ExpandContext): string {
  return resolveVersion(w.engine, w.engineVersion ?? ctx.deps.engineVersion?.(w.engine)).table;
}

export function rocmStage(w: Variant, ctx: ExpandContext): StageOut {
  if (!isAmd(ctx.host))
    return { candidates: [], notes: [], skipped: `not an AMD GPU host (${ctx.host.gpuName}): ROCm's switches apply to AMD GPUs only` };
  const own = getAdapter(w.engine).rocm;
  if (!own) return { candidates: [], notes: [], skipped: `${getAdapter(w.engine).label} has no ROCm switches servelab plans` };
  const out = own.stage({ knobs: w.knobs, version: versionOf(w, ctx), moe: !!ctx.deps.model(ctx.config.model)?.moe });
  const fp8 = rocmFp8Note(ctx.host.gpuName);
  const notes = [...out.notes, ...(fp8 ? [fp8] : [])];
  if (!out.candidates.length)
    return { candidates: [], notes, skipped: 'the carried winner already sets every ROCm switch this stage tries' };
  return { candidates: out.candidates, notes };
}

/** The attention backends an AMD host tries (the engine's ROCm rows); undefined on any other host. */
export function rocmAttentionBackends(w: Variant, ctx: ExpandContext): readonly string[] | undefined {
  if (!isAmd(ctx.host)) return undefined;
  return getAdapter(w.engine).rocm?.attentionBackends(versionOf(w, ctx)) ?? [];
}
