// `servelab capacity PROFILE`: bring the profile's server back through replay's preparation (the
// same consent text, the runner's one launch path, --sim for the simulated host), search it as
// any base URL is searched (src/capacity), stop it on every path, and record the answer in the
// profile with an SVG of the probes beside its report. `servelab replay --capacity` uses the
// same launch to check the recorded answer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import type { TuneEvent } from '../core/events.js';
import { parseNumberArg } from '../core/number-arg.js';
import { parseSlo } from '../core/slo-rule.js';
import { defaultRunsDir } from '../host/xdg.js';
import { isReferenceProfile } from '../profiles/store/history.js';
import { renderReport } from '../profiles/report/report.js';
import type { Profile } from '../profiles/schema/profile.js';
import { loadProfile, reportPathFor, saveProfile } from '../profiles/store/store.js';
import { DEFAULT_READY_TIMEOUT_S, DEFAULT_SIM_READY_TIMEOUT_S, DEFAULT_SIM_SPEED } from '../tune/config/config.js';
import { baseUrl } from '../tune/launch/launch.js';
import { prepareReplay, profileRunContext, type ReplayOptions, type ReplaySetup } from '../tune/replay/replay.js';
import { startServer } from '../tune/run/server-start.js';
import { loadScenario } from '../tune/launch/workloads.js';
import { progressLine } from '../cli/text.js';
import { capacityRecord, type CapacityRecord } from '../capacity/record.js';
import { runCapacity, type CapacityTarget } from '../capacity/runner.js';
import { probeSeed } from '../capacity/fresh-prompts.js';
import type { CapacityBy } from '../capacity/search.js';
import { multiTurnProbe } from '../tune/run/scenario-bench.js';
import { capacitySvg } from '../capacity/text.js';
import { askConsent } from './consent.js';
import type { Flags } from '../cli/bench-flags.js';
import { searchSpec } from '../cli/capacity-args.js';
import { printOutcome, searchHeader, searchHooks, withInterrupt } from './capacity-print.js';
import { describeSetup } from './replay-text.js';
import { PROFILE_PORT } from '../host/ports.js';

/** Replay's options from capacity's flags (the server is launched the way replay launches it). */
export function profileReplayOptions(flags: Flags, logsDir: string): ReplayOptions {
  const sim = flags.sim === true;
  const num = (name: string, fallback: number, range: { min: number; integer?: boolean }) =>
    flags[name] === undefined ? fallback : parseNumberArg(`--${name}`, String(flags[name]), range);
  return {
    sim,
    speed: num('speed', DEFAULT_SIM_SPEED, { min: 0.001 }),
    autoSpeed: flags.speed === undefined,
    tolerancePct: 0,
    ...(flags['dataset-path'] ? { datasetPath: resolve(flags['dataset-path'] as string) } : {}),
    readyTimeoutS: num('ready-timeout', sim ? DEFAULT_SIM_READY_TIMEOUT_S : DEFAULT_READY_TIMEOUT_S, { min: 1 }),
    logsDir,
    bindHost: '127.0.0.1',
    portStart: num('port', PROFILE_PORT, { min: 1024, integer: true }),
    allowAnyCommand: flags['allow-any-command'] === true,
  };
}

/** This run's folder (server log; the copy of a study profile). */
export function runFolder(flags: Flags, what: string, profile: Profile): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return join(resolve((flags['runs-dir'] as string | undefined) ?? defaultRunsDir()), `${what}-${stamp}-${profile.variant.id}`);
}

/** A search target on the profile's server at `url`: the profile's workload, sized per probe. */
export function profileTarget(setup: ReplaySetup, url: string, by: CapacityBy = 'concurrency'): CapacityTarget {
  const { profile, scenario } = setup;
  const probe = multiTurnProbe(scenario, profile.model, by);
  return {
    run: { baseUrl: url, model: profile.variant.model, tokenizerId: profile.model, seed: scenario.seed },
    workload: (n, draw) => loadScenario({ ...scenario, numPrompts: n, seed: probeSeed(scenario.seed, draw) }, profile.model),
    maxConcurrency: scenario.maxConcurrency,
    ...(probe ? { probe } : {}),
  };
}

