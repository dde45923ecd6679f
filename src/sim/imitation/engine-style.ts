// How each imitated engine talks: start-up log lines, its ready line and its /metrics names.
// Failure texts live in engine-failures.ts and come from the corpus of real engine output.
import { isGpuEngine, type EngineName, type GpuEngineName } from '../../core/variant.js';
import { corpusLines } from '../../engines/corpus.js';
import { compareVersions, DEFAULT_VERSION } from '../../engines/data/versions.js';
import type { ServerConfig } from '../../model/estimate.js';
import type { SchedulerStats } from '../scheduler/scheduler-types.js';

export type Stream = 'stdout' | 'stderr';
export interface LogLine {
  stream: Stream;
  text: string;
}

const GiB = 1024 ** 3;

/**
 * The imitated engine's entry of a per-engine table. The simulator imitates the GPU engines
 * only; any other engine talks as the table's last entry (TensorRT-LLM), as it always has.
 */
function imitated<T>(table: Readonly<Record<GpuEngineName, T>>, engine: EngineName): T {
  return isGpuEngine(engine) ? table[engine] : table.trtllm;
}
const f2 = (x: number) => x.toFixed(2);
const pad = (n: number) => String(n).padStart(2, '0');

function vllmPrefix(level: 'INFO' | 'WARNING' | 'ERROR', file: string): string {
  const d = new Date();
  return `${level} ${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} [${file}]`;
}

function sglangPrefix(tp?: boolean): string {
  const d = new Date();
  const ts = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return tp ? `[${ts} TP0]` : `[${ts}]`;
}

/**
 * Lines printed as loading starts (before the simulated load time elapses), in the words of the
 * imitated release (`version`, default the oldest table's). The 0.11 backend line is only printed
 * for releases before the 0.20.1 table: its wording after that was not read.
 */
export function startLines(engine: EngineName, cfg: ServerConfig, model: string, host: string, port: number, version?: string): LogLine[] {
  return imitated(START, engine)(cfg, model, host, port, version);
}

type StartLines = (cfg: ServerConfig, model: string, host: string, port: number, version?: string) => LogLine[];

const START: Readonly<Record<GpuEngineName, StartLines>> = {
  vllm(cfg, model, host, port, version) {
    const w = cfg.weights.perGpu / GiB;
    const v = version ?? DEFAULT_VERSION.vllm;
    const backendLine =
      compareVersions(v, '0.20.1') < 0
        ? [
            {
              stream: 'stdout' as const,
              text: `${vllmPrefix('INFO', 'cuda.py:362')} Using ${cfg.attentionBackend === 'flash_attn' ? 'Flash Attention' : cfg.attentionBackend} backend on V1 engine.`,
            },
          ]
        : [];
    return [
      { stream: 'stdout', text: `${vllmPrefix('INFO', 'api_server.py:1839')} vLLM API server version ${v} (simulated by servelab)` },
      {
        stream: 'stdout',
        text: `${vllmPrefix('INFO', 'utils.py:233')} non-default args: {'model': '${model}', 'host': '${host}', 'port': ${port}}`,
      },
      ...(cfg.weightOnlyFp8
        ? [
            {
              stream: 'stdout' as const,
              text: `${vllmPrefix('WARNING', 'marlin_utils_fp8.py:80')} Your GPU does not have native support for FP8 computation but FP8 quantization is being used. Weight-only FP8 compression will be used leveraging the Marlin kernel. This may degrade performance for compute-heavy workloads.`,
            },
          ]
        : []),
      ...backendLine,
      {
        stream: 'stdout',
        text: `${vllmPrefix('INFO', 'gpu_model_runner.py:2602')} Model loading took ${f2(w)} GiB and ${f2(w / 2)} seconds`,
      },
    ];
  },
  sglang: (cfg, model, host, port) => [
    {
      stream: 'stderr',
      text: `${sglangPrefix()} server_args=ServerArgs(model_path='${model}', host='${host}', port=${port}, tp_size=${cfg.par.tp}, dp_size=${cfg.par.dp}, chunked_prefill_size=${cfg.maxBatchedTokens}, mem_fraction_static=${cfg.memFraction.toFixed(3)}, attention_backend='${cfg.attentionBackend}') (simulated by servelab)`,
    },
    { stream: 'stderr', text: `${sglangPrefix(true)} Load weight begin. avail mem=${f2(cfg.gpu.memMiB / 1024)} GB` },
  ],
  trtllm: (cfg, model, _host, _port, version) => [
    { stream: 'stdout', text: `[TensorRT-LLM] TensorRT-LLM version: ${version ?? '1.0.0'} (simulated by servelab)` },
    { stream: 'stdout', text: `[TRT-LLM] [I] Loading model ${model} with tp_size=${cfg.par.tp}, pp_size=${cfg.par.pp}` },
  ],
};

