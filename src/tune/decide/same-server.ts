// "Same server": a variant whose knobs, with every unset knob replaced by the engine's
// own default for this release, GPU and model (engine-defaults.ts, each default with the file and
// release it was read from), equal another variant's is the same server, and launching it would
// decide nothing. Variants are compared setting by setting; a knob left to a default servelab
// has not read stays "default", which equals only another "default", so whenever a default is
// not known the variant is launched.
//
// Defaults are known only for the releases engine-defaults.ts read. A session whose engine
// version is another one, or a real host whose engine version is not known, launches every
// variant. On the simulated host the release is the one the commands are spelled for (the
// simulator stands in for it).
import type { VariantResult } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import { tableDefaults } from '../../engines/table.js';
import { DEFAULT_VERSION, resolveVersion } from '../../engines/data/versions.js';
import { DEFAULTS_READ, readSettings, type ServerContext, type Setting } from '../../engines/data/engine-defaults.js';

/** How a same-server reason starts (the plan text counts them by it). */
export const SAME_SERVER = 'same server as ';
/** The short status of such a result in tables. */
export const SAME_SERVER_STATUS = 'same server';

/** A result filed, not launched, because it is the same server as one measured (see sameServerAs). */
export function isSameServer(r: Pick<VariantResult, 'status' | 'failure'>): boolean {
  return r.status === 'skipped' && r.failure?.kind === 'skipped' && r.failure.reason.startsWith(SAME_SERVER);
}

/** The release whose defaults apply, or undefined when it is not known exactly. */
export function defaultsRelease(v: Variant, ctx: ServerContext): string | undefined {
  if (v.engineVersion) {
    const r = resolveVersion(v.engine, v.engineVersion);
    return r.exact ? r.table : undefined;
  }
  return ctx.host.simulated ? DEFAULT_VERSION[v.engine] : undefined;
}

const unknown = (explicit: unknown): Setting => ({ value: explicit === undefined ? 'default' : `unmapped ${JSON.stringify(explicit)}` });

/** Every setting of a variant, unset ones resolved where the release's defaults are known. */
export function effectiveSettings(v: Variant, ctx: ServerContext): Map<string, Setting> {
  const out = new Map<string, Setting>();
  out.set('engine', { value: v.engine });
  out.set('model', { value: v.model });
  for (const [k, val] of Object.entries(v.knobs)) if (val !== undefined) out.set(k, { value: JSON.stringify(val) });
  const release = defaultsRelease(v, ctx);
  out.set('release', { value: release ?? 'unknown' });
  // Defaults the knob tables record for the release (vLLM >= 0.17's performance mode: balanced).
  if (release)
    for (const d of tableDefaults(v.engine, release))
      if (v.knobs[d.knob] === undefined) out.set(d.knob, { value: JSON.stringify(d.value), fact: d.fact });
  if (!release || !DEFAULTS_READ[v.engine]?.includes(release)) return out;
  const k = v.knobs;
  // vllm/config/cache.py (0.11.0) and server_args.py (0.5.5, 0.5.13): the KV cache dtype defaults to "auto".
  if (k.kvCacheDtype === undefined)
    out.set('kvCacheDtype', { value: '"auto"', fact: `${v.engine} ${release}'s KV cache dtype is auto by default` });
  for (const [knob, setting] of readSettings(v, ctx, release)) out.set(knob, setting ?? unknown(k[knob]));
  return out;
}

/**
 * When `a` is by its engine's defaults the same server as `b` (already measured on the same GPUs
 * and workload), the line that says so; undefined when they differ or it cannot be told.
 */
export function sameServerAs(a: Variant, b: Variant, ctx: ServerContext): string | undefined {
  if (a.engine !== b.engine || (a.engineVersion ?? '') !== (b.engineVersion ?? '')) return undefined;
  const ea = effectiveSettings(a, ctx);
  const eb = effectiveSettings(b, ctx);
  if (ea.get('release')!.value === 'unknown') return undefined;
  const facts: string[] = [];
  for (const key of new Set([...ea.keys(), ...eb.keys()])) {
    const x = ea.get(key);
    const y = eb.get(key);
    if (!x || !y || x.value !== y.value) return undefined;
    // The default that makes one side's explicit value the other side's unset one.
    const fact = x.fact ?? y.fact;
    if (fact && !x.fact !== !y.fact && !facts.includes(fact)) facts.push(fact);
  }
  // Equal with no default in play is the same command, which the planner drops already.
  if (!facts.length) return undefined;
  return `${SAME_SERVER}${b.id} (${facts.join('; ')}): not launched, its measurement is reused`;
}
