// The imitated engine's own prefix-cache flags among sim-serve's `--engine-arg` extras (a user's
// --extra-args), read back into knobs through that engine's knob table, so a simulated server
// caches as the real one would with the same argv. Extras come after servelab's own flags in the
// real command, so they win there and here.
import type { EngineName, Knobs } from '../../core/variant.js';
import { rowsAt } from '../../engines/table.js';
import { resolveVersion } from '../../engines/data/versions.js';

const CACHE_KNOBS = ['prefixCaching', 'kvOffloadGiB', 'schedulePolicy', 'slotPromptSimilarity'] as const;
type CacheKnob = (typeof CACHE_KNOBS)[number];

/** Cache knobs the engine argv `extras` sets (`--flag value`, `--flag=value`, or a switch). */
export function cacheKnobsFromEngineArgs(engine: EngineName, version: string | undefined, extras: readonly string[]): Partial<Knobs> {
  const rows = rowsAt(engine, resolveVersion(engine, version).table).filter(
    (r) => r.via === 'flag' && (CACHE_KNOBS as readonly string[]).includes(r.knob),
  );
  const out: Partial<Record<CacheKnob, unknown>> = {};
  for (let i = 0; i < extras.length; i++) {
    const [tok, inline] = extras[i]!.split(/=(.*)/s) as [string, string | undefined];
    for (const r of rows) {
      const knob = r.knob as CacheKnob;
      const switchValue = r.values && Object.entries(r.values).find(([, flag]) => flag === tok)?.[0];
      if (switchValue === 'true' || switchValue === 'false') out[knob] = switchValue === 'true';
      else if (tok !== r.name) continue;
      // A switch that only turns the engine's default off (SGLang --disable-radix-cache).
      else if (r.engineDefault === 'true' && !r.values) out[knob] = false;
      else {
        const raw = inline ?? extras[++i];
        if (raw === undefined) continue;
        out[knob] = knob === 'schedulePolicy' ? raw : Number(raw);
      }
    }
  }
  return out as Partial<Knobs>;
}
