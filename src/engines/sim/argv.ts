// sim-serve argv for a variant's knobs, from the neutral knob list (src/engines/data/knobs.ts).
// The parser on the other side is src/cli/sim-serve-args.ts; test/unit/sim/args.test.ts round-trips the two.
import type { Knobs } from '../../core/variant.js';
import { NEUTRAL_KNOBS, SPECULATIVE_FIELDS } from '../data/knobs.js';

/** Build sim-serve argv (without the executable) for a variant's knobs, from the knob list. */
export function knobsToSimArgs(k: Knobs): string[] {
  const out: string[] = [];
  for (const n of NEUTRAL_KNOBS) {
    const v = k[n.knob];
    if (v === undefined) continue;
    if (n.type === 'bool-on' && v === true) out.push(n.simFlag);
    else if (n.type === 'bool-off' && v === false) out.push(n.simFlag);
    else if (n.type === 'bool-switch') out.push(v ? n.simFlag : n.simFlag.replace(/^--/, '--no-'));
    else if (!n.type.startsWith('bool')) out.push(n.simFlag, String(v));
    if (n.knob === 'attentionBackend') pushSpeculative(out, k);
  }
  if (k.attentionBackend === undefined) pushSpeculative(out, k);
  // Engine-specific extras cannot change the simulation; they travel so the argv is complete.
  for (const a of k.extraArgs ?? []) out.push(`--engine-arg=${a}`);
  return out;
}

function pushSpeculative(out: string[], k: Knobs): void {
  const s = k.speculative;
  if (!s) return;
  for (const f of SPECULATIVE_FIELDS) {
    const v = s[f.field];
    if (v !== undefined) out.push(f.simFlag, String(v));
  }
}