/** Launch the profile's server (the runner's launch path), hand its URL to `use`, stop it on every path. */
export async function withProfileServer<T>(
  setup: ReplaySetup,
  opts: ReplayOptions,
  signal: AbortSignal,
  use: (url: string) => Promise<T>,
): Promise<T> {
  const emit = (e: TuneEvent) => {
    const line = progressLine(e);
    if (line !== null && e.type !== 'server-log') process.stderr.write(line.trim() + '\n');
  };
  const ctx = profileRunContext(setup, opts, emit, 'capacity', signal);
  const up = await startServer(setup.profile.variant, ctx, signal, setup.spec.speed);
  if (!up.ok) throw new UserError(`the server did not come up: ${up.failure.reason} (server log in ${opts.logsDir})`, 1);
  try {
    return await use(baseUrl(up.spec));
  } finally {
    await up.handle.stop();
  }
}

/** Save the profile with its `capacity` section, the report and the SVG; the lines saying where. */
function saveCapacity(
  file: string,
  profile: Profile,
  record: CapacityRecord,
  dirs: { out?: string; fallback: string },
  title: string,
): { profile: string; lines: string[] } {
  const target = dirs.out ?? (isReferenceProfile(file, profile) ? dirs.fallback : dirname(file));
  mkdirSync(target, { recursive: true });
  // Saved once to claim the name the chart is named after, then again with the chart's name.
  const first = saveProfile({ ...profile, capacity: record }, target);
  const chart = reportPathFor(first).replace(/\.md$/, '.capacity.svg');
  writeFileSync(chart, capacitySvg(record, { title, gpus: profile.host.gpuCount }));
  const final = saveProfile({ ...profile, capacity: { ...record, chart: basename(chart) } }, dirname(first));
  writeFileSync(reportPathFor(final), renderReport(loadProfile(final)));
  const copy = resolve(final) !== resolve(file);
  return {
    profile: final,
    lines: [`profile: ${final}${copy ? ` (${file} is not rewritten)` : ''}`, `report:  ${reportPathFor(final)}`, `chart:   ${chart}`],
  };
}

export async function capacityOfProfile(path: string, flags: Flags): Promise<number> {
  const file = resolve(path);
  const profile = loadProfile(file);
  const spec = searchSpec(flags, flags.slo !== undefined ? parseSlo(flags.slo as string) : profile.slo.map((r) => ({ ...r })));
  const dir = runFolder(flags, 'capacity', profile);
  const opts = profileReplayOptions(flags, join(dir, 'logs'));
  const setup = await prepareReplay(profile, file, opts);
  const json = flags.json === true;
  process.stderr.write(`${describeSetup(setup)}\n${searchHeader(`${profile.model} on the ${setup.scenario.label} workload`, spec)}`);
  if (!(await askConsent({ yes: flags.yes === true, auto: flags.auto === true, what: `capacity ${file}` }))) {
    process.stderr.write('servelab: not run\n');
    return 1;
  }
  const result = await withInterrupt((signal) =>
    withProfileServer(setup, opts, signal, (url) => runCapacity(profileTarget(setup, url, spec.by), spec, searchHooks(spec, json, signal))),
  );
  const record = capacityRecord(result, { slo: spec.slo, resolution: spec.resolution, workload: setup.scenario.name });
  const title = `${profile.model} on ${profile.host.gpuCount} x ${profile.host.gpuName}: capacity by ${spec.by}`;
  const saved = saveCapacity(file, profile, record, { ...(flags.out ? { out: resolve(flags.out as string) } : {}), fallback: dir }, title);
  return printOutcome(record, {
    json,
    label: profile.variant.label ?? profile.variant.id,
    gpus: profile.host.gpuCount,
    maxLoad: spec.max,
    extra: { profile: saved.profile },
    saved: saved.lines,
  });
}
