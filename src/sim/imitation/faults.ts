// Faults on the simulated host, for testing servelab's guards against partial success and
// regressions: by default a simulated server serves every request at the modelled speed.
// SERVELAB_SIM_FAULTS makes chosen knobs misbehave, so a test can see what a user would:
//   "quantization=fp8:fail=0.3"             30% of that server's requests fail (HTTP 500)
//   "quantization=fp8:slow=1.25:prompt<1500" requests with prompts under 1500 tokens take 1.25x
//                                            the decode work (a workload shape it is slower on);
//                                            a factor under 1 makes it that much faster instead
// Parts are comma-separated; each names a knob as SERVELAB_SIM_DRIFT does (imitation/drift.ts).
// The figures are whatever the test asks for: they model no engine and measure nothing.
import type { Knobs } from '../../core/variant.js';
import { knobValue } from './drift.js';

export interface Faults {
  /** Chance that a request fails (0: never). */
  failShare: number;
  /** Decode work multipliers, each for prompts on one side of a length. */
  slow: { factor: number; below?: number; above?: number }[];
}

const NONE: Faults = { failShare: 0, slow: [] };

/** The faults `spec` (SERVELAB_SIM_FAULTS) gives a server with these knobs; unknown parts are ignored. */
export function simFaults(knobs: Knobs, spec: string | undefined): Faults {
  if (!spec) return NONE;
  const out: Faults = { failShare: 0, slow: [] };
  for (const part of spec.split(',')) {
    const m = /^\s*([a-z-]+)=([^:]+):(fail=(\d*\.?\d+)|slow=(\d*\.?\d+)(?::prompt([<>])(\d+))?)\s*$/.exec(part);
    if (!m || knobValue(knobs, m[1]!) !== m[2]) continue;
    if (m[4] !== undefined) out.failShare = Math.min(1, out.failShare + Number(m[4]));
    else if (Number(m[5]) > 0) {
      const factor = Number(m[5]);
      out.slow.push(m[6] === '<' ? { factor, below: Number(m[7]) } : m[6] === '>' ? { factor, above: Number(m[7]) } : { factor });
    }
  }
  return out.failShare > 0 || out.slow.length ? out : NONE;
}

/** The decode work multiplier for a request of `promptLen` tokens (1: as modelled). */
export function slowFactor(f: Faults, promptLen: number): number {
  let k = 1;
  for (const s of f.slow) {
    if (s.below !== undefined && !(promptLen < s.below)) continue;
    if (s.above !== undefined && !(promptLen > s.above)) continue;
    k *= s.factor;
  }
  return k;
}
