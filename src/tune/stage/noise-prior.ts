// The host's noise from earlier sessions, kept between sessions so that a new session does not
// decide on a margin narrower than this host has shown: a session whose first repeats agree by
// chance (3 degrees of freedom) would otherwise name a single winner its next session could not.
// Kept per host (GPUs, or the CPU and its threads), workload and objective, in the state folder
// beside the server ledger; the last SESSIONS_KEPT sessions' own figures (never a pool of pools),
// their median pooled by core/noise-rule.ts with a bounded weight. A simulated host has no prior: its noise is
// the simulator's, seeded per run.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { NoiseEstimate, NoisePrior } from '../../core/noise-rule.js';
import type { HostInfo } from '../../host/gpus.js';
import { stateDir } from '../../host/xdg.js';
import type { SessionConfig } from '../config/config.js';
import type { SessionContext } from '../context/session-context.js';
import { updateNoise } from './noise-runs.js';

const SESSIONS_KEPT = 5;

interface Kept {
  sdPct: number;
  df: number;
  at: string;
}

const file = () => join(stateDir(), 'noise-prior.json');

/** What sessions of the same kind share: the host, the workload and the objective. */
export function noisePriorKey(host: HostInfo, config: Pick<SessionConfig, 'scenario' | 'objective'>): string | undefined {
  if (host.simulated) return undefined;
  const g = host.gpus[0];
  const where = g ? `${host.gpus.length} x ${g.name}` : `CPU ${host.cpu?.model ?? 'unknown'} x ${host.cpu?.threads ?? '?'}`;
  return `${where} | ${config.scenario.name} ${config.scenario.numPrompts} prompts | ${config.objective}`;
}

function readAll(): Record<string, Kept[]> {
  try {
    if (!existsSync(file())) return {};
    const raw = JSON.parse(readFileSync(file(), 'utf8')) as unknown;
    return raw && typeof raw === 'object' ? (raw as Record<string, Kept[]>) : {};
  } catch {
    // A damaged file is no prior: the session measures its own noise as if it were the first.
    return {};
  }
}

/** The pooled prior of the last sessions of this kind; undefined for the first. */
export function readNoisePrior(key: string): NoisePrior | undefined {
  const kept = (readAll()[key] ?? []).filter((k) => k.df > 0 && Number.isFinite(k.sdPct));
  if (!kept.length) return undefined;
  // The median session, not their pooled variance: one session measured while something else took
  // the host (a ±320% start, perf/noise-agreement.log) would otherwise set every later margin.
  const sds = kept.map((k) => k.sdPct).sort((a, b) => a - b);
  const mid = sds.length / 2;
  const sdPct = sds.length % 2 ? sds[Math.floor(mid)]! : (sds[mid - 1]! + sds[mid]!) / 2;
  return { sdPct, df: kept.reduce((a, k) => a + k.df, 0), sessions: kept.length };
}

/** Keep a finished session's own noise (without the prior it was pooled with). Never throws. */
export function keepSessionNoise(key: string, own: NoiseEstimate): void {
  if (own.sdPct === undefined || !own.df) return;
  try {
    const all = readAll();
    all[key] = [...(all[key] ?? []), { sdPct: own.sdPct, df: own.df, at: new Date().toISOString() }].slice(-SESSIONS_KEPT);
    mkdirSync(stateDir(), { recursive: true });
    writeFileAtomic(file(), JSON.stringify(all, null, 1) + '\n');
  } catch {
    // A read-only state folder loses the prior, not the session.
  }
}

/** At the session's start: the prior of this kind of session, pooled into the noise before any repeat. */
export function openNoisePrior(ctx: SessionContext): void {
  const key = ctx.config.noNoisePrior ? undefined : noisePriorKey(ctx.host, ctx.config);
  if (!key) return;
  ctx.noisePriorKey = key;
  const prior = readNoisePrior(key);
  if (!prior) return;
  ctx.noisePrior = prior;
  updateNoise(ctx);
}

/** At a finished session's end: its own noise joins the prior of the sessions after it. */
export function closeNoisePrior(ctx: SessionContext): void {
  if (ctx.noisePriorKey && ctx.ownNoise) keepSessionNoise(ctx.noisePriorKey, ctx.ownNoise);
}
