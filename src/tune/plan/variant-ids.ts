// Variant ids and labels: a stable id from what the variant is (resume relies on it), a short
// human label, and makeVariant, which builds both (and records the engine version spelled for).
import { describeKnobs, type EngineName, type Knobs, type Variant } from '../../core/variant.js';
import type { SessionConfig } from '../config/config.js';

const slug = (s: string) =>
  s
    .replace(/[^A-Za-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();

function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function modelTag(model: string, base: string, fp8?: string): string {
  if (model === base) return '';
  if (model === fp8) return 'fp8ckpt';
  return slug(model.split('/').pop() ?? model);
}

/** describeKnobs, plus the explicit "off" switches it leaves out (vLLM's compile-off candidate). */
function knobText(k: Knobs): string {
  const base = describeKnobs(k);
  const extra = k.torchCompile === false ? 'no-compile' : '';
  if (!extra) return base;
  return base === 'defaults' ? extra : `${base} ${extra}`;
}

/** Stable id from what the variant is: the same variant gets the same id in every run (resume relies on it). */
export function variantId(engine: EngineName, model: string, knobs: Knobs, base: string, fp8?: string): string {
  const { extraArgs, ...rest } = knobs;
  const parts = [engine, modelTag(model, base, fp8)];
  const k = knobText(rest);
  if (k !== 'defaults') parts.push(slug(k));
  if (extraArgs?.length) parts.push(`x${hash8(extraArgs.join('\u0000'))}`);
  return parts.filter(Boolean).join('-') || engine;
}

export function variantLabel(v: Pick<Variant, 'engine' | 'model' | 'knobs'>, base: string, fp8?: string): string {
  const tag = modelTag(v.model, base, fp8);
  const { extraArgs, ...rest } = v.knobs;
  const k = knobText(rest);
  return [
    v.engine,
    tag === 'fp8ckpt' ? 'fp8-ckpt' : tag,
    k === 'defaults' && !tag ? 'defaults' : k === 'defaults' ? '' : k,
    extraArgs?.length ? `+${extraArgs.join(' ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export function makeVariant(
  engine: EngineName,
  model: string,
  knobs: Knobs,
  config: Pick<SessionConfig, 'model'>,
  fp8?: string,
  engineVersion?: string,
): Variant {
  const clean = Object.fromEntries(Object.entries(knobs).filter(([, v]) => v !== undefined)) as Knobs;
  return {
    id: variantId(engine, model, clean, config.model, fp8),
    engine,
    model,
    knobs: clean,
    label: variantLabel({ engine, model, knobs: clean }, config.model, fp8),
    // The id stays version-free (resume and replay match on it); the spelling follows the version.
    ...(engineVersion ? { engineVersion } : {}),
  };
}
