// Observations for `servelab calibrate`, read from what servelab already records: a profile (its
// host, workload and every stage result) or a run folder (session.json's config, plan.json's
// host, results/*.json, one journalled measurement each). Only measured results count: ok, with
// a throughput; pruned, failed and skipped variants say nothing about the host.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import type { VariantResult } from '../core/events.js';
import type { PlanHostInfo } from '../core/events.js';
import { observationOf, workloadOf, type SimObservation } from '../sim/predict/calibrated.js';
import { loadProfile } from '../profiles/store/store.js';
import type { Profile, HostFingerprint } from '../profiles/schema/profile.js';
import type { SessionConfig } from '../tune/config/config.js';

export interface Source {
  path: string;
  host: HostFingerprint;
  engineVersions: Record<string, string>;
  observations: SimObservation[];
}

export function profileSource(path: string): Source {
  let p: Profile;
  try {
    p = loadProfile(path);
  } catch (e) {
    throw new UserError(`${path}: ${(e as Error).message}`);
  }
  const host: HostFingerprint = {
    gpuName: p.host.gpuName,
    gpuCount: p.host.gpuCount,
    gpuMemoryMiB: p.host.gpuMemoryMiB,
    ...(p.host.driver ? { driver: p.host.driver } : {}),
    ...(p.host.cuda ? { cuda: p.host.cuda } : {}),
    simulated: p.host.simulated,
    ...cpuPart(p.host.cpuThreads, p.host.cpuModel),
  };
  const workload = workloadOf({ ...p.workload, name: p.workload.scenario });
  const versions = { ...p.engineVersions, [p.engine.name]: p.engineVersions[p.engine.name] ?? p.engine.version };
  const observations = p.stages.flatMap((s) => s.results.flatMap((r) => observationOf(r, host, workload, versions) ?? []));
  return { path, host, engineVersions: versions, observations };
}

const readJson = <T>(file: string, what: string): T => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (e) {
    throw new UserError(`${file}: cannot read ${what} (${(e as Error).message})`);
  }
};

/** The CPU fingerprint of a llama.cpp host (checked by --calibration): threads and model name, where recorded. */
const cpuPart = (threads: number | undefined, model: string | undefined) => ({
  ...(threads ? { cpuThreads: threads } : {}),
  ...(model ? { cpuModel: model } : {}),
});

export function runDirSource(dir: string): Source {
  const state = readJson<{ config?: SessionConfig }>(join(dir, 'session.json'), 'the run state');
  const config = state.config;
  if (!config?.scenario) throw new UserError(`${dir}: session.json has no session config`);
  const plan = existsSync(join(dir, 'plan.json'))
    ? readJson<{ host?: PlanHostInfo & { cpu?: { threads?: number; model?: string } } }>(join(dir, 'plan.json'), 'the plan').host
    : undefined;
  const gpuName = plan?.gpuName ?? config.sim?.gpu;
  if (!gpuName) throw new UserError(`${dir}: no plan.json and no simulated host in session.json: the host is not known`);
  const host: HostFingerprint = {
    gpuName,
    gpuCount: plan?.gpuCount ?? config.sim!.gpus,
    gpuMemoryMiB: plan?.gpuMemMiB ?? 0,
    ...(plan?.driver ? { driver: plan.driver } : {}),
    simulated: plan?.simulated ?? !!config.sim,
    ...cpuPart(plan?.cpu?.threads, plan?.cpu?.model),
  };
  const scenarios = [config.scenario, ...(config.validation ?? [])];
  const gpusPerNode = config.sim?.nodes ? config.sim.gpus / config.sim.nodes : undefined;
  const results = join(dir, 'results');
  const files = existsSync(results)
    ? readdirSync(results)
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];
  const observations: SimObservation[] = [];
  const versions: Record<string, string> = {};
  for (const f of files) {
    const entry = readJson<{ result?: VariantResult }>(join(results, f), 'a journalled result');
    const r = entry.result;
    const sc = r && scenarios.find((s) => s.name === r.scenario);
    if (!r || !sc) continue;
    const o = observationOf(r, host, workloadOf(sc), {}, gpusPerNode);
    if (!o) continue;
    observations.push(o);
    if (o.run.engineVersion) versions[o.engine] = o.run.engineVersion;
  }
  return { path: dir, host, engineVersions: versions, observations };
}

/** A run folder (a directory with session.json) or a profile (a JSON file). */
export function readSource(path: string): Source {
  if (!existsSync(path)) throw new UserError(`${path}: no such file or folder`);
  if (statSync(path).isDirectory()) {
    if (!existsSync(join(path, 'session.json'))) throw new UserError(`${path}: not a servelab run folder (no session.json)`);
    return runDirSource(path);
  }
  return profileSource(path);
}
