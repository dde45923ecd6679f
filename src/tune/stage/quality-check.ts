// The quality check in a session: which launches send the greedy prompts, and what
// their outputs say. Each engine's engine-stage run (on defaults; the session's baseline among
// them) is the reference its later variants are compared with: a variant of that engine that
// changes numerics against it (src/quality/greedy.ts numericsChanges) is asked for the same
// prompts, and its agreement, with --quality-eval its accuracy, rides on its result.
import { basename } from 'node:path';
import type { VariantResult } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import { agreement, exactMatchAccuracy } from '../../quality/agreement.js';
import { numericsChanges, QUALITY_MAX_TOKENS, randomWeightsNote, readQualityEval } from '../../quality/greedy.js';
import type { QualityCheckRecord, VariantQuality } from '../../core/quality-schema.js';
import { qualityGpuS } from '../../quality/text.js';
import type { QualityRequest } from '../run/contract/types.js';
import type { QualityReference, SessionContext } from '../context/session-context.js';

/** The reference a variant is compared with: its engine's engine-stage run. */
function referenceFor(ctx: SessionContext, v: Variant): QualityReference | undefined {
  return ctx.qualityRefs?.get(v.engine);
}

/** The greedy prompts to ask this launch for; undefined when it needs none (no --quality, a repeat, same numerics). */
export function qualityRequest(ctx: SessionContext, variant: Variant, stage: string, repeat: number): QualityRequest | undefined {
  const q = ctx.config.quality;
  if (!q || repeat > 0 || stage.startsWith('validation')) return undefined;
  if (stage !== 'engine') {
    const ref = referenceFor(ctx, variant);
    if (!ref || !numericsChanges(ref.variant, variant).length) return undefined;
  }
  return { count: q.prompts, ...(q.eval ? { prompts: readQualityEval(q.eval).map((i) => i.prompt) } : {}) };
}

/** A speculative variant that does not agree exactly under greedy sampling (it should: the target model verifies every token). */
export function speculativeMismatch(q: Pick<VariantQuality, 'changes' | 'agreement'>): boolean {
  return !!q.agreement && q.agreement.exactMatch < 1 && !!q.changes?.some((c) => c.startsWith('speculative'));
}

/**
 * The result with its quality worked out: an engine-stage run becomes its engine's reference
 * (keeping its texts), a later one gets its agreement with the reference (texts dropped).
 */
export function withQuality(ctx: SessionContext, result: VariantResult): VariantResult {
  const q = result.quality;
  if (!q?.texts || !ctx.config.quality) return result;
  const evalFile = ctx.config.quality.eval;
  const accuracy = evalFile
    ? {
        accuracy: exactMatchAccuracy(
          q.texts,
          readQualityEval(evalFile)
            .slice(0, q.texts.length)
            .map((i) => i.expected),
        ),
      }
    : {};
  if (result.stage === 'engine') {
    ctx.qualityRefs ??= new Map();
    if (!ctx.qualityRefs.has(result.variant.engine))
      ctx.qualityRefs.set(result.variant.engine, { variantId: result.variantId, variant: result.variant, texts: q.texts });
    return { ...result, quality: { ...q, ...accuracy } };
  }
  const ref = referenceFor(ctx, result.variant);
  const { texts, ...rest } = q;
  if (!ref) return { ...result, quality: { ...rest, ...accuracy } };
  const changes = numericsChanges(ref.variant, result.variant);
  const a = agreement(ref.texts, texts);
  const floor = ctx.config.quality.floor;
  const out: VariantQuality = {
    ...rest,
    ...accuracy,
    changes,
    referenceId: ref.variantId,
    agreement: a,
    ...(floor !== undefined && a.exactMatch < floor ? { belowFloor: floor } : {}),
  };
  return { ...result, quality: { ...out, ...(speculativeMismatch(out) ? { speculativeMismatch: true } : {}) } };
}

/** The warnings a fresh quality result brings: speculative decoding that disagrees, and (once) random weights. */
export function qualityWarnings(ctx: SessionContext, r: VariantResult): void {
  const q = r.quality;
  if (!q) return;
  if (q.speculativeMismatch) {
    ctx.emit({
      type: 'warning',
      message: `${r.variantId}: speculative decoding under greedy sampling should agree exactly with ${q.referenceId}, and does not (exact match ${((q.agreement?.exactMatch ?? 0) * 100).toFixed(0)}%)`,
    });
  }
  const note = randomWeightsNote(!!q.randomWeights);
  if (note && !ctx.warnedRandomWeights) {
    ctx.warnedRandomWeights = true;
    ctx.emit({ type: 'warning', message: `quality check: ${note}` });
  }
}

/** The profile's quality record: the settings and the GPU-seconds every checked launch spent; null without --quality. */
export function qualityRecord(
  ctx: SessionContext,
  results: readonly Pick<VariantResult, 'quality'>[],
): { quality: QualityCheckRecord } | Record<string, never> {
  const q = ctx.config.quality;
  if (!q) return {};
  const rec: QualityCheckRecord = {
    prompts: q.prompts,
    maxTokens: QUALITY_MAX_TOKENS,
    gpuS: qualityGpuS(results),
    ...(q.floor !== undefined ? { floor: q.floor } : {}),
    ...(q.eval ? { eval: basename(q.eval) } : {}),
  };
  return { quality: results.some((r) => r.quality?.randomWeights) ? { ...rec, randomWeights: true } : rec };
}
