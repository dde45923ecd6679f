// Replay: bring a profile's server back on this host (or the simulated one), re-run the recorded
// workload through the tuning core's runVariant, and judge the numbers against the recorded ones.
// The command module asks for consent and prints; this module decides and runs.
import { replayTolerance } from './noise-tolerance.js';
import { isGpuEngine } from '../../core/variant.js';
import { join } from 'node:path';
import type { TuneEvent, VariantResult } from '../../core/events.js';
import { UserError } from '../../core/errors.js';
import { VERSION } from '../../core/version.js';
import { hostVendor, simulatedHost, type HostInfo } from '../../host/gpus.js';
import { detectHost } from '../../host/gpu-detect.js';
import { cpuOnlyHost } from '../../host/cpu.js';
import { findFreePort } from '../../host/ports.js';
import { findGpu } from '../../model/gpus.js';
import { launchContext, prepareLaunch } from '../launch/launch.js';
import { runVariant } from '../run/runner.js';
import { autoSimSpeed } from '../launch/workloads.js';
import type { Scenario } from '../../core/scenario.js';
import { checkRunnable } from '../../profiles/safety/command.js';
import type { HostFingerprint, Profile, ReplayRecord } from '../../profiles/schema/profile.js';
import { judgeReplay, type ReplayJudgement } from '../../profiles/report/verdict.js';
import { scenarioForWorkload } from '../config/profile-workload.js';
import { simGpuFor } from '../../profiles/sim-gpu.js';
import type { RunVariantContext } from '../run/contract/types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';
import { getAdapter } from '../../engines/index.js';

export const EXIT = { ok: 0, failed: 1, badInput: 2, regression: 3 } as const;

export interface ReplayOptions {
  sim: boolean;
  /** Simulated clock factor (the most, with autoSpeed). */
  speed: number;
  /** No --speed given: each launch picks the fastest clock the client can follow (src/tune/launch/simspeed.ts). */
  autoSpeed?: boolean;
  tolerancePct: number;
  datasetPath?: string;
  readyTimeoutS: number;
  /** Folder for this replay's server log. */
  logsDir: string;
  bindHost: string;
  portStart: number;
  allowAnyCommand: boolean;
  /** Env names the user allows a profile to set (--allow-env). */
  allowEnv?: string[];
  signal?: AbortSignal;
  emit?: (e: TuneEvent) => void;
}

export interface ReplaySetup {
  profile: Profile;
  file: string;
  host: HostInfo;
  current: HostFingerprint;
  engineVersion?: string;
  /** What differs from the host the profile was tuned on, one line each. */
  differences: string[];
  scenario: Scenario;
  notes: string[];
  /** What will run (argv[0] is the executable), for the consent prompt. */
  spec: LaunchSpec;
  /** The same command as one shell line, exactly as the runner launches it. */
  display: string;
  port: number;
}

export interface ReplayOutcome {
  result: VariantResult;
  judgement: ReplayJudgement | null;
  record: ReplayRecord;
  exitCode: number;
}

export function fingerprint(host: HostInfo): HostFingerprint {
  const g = host.gpus[0];
  return {
    gpuName: g?.name ?? (host.cpu && !host.simulated ? 'CPU' : 'no GPU'),
    gpuCount: host.cpu && !host.simulated ? host.gpus.length : Math.max(1, host.gpus.length),
    gpuMemoryMiB: g?.memTotalMiB ?? 0,
    ...(host.driverVersion ? { driver: host.driverVersion } : {}),
    simulated: host.simulated,
    ...(hostVendor(host) ? { vendor: hostVendor(host) } : {}),
  };
}