/** Lines printed once the weights are "loaded" and the KV cache is sized. */
export function loadedLines(engine: EngineName, cfg: ServerConfig, maxModelLen: number): LogLine[] {
  return imitated(LOADED, engine)(cfg, cfg.kvBytesPerGpu / GiB, cfg.kvCapacityTokens, maxModelLen);
}

type LoadedLines = (cfg: ServerConfig, kvGiB: number, tokens: number, maxModelLen: number) => LogLine[];

const LOADED: Readonly<Record<GpuEngineName, LoadedLines>> = {
  vllm: (_cfg, kvGiB, tokens, maxModelLen) => [
    { stream: 'stdout', text: `${vllmPrefix('INFO', 'gpu_worker.py:298')} Available KV cache memory: ${f2(kvGiB)} GiB` },
    {
      stream: 'stdout',
      text: `${vllmPrefix('INFO', 'kv_cache_utils.py:1087')} GPU KV cache size: ${tokens.toLocaleString('en-US')} tokens`,
    },
    {
      stream: 'stdout',
      text: `${vllmPrefix('INFO', 'kv_cache_utils.py:1091')} Maximum concurrency for ${maxModelLen.toLocaleString('en-US')} tokens per request: ${f2(tokens / maxModelLen)}x`,
    },
    { stream: 'stdout', text: `${vllmPrefix('INFO', 'gpu_model_runner.py:3480')} Graph capturing finished in 6 secs, took 0.50 GiB` },
  ],
  sglang: (cfg, kvGiB, tokens, maxModelLen) => [
    {
      stream: 'stderr',
      text: `${sglangPrefix(true)} Load weight end. type=${cfg.model.architecture}, dtype=torch.bfloat16, avail mem=${f2((cfg.gpu.memMiB * 1024 * 1024 - cfg.weights.perGpu) / 1e9)} GB, mem usage=${f2(cfg.weights.perGpu / GiB)} GB.`,
    },
    { stream: 'stderr', text: `${sglangPrefix(true)} KV Cache is allocated. #tokens: ${tokens}, KV size: ${f2(kvGiB)} GB` },
    { stream: 'stderr', text: `${sglangPrefix(true)} Capture cuda graph begin. This can take up to several minutes.` },
    { stream: 'stderr', text: `${sglangPrefix(true)} Capture cuda graph end. Time elapsed: 6.00 s.` },
    {
      stream: 'stderr',
      text: `${sglangPrefix(true)} max_total_num_tokens=${tokens}, chunked_prefill_size=${cfg.maxBatchedTokens}, max_prefill_tokens=16384, max_running_requests=${cfg.maxRunningSeqs}, context_len=${maxModelLen}`,
    },
  ],
  trtllm: (cfg, kvGiB, tokens, maxModelLen) => [
    { stream: 'stdout', text: `[TRT-LLM] [I] [MemUsageChange] Allocated ${f2(kvGiB)} GiB for max tokens in paged KV cache (${tokens}).` },
    {
      stream: 'stdout',
      text: `[TRT-LLM] [I] max_seq_len=${maxModelLen}, max_num_requests=${cfg.maxRunningSeqs}, max_num_tokens=${cfg.maxBatchedTokens}`,
    },
  ],
};

/** The ready lines (from the corpus of real engine output); the last one is what launchers wait for. */
export function readyLines(engine: EngineName, host: string, port: number): LogLine[] {
  const uvicorn = corpusLines('vllm-ready', { pid: process.pid }).map((text): LogLine => ({ stream: 'stderr', text }));
  return imitated(READY, engine)(uvicorn, host, port);
}

