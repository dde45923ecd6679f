// Contract of an engine adapter: plain data and functions, no class hierarchy.
import type { EngineName, KnobName, SpeculativeKnob, Variant } from '../core/variant.js';
import type { Failure } from '../core/events.js';
import type { ServerMetricsSample } from '../core/metrics.js';
import type { LaunchSpec } from '../host/launch-spec.js';

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
  /** The executable found (llama.cpp: which llama-server, src/engines/llamacpp-detect.ts). */
  path?: string;
  /** Set when the installed release's own help was read (help-check.ts): why, and what came of it. */
  helpCheck?: string;
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
  /**
   * Load dummy weights (--dummy-weights; src/tune/launch/dummy-weights.ts decides). Read only by an
   * adapter whose engine takes the setting in a file it writes (TensorRT-LLM's YAML); flag
   * spellings (vLLM, SGLang `--load-format dummy`) are appended by prepareLaunch.
   */
  dummyWeights?: boolean;
  /** On the simulated host: GPU type/count and clock speed for sim-serve. */
  sim?: { gpu: string; gpus: number; speed: number; seed?: number };
  /** llama.cpp: the llama-server the user named (--llama-server); else PATH, else servelab's build. */
  llamaServer?: string;
}

/** What the classifier may know about the host, to name the GPU in its reason. */
export interface FailureContext {
  gpu?: { name: string; computeCap?: string };
  /** The variant's speculative knobs, so a speculative start failure names the combination. */
  speculative?: SpeculativeKnob;
  /** llama.cpp: the GGUF weight type the launch repacks for the CPU's AMX kernels, when it does (llamacpp-gguf.ts amxRepackedType). */
  amxRepacked?: string;
}

/** Where to look for an engine; see src/engines/detect.ts. */
export interface DetectOptions {
  runtime?: 'native' | 'docker';
  /** native: a Python interpreter whose environment holds the engine. */
  python?: string;
  /** docker: the image to inspect, e.g. vllm/vllm-openai:v0.11.0. */
  image?: string;
  /** llama.cpp: the llama-server to use (--llama-server PATH). */
  llamaServer?: string;
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
