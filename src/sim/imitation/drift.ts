// Greedy output drift on the simulated host, for testing servelab's quality check: by default a
// simulated server's greedy text depends only on the prompt and max_tokens, whatever its knobs
// (no numerical drift at all). SERVELAB_SIM_DRIFT makes chosen knobs drift, so a test can see a
// variant disagree with its baseline: "kv-cache-dtype=fp8:0.02,quantization=fp8:0.01" gives each
// generated token a 2% (plus 1%) chance to be the first that differs. The rates are whatever the
// test asks for: they model no engine and measure nothing.
import type { Knobs } from '../../core/variant.js';

export interface Drift {
  /** Chance per generated token that greedy decoding leaves the undrifted text (0: never). */
  perToken: number;
  /** Which knobs drift (two variants drifting differently diverge differently). */
  key: string;
}

const NONE: Drift = { perToken: 0, key: '' };

/** knob name as the sim's flags spell it -> the Knobs value it is read from (the faults hook reads it too). */
export function knobValue(knobs: Knobs, name: string): string | undefined {
  switch (name) {
    case 'quantization':
      return knobs.quantization;
    case 'kv-cache-dtype':
      return knobs.kvCacheDtype;
    case 'attention-backend':
      return knobs.attentionBackend;
    case 'speculative':
      return knobs.speculative?.method;
    default:
      return undefined;
  }
}

/** The drift `spec` (SERVELAB_SIM_DRIFT) gives a server with these knobs; unknown parts are ignored. */
export function simDrift(knobs: Knobs, spec: string | undefined): Drift {
  if (!spec) return NONE;
  let perToken = 0;
  const keys: string[] = [];
  for (const part of spec.split(',')) {
    const m = /^\s*([a-z-]+)=([^:]+):(\d*\.?\d+)\s*$/.exec(part);
    if (!m || knobValue(knobs, m[1]!) !== m[2]) continue;
    perToken += Number(m[3]);
    keys.push(`${m[1]}=${m[2]}`);
  }
  return perToken > 0 ? { perToken: Math.min(1, perToken), key: keys.join(',') } : NONE;
}

/** The first generated token (0-based) that drifts for a request whose draw is `u` in [0, 1); Infinity when none. */
export function driftStart(d: Drift, u: number): number {
  if (d.perToken <= 0) return Infinity;
  if (d.perToken >= 1) return 0;
  // Geometric: each token drifts with chance perToken, the first one that does starts the drift.
  return Math.floor(Math.log(1 - u) / Math.log(1 - d.perToken));
}
