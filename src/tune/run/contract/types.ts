// The runner's contract: what one variant's run is given (RunVariantContext, with the stage loop's
// EarlyStopRequest) and what bringing its server up returns (ServerStart, LaunchRecord). In a folder
// of its own below the runner, the server start and the Slurm start (tune/run/slurm), so neither
// those files nor their folders import each other for a type.
import type { Failure, TuneEvent, VariantResult } from '../../../core/events.js';
import type { RunOfRuns } from '../../../core/run-of-runs.js';
import type { Predicted } from '../../../core/predicted.js';
import type { EngineAdapter } from '../../../engines/kit/types.js';
import type { HostInfo } from '../../../host/gpus.js';
import type { ServerHandle } from '../../../host/server-handle.js';
import type { SessionConfig } from '../../config/config.js';
import type { Objective } from '../../../core/objective.js';
import type { LaunchSpec } from '../../../host/launch-spec.js';
import type { Workload } from '../../../bench/types.js';

/** What the stage loop hands the runner: the leader so far and the noise margin. */
export interface EarlyStopRequest {
  leaderId: string;
  objective: Objective;
  /** The leader's objective value (simulated units on the simulated host, like the snapshots). */
  value: number;
  /** The leader's server-side prompt token count (unitsMax for the 'total' objective). */
  leaderInputTokens: number;
  marginPct: number;
}

export interface RunVariantContext {
  config: Pick<
    SessionConfig,
    | 'model'
    | 'sim'
    | 'bindHost'
    | 'portStart'
    | 'readyTimeoutS'
    | 'warmupPrompts'
    | 'warmupScaled'
    | 'runtime'
    | 'slo'
    | 'sampleIntervalS'
    | 'dummyWeights'
    | 'llamacpp'
  >;
  host: HostInfo;
  /** Folder for server logs and the engine's files. */
  logsDir: string;
  /** Folder for the bench JSON of each scenario (vLLM --save-result layout); none when absent. */
  benchDir?: string;
  emit: (e: TuneEvent) => void;
  /** Aborts everything (Ctrl-C): the server is stopped, no result is produced for unfinished work. */
  signal?: AbortSignal;
  /** Skips this variant only (the TUI's skip key): recorded as 'skipped'. */
  skipSignal?: AbortSignal;
  stage: string;
  predicted?: Predicted;
  /** Ports already handed out in this process, avoided so a just-closed port is not reused at once. */
  usedPorts?: Set<number>;
  /** Workloads already loaded, by scenario key (loading ShareGPT and tokenizing is not free). */
  workloads?: Map<string, Promise<Workload>>;
  /** GPUs this launch is pinned to (parallel variants): CUDA_VISIBLE_DEVICES or docker --gpus. */
  gpuIds?: readonly number[];
  /** Stop the benchmark once it cannot beat this leader by the margin (early-stop.ts). */
  earlyStop?: EarlyStopRequest;
  /** A repeat launch: run n of at most `of`, carried by its variant-launching event. */
  run?: RunOfRuns;
  /** The quality check's greedy prompts, sent after the first scenario's benchmark (quality-run.ts). */
  quality?: QualityRequest;
  /** The session's tuning launches use dummy weights (the plan's decision, dummy-weights.ts): its tuning clients send ignore_eos. */
  tuningDummyWeights?: boolean;
  /**
   * Each scenario's result as soon as it is measured (before the next starts), e.g. a sweep that
   * journals the point and stops the rest through skipSignal when it broke the SLO.
   */
  onResult?: (index: number, result: VariantResult) => void;
}

/** A server that is up (with what it runs) or the failure that kept it down. */
export type ServerStart =
  | {
      ok: true;
      handle: Pick<ServerHandle, 'tail' | 'exit' | 'exited'> & { stop(): Promise<unknown>; pid?: number };
      spec: LaunchSpec;
      adapter: EngineAdapter;
      base: LaunchRecord;
      startupS: number;
      speed: number;
    }
  | { ok: false; failure: Failure; extra: Partial<VariantResult> };

/** What every result of a launch records about it: the command, the engine's env, the weights it loaded (on Slurm also the GPUs the job was given). */
export type LaunchRecord = Pick<VariantResult, 'argv' | 'engineArgv' | 'env' | 'weights' | 'gpuIds'>;

/** What a launch is asked for: `count` prompts, the eval file's when given, else the scenario's first ones. */
export interface QualityRequest {
  count: number;
  prompts?: readonly string[];
}
