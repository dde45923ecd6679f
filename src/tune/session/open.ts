// Opening a run: the host (detected, or the simulated one), the engines usable on it, and the
// run folder's journal (created, or reopened for --resume with the stored configuration).
import type { TuneEvent } from '../../core/events.js';
import { UserError } from '../../core/errors.js';
import { isGpuEngine, type EngineName } from '../../core/variant.js';
import { buildMismatch } from './build-match.js';
import { getAdapter } from '../../engines/index.js';
import type { HostInfo } from '../../host/gpus.js';
import { detectHost } from '../../host/gpu-detect.js';
import { cpuInfo, cpuOnlyHost } from '../../host/cpu.js';
import { gpuTag, type SessionConfig } from '../config/config.js';
import { Journal, defaultRunDir } from '../context/journal.js';
import type { PlanHost } from '../../engines/kit/plan-types.js';
import { resolveSlurmHost } from '../run/slurm/host.js';
import { forgetEngineHelp } from '../../engines/kit/help-check.js';

export async function resolveHost(config: SessionConfig, injected?: HostInfo): Promise<HostInfo> {
  if (injected) return injected;
  if (config.runtime.kind === 'slurm') return withCpu(config, await resolveSlurmHost(config));
  if (config.sim) return detectHost({ sim: true, gpu: config.sim.gpu, gpus: config.sim.gpus });
  const host = realHostFor(await detectHost({}), config.engines);
  if (host.simulated)
    throw new UserError('no NVIDIA or AMD GPU found on this host; run with --sim (and --gpu/--gpus) to tune on the simulated host');
  return withCpu(config, host);
}

/**
 * llama.cpp runs on the CPU for real: a host without a GPU (detected as the simulated one) is a
 * real host for a session with it, not the simulator. The workbench's Host screen uses it too.
 */
export function realHostFor(detected: HostInfo, engines: readonly EngineName[]): HostInfo {
  return detected.simulated && !engines.every(isGpuEngine) ? cpuOnlyHost() : detected;
}

/** The CPU side of a real host, for a session with llama.cpp (its threads stage and memory checks). */
function withCpu(config: SessionConfig, host: HostInfo): HostInfo {
  // A CPU cluster's host already names its compute nodes' CPUs (slurm/host.ts), not this login node's.
  return !config.engines.every(isGpuEngine) && !host.simulated && !host.cpu ? { ...host, cpu: cpuInfo() } : host;
}

/** Engines usable here with their versions; on the simulated host every engine is imitated. */
export async function availableEngines(
  config: SessionConfig,
  host: HostInfo,
  emit: (e: TuneEvent) => void,
): Promise<{ engines: EngineName[]; versions: Record<string, string> }> {
  const versions: Record<string, string> = {};
  // A new session reads the installed engines' help afresh (a workbench runs several in one process).
  forgetEngineHelp();
  if (host.simulated) {
    // --engine-version E=V rehearses that release: commands are spelled for it, sim-serve speaks it.
    for (const e of config.engines) versions[e] = config.sim?.engineVersions?.[e] ?? 'simulated';
    return { engines: config.engines, versions };
  }
  // The engines live on the compute nodes, not on this login node: a missing one fails its job.
  if (config.runtime.kind === 'slurm') {
    emit({
      type: 'warning',
      message: "slurm: engine versions are not detected on the compute nodes; commands use each engine's newest known flag spellings",
    });
    return { engines: config.engines, versions };
  }
  const engines: EngineName[] = [];
  for (const e of config.engines) {
    if (!host.gpus.length && isGpuEngine(e)) {
      emit({ type: 'warning', message: `${e} needs an NVIDIA GPU, this host has none: skipped` });
      continue;
    }
    const a = getAdapter(e);
    const opts = config.llamacpp?.server ? { llamaServer: config.llamacpp.server } : {};
    const info = a.detect
      ? await a.detect(
          config.runtime.kind === 'docker' ? { runtime: 'docker', image: config.runtime.image, ...opts } : { runtime: 'native', ...opts },
        )
      : { installed: true, version: 'unknown' };
    const wrongBuild = info.installed && 'gpuPlatform' in info ? buildMismatch(info, host.gpus) : undefined;
    if (wrongBuild) emit({ type: 'warning', message: `${e}: ${wrongBuild}: skipped` });
    else if (info.installed) {
      engines.push(e);
      versions[e] = info.version ?? 'unknown';
      // A release servelab has not read: its own help was read (or could not be), say which.
      if ('helpCheck' in info && info.helpCheck) emit({ type: 'warning', message: `${e}: ${info.helpCheck}` });
      // A build that cannot offload (llama.cpp's CPU build) on a host with GPUs: its GPU stages would run on the CPU.
      if ('backend' in info && info.backend === 'cpu' && host.gpus.length)
        emit({
          type: 'warning',
          message: `${e} on a GPU host: ${info.detail ?? 'a CPU build'} (\`servelab engines build ${e}\` builds with CUDA or HIP where nvcc or hipcc is found)`,
        });
    } else
      emit({
        type: 'warning',
        message: `${e} is not available here${'detail' in info && info.detail ? ` (${info.detail})` : ''}: skipped`,
      });
  }
  if (!engines.length)
    throw new UserError(
      `none of the engines asked for (${config.engines.join(', ')}) is installed here; install one, use --runtime docker, or run with --sim`,
    );
  return { engines, versions };
}

/** The run's journal and its configuration: a new run folder, or the stored one on resume. */
export function openJournal(
  configIn: SessionConfig,
  host: PlanHost,
  resume: boolean,
): { journal: Journal<SessionConfig>; config: SessionConfig } {
  if (resume) {
    if (!configIn.runDir) throw new UserError('resume needs the run folder (--resume DIR)');
    const journal = Journal.open<SessionConfig>(configIn.runDir);
    journal.update({ status: 'running', signal: undefined, current: null });
    return { journal, config: { ...journal.config, runDir: configIn.runDir } };
  }
  const runDir = configIn.runDir ?? defaultRunDir(configIn.runsDir, configIn.model, gpuTag(configIn, host.gpuName, host.gpuCount));
  const config = { ...configIn, runDir };
  return { journal: Journal.create(runDir, config), config };
}
