// Contract of an engine adapter: plain data and functions, no class hierarchy.
import type { CacheStageInput, CacheStageOut } from './cache-stage-types.js';
import type { EngineName, KnobName, Knobs, SpeculativeKnob, Variant } from '../../core/variant.js';
import type { Failure } from '../../core/events.js';
import type { ServerMetricsSample } from '../../core/metrics.js';
import type { LaunchSpec } from '../../host/launch-spec.js';
import type { EngineRanks, NodeLayout } from '../../host/slurm/index.js';
import type { BuildOptions, BuildOutcome } from '../../host/llamacpp-build.js';
import type { EnginePlanning } from './plan-types.js';
import type { GpuVendor } from '../../core/gpu-vendor.js';
import type { RocmPlanning } from './rocm-stage-types.js';

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
  /** The executable found (llama.cpp: which llama-server, src/engines/llamacpp/detect.ts). */
  path?: string;
  /** Set when the installed release's own help was read (help-check.ts): why, and what came of it. */
  helpCheck?: string;
  /** The GPU platform its PyTorch was built for (rocm-build.ts: torch.version.hip); absent when not read. */
  gpuPlatform?: 'rocm' | 'cuda';
  /** torch.version.hip of a ROCm build. */
  hipVersion?: string;
  /** llama.cpp: what the binary offloads to, 'cpu', 'cuda' or 'hip' (`--list-devices`, llamacpp/devices.ts). */
  backend?: string;
  /** llama.cpp: the GPUs the binary sees (`--list-devices`), none for a CPU build. */
  gpuDevices?: { name: string; description: string; totalMiB: number; freeMiB: number }[];
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
  /** GPU indices this server may use (CUDA_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES on AMD); all GPUs when absent. */
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
  /** Who makes the host's GPUs (absent: NVIDIA): which variables pin `devices`, how docker gets the GPUs. */
  vendor?: GpuVendor;
}

/** What the classifier may know about the host, to name the GPU in its reason. */
export interface FailureContext {
  gpu?: { name: string; computeCap?: string };
  /** The variant's speculative knobs, so a speculative start failure names the combination. */
  speculative?: SpeculativeKnob;
  /** llama.cpp: the GGUF weight type the launch repacks for the CPU's AMX kernels, when it does (llamacpp/gguf.ts amxRepackedType). */
  amxRepacked?: string;
}

/** Where to look for an engine; see src/engines/kit/detect.ts. */
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
  /** Is the engine installed here, and which version (src/engines/kit/detect.ts). */
  detect?(opts?: DetectOptions): Promise<EngineInfo>;
  // --- What differs per engine, asked by code outside src/engines instead of naming the engine ---
  /** How text writes the engine's name (core/variant.ts ENGINE_LABEL). */
  label: string;
  /** The port the server listens on when its argv names none. */
  defaultPort: number;
  /**
   * What the server is handed as its model: a Hugging Face checkpoint, or a GGUF file (planned,
   * checked and quantized by the engine's own `planning`, predicted by tune/plan/llamacpp-predict.ts).
   */
  modelFiles: 'checkpoint' | 'gguf';
  /** The engine's official container image repository (no tag). */
  image?: string;
  /** The engine's official container image at a release (`latest`, or the newest CPU image, without one). */
  officialImage?(release: string | undefined): string;
  /** Does this argv (its executable and first two arguments) start this engine's own server? */
  launches?(exe: string, a1: string | undefined, a2: string | undefined): boolean;
  /** Its defaults are the validation baseline when they can serve (vLLM's, as the studies measure). */
  baselineFirst?: boolean;
  /** How a recorded command asks for dummy weights, as the report writes it. */
  dummyWeightsText?: string;
  /** Files a recorded command reads besides the model (TensorRT-LLM's YAML), rebuilt from the variant. */
  commandFiles?(variant: Variant, argv: readonly string[]): { path: string; content: string }[];
  /** The flag of a YAML file of extra settings, which servelab's simulator reads only for this engine. */
  yamlFlag?: string;
  /** Ports besides `distPort` the head of a multi-node start opens (SGLang's dist-init set). */
  distInitPorts?(distPort: number): number[];
  /** The per-node commands of a multi-node start; absent: `oneNode` says why it runs on one node. */
  multiNodeRanks?(argv: readonly string[], k: Knobs, l: NodeLayout): EngineRanks;
  oneNode?: string;
  /** A multi-node start is argv alone (no shell or MPI), so it has a Kubernetes LeaderWorkerSet form. */
  leaderWorkerSet?: boolean;
  /** Attention backends whose kernels are built for Hopper only, so the planner tries them only there. */
  hopperOnlyBackends?: readonly string[];
  /** torch.compile is on by default, so the compile stage's candidate turns it off. */
  compilesByDefault?: boolean;
  /** Why one replica is not spread over nodes (TP or PP across nodes), when the engine cannot here. */
  noReplicaOverNodes?: string;
  /** Replicas on several nodes are one multi-node launch (vLLM's native data parallel). */
  dataParallelOverNodes?: boolean;
  /** Build the engine from its pinned source into servelab's cache (`servelab engines build`), when servelab can. */
  build?(o: BuildOptions): Promise<BuildOutcome>;
  /** A native launch's executable that the adapter finds itself (llama-server's path), or undefined. */
  findExecutable?(given: string | undefined): string | undefined;
  /**
   * Where a response reports the prompt tokens served from the prefix cache (dotted JSON paths,
   * first present wins; the bench client reads them), and the server flag that turns the report
   * on when it is off by default. Absent: the client reads the OpenAI usage field alone.
   */
  cacheReport?: { fields: readonly string[]; enableFlag?: string; source: string };
  /** Its own stages, preflight rules and model-file preparation, when they are not the GPU engines' (llama.cpp). */
  planning?: EnginePlanning;
  /** Its cache-stage candidates (the planner's cache stage asks here on traffic that reuses prefixes). */
  cacheStage?(i: CacheStageInput): CacheStageOut;
  /** Its ROCm build's planning (the ROCm stage, the attention backends on an AMD host); absent: it has none servelab plans. */
  rocm?: RocmPlanning;
  /**
   * The GPU vendors it runs on, when not every vendor servelab knows, and the source that says so:
   * the planner prunes its variants on another vendor's host, `predict` leaves it out (vendor-support.ts).
   */
  gpuVendors?: { vendors: readonly GpuVendor[]; source: string };
}