function sameGpu(a: string, b: string): boolean {
  const sa = findGpu(a);
  const sb = findGpu(b);
  return sa && sb ? sa.name === sb.name : a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** What differs between the host a profile was tuned on and this one. Pure. */
export function hostDifferences(
  profile: Pick<Profile, 'host' | 'engine'>,
  current: HostFingerprint,
  engineVersion: string | undefined,
): string[] {
  const out: string[] = [];
  const was = profile.host;
  if (!sameGpu(was.gpuName, current.gpuName)) out.push(`GPU: tuned on ${was.gpuName}, here ${current.gpuName}`);
  if (was.gpuCount !== current.gpuCount) out.push(`GPU count: tuned on ${was.gpuCount}, here ${current.gpuCount}`);
  if (was.driver && current.driver && was.driver !== current.driver) out.push(`driver: tuned on ${was.driver}, here ${current.driver}`);
  if (current.simulated && !was.simulated) out.push('host: simulated here (numbers come from a performance model), tuned on real GPUs');
  if (!current.simulated && was.simulated) out.push('host: real GPUs here, the profile was tuned on the simulated host');
  if (!current.simulated) {
    if (engineVersion === undefined) out.push(`engine: ${profile.engine.name} not found here (tuned with ${profile.engine.version})`);
    else if (engineVersion !== profile.engine.version)
      out.push(`engine: ${profile.engine.name} ${engineVersion} here, tuned with ${profile.engine.version}`);
  }
  return out;
}

/** Detect this host, work out the scenario, and build the exact command that will run. */
export async function prepareReplay(profile: Profile, file: string, opts: ReplayOptions): Promise<ReplaySetup> {
  // The recorded command must be one of the engines' launchers (and its env harmless), even
  // though the server is rebuilt from the variant: a profile that is not is not run at all.
  checkRunnable(profile.engineArgv, profile.env, file, opts.allowAnyCommand, opts.allowEnv);
  let sim = opts.sim ? { gpu: simGpuFor(profile), gpus: profile.host.gpuCount, speed: opts.speed, autoSpeed: false, seed: 0 } : undefined;
  const found = sim ? simulatedHost(sim.gpu, sim.gpus, 'simulated host (--sim)') : await detectHost({});
  // llama.cpp runs on the CPU for real: a host without a GPU replays it, not the simulator.
  const host = !sim && found.simulated && !isGpuEngine(profile.engine.name) ? cpuOnlyHost() : found;
  if (!opts.sim && host.simulated) {
    throw new UserError(`no NVIDIA or AMD GPU found on this host: replay ${file} with --sim to use the simulated host`);
  }
  let engineVersion: string | undefined;
  if (!host.simulated) {
    const info = await getAdapter(profile.engine.name).detect?.();
    engineVersion = info?.installed ? info.version : undefined;
  }
  const current = fingerprint(host);
  const { scenario, note } = scenarioForWorkload(profile.workload, { datasetPath: opts.datasetPath, simulated: host.simulated });
  // Without --speed, fix the clock the runner would pick now, so the command shown is the one run.
  if (sim && opts.autoSpeed) sim = { ...sim, speed: await autoSimSpeed(profile.variant, [scenario], sim, profile.model) };
  const port = await findFreePort({ host: opts.bindHost, from: opts.portStart });
  // The runner's own launch path: what the consent prompt shows is what runVariant launches.
  const ctx = launchContext(
    { bindHost: opts.bindHost, runtime: profile.engine.runtime, ...(sim ? { sim } : {}) },
    { port, runDir: join(opts.logsDir, profile.variant.id), ...(hostVendor(host) ? { vendor: hostVendor(host) } : {}) },
  );
  const { spec, display } = prepareLaunch(profile.variant, ctx);
  checkRunnable(spec.argv, spec.env, file, opts.allowAnyCommand, opts.allowEnv);
  return {
    profile,
    file,
    host,
    current,
    ...(engineVersion ? { engineVersion } : {}),
    differences: hostDifferences(profile, current, engineVersion),
    scenario,
    notes: note ? [note] : [],
    spec,
    display,
    port,
  };
}

/** Exit code of a replay: 0 ok or faster, 3 regression, 1 failed to start or measure. */
export function replayExitCode(j: ReplayJudgement | null): number {
  if (!j) return EXIT.failed;
  return j.verdict === 'regression' ? EXIT.regression : EXIT.ok;
}

/** How a saved profile's server runs here (replay, capacity): its model, runtime and SLO, no warm-up, on setup's port. */
export function profileRunContext(
  setup: ReplaySetup,
  opts: ReplayOptions,
  emit: (e: TuneEvent) => void,
  stage: string,
  signal?: AbortSignal,
): RunVariantContext {
  const { profile } = setup;
  // The clock shown in the consent prompt (prepareReplay fixed it), not a new pick.
  const sim = opts.sim ? { gpu: simGpuFor(profile), gpus: profile.host.gpuCount, speed: setup.spec.speed, seed: 0 } : undefined;
  return {
    config: {
      model: profile.model,
      ...(sim ? { sim } : {}),
      bindHost: opts.bindHost,
      portStart: setup.port,
      readyTimeoutS: opts.readyTimeoutS,
      warmupPrompts: 0,
      runtime: profile.engine.runtime,
      slo: profile.slo,
      sampleIntervalS: 1,
    },
    host: setup.host,
    logsDir: opts.logsDir,
    emit,
    ...(signal ? { signal } : {}),
    stage,
  };
}

/** Launch, benchmark and judge. Throws the runner's AbortedError when opts.signal aborts. */
export async function executeReplay(setup: ReplaySetup, opts: ReplayOptions): Promise<ReplayOutcome> {
  const { profile } = setup;
  const result = await runVariant(
    profile.variant,
    setup.scenario,
    profileRunContext(setup, opts, opts.emit ?? (() => {}), 'replay', opts.signal),
  );
  const tolerance = replayTolerance(profile, opts.tolerancePct);
  if (tolerance.note) setup.notes.push(tolerance.note);
  const judgement =
    result.status === 'ok' && result.metrics
      ? judgeReplay({ recorded: profile.metrics, now: result.metrics, tolerancePct: Number(tolerance.pct.toFixed(1)), slo: profile.slo })
      : null;
  if (result.clientBound) {
    setup.notes.push(
      'the benchmark client was the bottleneck (a busy machine, or too fast a simulated clock): the numbers now are low; retry with a lower --speed',
    );
  }
  const record: ReplayRecord = {
    at: new Date().toISOString(),
    servelabVersion: VERSION,
    host: setup.current,
    ...(setup.engineVersion ? { engineVersion: setup.engineVersion } : {}),
    simulated: setup.host.simulated,
    verdict: judgement?.verdict ?? 'failed',
    tolerancePct: Number(tolerance.pct.toFixed(1)),
    reasons: judgement ? [...judgement.reasons, ...setup.notes] : [result.failure?.reason ?? 'the server did not start'],
    ...(result.metrics ? { metrics: result.metrics } : {}),
    ...(result.failure ? { failure: result.failure } : {}),
  };
  return { result, judgement, record, exitCode: replayExitCode(judgement) };
}