type ReadyLines = (uvicorn: LogLine[], host: string, port: number) => LogLine[];
const running = (host: string, port: number): LogLine => ({ stream: 'stderr', text: corpusLines('trtllm-ready', { host, port })[0]! });

const READY: Readonly<Record<GpuEngineName, ReadyLines>> = {
  vllm: (uvicorn, host, port) => [
    { stream: 'stdout', text: `${vllmPrefix('INFO', 'api_server.py:1912')} ${corpusLines('vllm-api-server-start', { host, port })[0]}` },
    ...uvicorn,
  ],
  sglang: (uvicorn, host, port) => [
    ...uvicorn,
    running(host, port),
    { stream: 'stderr', text: `${sglangPrefix()} ${corpusLines('sglang-ready')[0]}` },
  ],
  trtllm: (uvicorn, host, port) => [...uvicorn, running(host, port)],
};

export interface MetricCounters extends SchedulerStats {
  genThroughput: number;
  kvUsedTokens: number;
  requestsFinished: number;
}

function prom(name: string, type: 'gauge' | 'counter', help: string, labels: string, value: number): string {
  return `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name}{${labels}} ${Number.isInteger(value) ? value.toFixed(1) : value}\n`;
}

/** Prometheus text named like the imitated engine (TRT-LLM's names are its /prometheus/metrics ones). */
export function metricsText(engine: EngineName, servedModel: string, s: MetricCounters): string {
  return imitated(METRICS, engine)(servedModel, s);
}

const METRICS: Readonly<Record<GpuEngineName, (servedModel: string, s: MetricCounters) => string>> = {
  vllm(servedModel, s) {
    const l = `engine="0",model_name="${servedModel}"`;
    return [
      prom('vllm:num_requests_running', 'gauge', 'Number of requests in model execution batches.', l, s.running),
      prom('vllm:num_requests_waiting', 'gauge', 'Number of requests waiting to be processed.', l, s.waiting),
      prom('vllm:kv_cache_usage_perc', 'gauge', 'KV-cache usage. 1 means 100 percent usage.', l, s.kvUsage),
      prom('vllm:num_preemptions_total', 'counter', 'Cumulative number of preemption from the engine.', l, s.preemptions),
      prom('vllm:prompt_tokens_total', 'counter', 'Number of prefill tokens processed.', l, s.promptTokens),
      prom('vllm:generation_tokens_total', 'counter', 'Number of generation tokens processed.', l, s.generationTokens),
      prom(
        'vllm:request_success_total',
        'counter',
        'Count of successfully processed requests.',
        `${l},finished_reason="length"`,
        s.requestsFinished,
      ),
    ].join('');
  },
  sglang(servedModel, s) {
    const l = `model_name="${servedModel}"`;
    return [
      prom('sglang:num_running_reqs', 'gauge', 'The number of running requests.', l, s.running),
      prom('sglang:num_queue_reqs', 'gauge', 'The number of requests in the waiting queue.', l, s.waiting),
      prom('sglang:token_usage', 'gauge', 'The token usage.', l, s.kvUsage),
      prom('sglang:num_used_tokens', 'gauge', 'The number of used tokens.', l, s.kvUsedTokens),
      prom('sglang:gen_throughput', 'gauge', 'The generation throughput (token/s).', l, s.genThroughput),
      prom('sglang:num_retracted_requests_total', 'counter', 'The number of retracted requests.', l, s.preemptions),
      prom('sglang:prompt_tokens_total', 'counter', 'Number of prefill tokens processed.', l, s.promptTokens),
      prom('sglang:generation_tokens_total', 'counter', 'Number of generation tokens processed.', l, s.generationTokens),
    ].join('');
  },
  trtllm(servedModel, s) {
    const l = `model_name="${servedModel}",engine_type="trtllm"`;
    return [
      prom('trtllm_num_requests_running', 'gauge', 'Number of running requests.', l, s.running),
      prom('trtllm_num_requests_waiting', 'gauge', 'Number of waiting requests.', l, s.waiting),
      prom('trtllm_kv_cache_utilization', 'gauge', 'KV cache utilization.', l, s.kvUsage),
      prom('trtllm_request_success_total', 'counter', 'Count of successfully processed requests.', l, s.requestsFinished),
    ].join('');
  },
};
