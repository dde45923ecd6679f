// Finding and summarising the profiles in a few folders. A bad file is a row with its one-line
// error, never a crash of the listing.
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadProfile } from './store.js';

export interface ProfileRow {
  file: string;
  ok: boolean;
  model?: string;
  gpu?: string;
  gpus?: number;
  simulated?: boolean;
  engine?: string;
  engineVersion?: string;
  totalTokPerS?: number;
  createdAt?: string;
  source?: string;
  replays?: number;
  lastVerdict?: string;
  error?: string;
}

/** `*.json` files of each folder that exists, each file once, in folder then name order. */
export function findProfileFiles(dirs: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const d of dirs) {
    if (!existsSync(d) || !statSync(d).isDirectory()) continue;
    for (const name of readdirSync(d)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const file = join(d, name);
      const real = realpathSync(resolve(file));
      if (seen.has(real)) continue;
      seen.add(real);
      out.push(file);
    }
  }
  return out;
}

export function summarize(file: string): ProfileRow {
  try {
    const p = loadProfile(file);
    return {
      file,
      ok: true,
      model: p.variant.model,
      gpu: p.host.gpuName,
      gpus: p.host.gpuCount,
      simulated: p.host.simulated,
      engine: p.engine.name,
      engineVersion: p.engine.version,
      totalTokPerS: p.metrics.total_token_throughput,
      createdAt: p.createdAt,
      source: p.source,
      replays: p.replays.length,
      lastVerdict: p.replays.at(-1)?.verdict,
    };
  } catch (e) {
    return { file, ok: false, error: (e as Error).message };
  }
}

export function listProfiles(dirs: readonly string[]): ProfileRow[] {
  return findProfileFiles(dirs).map(summarize);
}
