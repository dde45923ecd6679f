// Contract of an engine adapter: plain data and functions, no class hierarchy.
import type { EngineName, KnobName, SpeculativeKnob, Variant } from '../core/variant.js';
import type { Failure, ServerMetricsSample } from '../core/events.js';

export interface EngineInfo {
  engine: EngineName | 'sim';
  installed: boolean;
  version?: string;
  runtime: 'native' | 'docker' | 'sim';
  image?: string;
  /** Why it is not available, when not installed; for an installed one, which knob table it gets. */
  detail?: string;
  /** The known release whose flag spellings are used, when `version` has no table of its own. */
  knobTable?: string;
}

/** Where and how a variant is launched. */
export interface LaunchContext {
  host: string; // bind address, default 127.0.0.1
  port: number;
  /** Folder for this variant's files (logs, TRT-LLM YAML). */
  runDir: string;
  /**
   * native: run the engine's own executable (`executable` overrides argv[0]: the `vllm` or
   * `trtllm-serve` path, or for SGLang the Python interpreter of the environment it lives in).
   * docker: wrap the same argv in `docker run --gpus ... --ipc=host -p ... -v <HF cache>`.
   */
  runtime: { kind: 'native'; executable?: string } | { kind: 'docker'; image: string; hfCache?: string };
  /** GPU indices this server may use (CUDA_VISIBLE_DEVICES); all GPUs when absent. */
  devices?: number[];
  /** On the simulated host: GPU type/count and clock speed for sim-serve. */
  sim?: { gpu: string; gpus: number; speed: number; seed?: number };
}

export interface LaunchSpec {
  /** argv[0] is the executable; launched without a shell. */
  argv: string[];
  env: Record<string, string>;
  /** Files the adapter needs written before launch (e.g. TRT-LLM --extra_llm_api_options YAML). */
  files: { path: string; content: string }[];
  host: string;
  port: number;
  /** Readiness probe path: '/health' for all engines (never /v1/models for SGLang). */
  healthPath: string;
  readyLogLine: RegExp;
  /** Simulated clock factor (1 on a real host). Results are converted back in one place. */
  speed: number;
  /** The real engine's argv for this variant (same as argv on a real host). */
  engineArgv: string[];
  /** Which adapter built it. */
  engine?: EngineName | 'sim';
  /** Run after the process group is gone (docker: `docker rm -f <name>`), best effort. */
  cleanupArgv?: string[];
  /** docker runtime: the image, checked to exist before launch. */
  image?: string;
  /** Other ports the engine binds on the same host (SGLang DP-attention: port+233...), checked free before launch. */
  extraPorts?: number[];
}

/** What the classifier may know about the host, to name the GPU in its reason. */
export interface FailureContext {
  gpu?: { name: string; computeCap?: string };
  /** The variant's speculative knobs, so a speculative start failure names the combination. */
  speculative?: SpeculativeKnob;
}

/** Where to look for an engine; see src/engines/detect.ts. */
export interface DetectOptions {
  runtime?: 'native' | 'docker';
  /** native: a Python interpreter whose environment holds the engine. */
  python?: string;
  /** docker: the image to inspect, e.g. vllm/vllm-openai:v0.11.0. */
  image?: string;
  /** Milliseconds per probe command. */
  timeoutMs?: number;
}

export interface EngineAdapter {
  name: EngineName | 'sim';
  /** Knobs this engine can express; the planner never asks for others. */
  supports: ReadonlySet<KnobName>;
  command(variant: Variant, ctx: LaunchContext): LaunchSpec;
  /** Classify a failed start or a death from the log tail and exit status. */
  classifyFailure(
    logLines: string[],
    exit: { code: number | null; signal: string | null; timedOut?: boolean },
    ctx?: FailureContext,
  ): Failure;
  /** Parse the engine's /metrics text into servelab's names. */
  parseMetrics(text: string): Partial<ServerMetricsSample>;
  /** Path of the metrics endpoint (SGLang needs --enable-metrics; TRT-LLM differs). */
  metricsPath: string;
  /** Neutral attention-backend names this engine accepts (the planner's candidate values). */
  attentionBackends?: readonly string[];
  /** Is the engine installed here, and which version (src/engines/detect.ts). */
  detect?(opts?: DetectOptions): Promise<EngineInfo>;
}
