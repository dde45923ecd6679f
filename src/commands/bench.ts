// `servelab bench`: a drop-in for `vllm bench serve` (same flag names, same printed block, same
// --save-result JSON) on top of src/bench.
import { formatHelp, parseFlags, type FlagSpec } from '../bench/cli-args.js';
import { loadWorkload } from '../bench/datasets.js';
import { formatResult } from '../bench/format.js';
import { parseGoodput, parseMetricPercentiles, parsePercentileMetrics } from '../bench/goodput.js';
import { fetchModelIds, fetchSimSpeed } from '../bench/models.js';
import { toSimulated } from '../bench/simulated.js';
import { runBenchmark } from '../bench/run.js';
import type { RunOptions } from '../bench/run-options.js';
import { runBenchmarkSharded } from '../bench/sharded.js';
import { parseClientThreads, resolveClientThreads } from '../bench/client-threads.js';
import { resultJson, saveResultJson } from '../bench/save.js';
import { resolveTokenCounter } from '../bench/tokenizer.js';
import type { BenchEvent, BenchResult, Workload } from '../bench/types.js';

import { UserError } from '../core/errors.js';
import { setLogSink } from '../core/logger.js';
import { pyFloatStr } from '../bench/pyformat.js';

const FLAGS: Record<string, FlagSpec> = {
  'base-url': { kind: 'string', help: 'server URL, e.g. http://127.0.0.1:8000 (overrides --host/--port)', metavar: 'URL' },
  host: { kind: 'string', help: 'server host', default: '127.0.0.1' },
  port: { kind: 'number', help: 'server port', default: '8000' },
  endpoint: { kind: 'string', help: 'API path', metavar: 'PATH', default: '/v1/chat/completions (openai-chat), /v1/completions (openai)' },
  backend: { kind: 'string', help: 'openai-chat, or openai (vllm) for /v1/completions', default: 'openai-chat' },
  model: { kind: 'string', help: 'model id (default: the first of GET /v1/models)', metavar: 'ID' },
  'served-model-name': { kind: 'string', help: 'name sent as "model" when it differs from --model', metavar: 'NAME' },
  tokenizer: { kind: 'string', help: 'tokenizer.json, a folder with one, or a model id in the HF cache (default: --model)', metavar: 'PATH|ID' },
  'dataset-name': { kind: 'string', help: 'sharegpt, random or custom (a JSONL of {"prompt", "output_tokens"})', default: 'random' },
  'dataset-path': { kind: 'string', help: 'ShareGPT JSON file, or the custom .jsonl', metavar: 'FILE' },
  'num-prompts': { kind: 'number', help: 'requests to send', default: '1000' },
  'request-rate': { kind: 'number', help: 'requests per second, or inf to send all at once', default: 'inf' },
  burstiness: { kind: 'number', help: 'gamma shape of arrivals (1 = Poisson, lower = burstier)', default: '1.0' },
  'max-concurrency': { kind: 'number', help: 'cap on requests in flight' },
  'num-warmups': { kind: 'number', help: 'warm-up requests before measuring', default: '0' },
  'ready-check-timeout-sec': { kind: 'number', help: 'retry a test request until the server answers, up to N s (0 = skip)', default: '0' },
  'request-timeout': { kind: 'number', help: 'fail a request that takes longer than N s', default: '21600 (6 h, as vLLM)' },
  'ignore-eos': { kind: 'boolean', help: 'send ignore_eos: true (always on for the random dataset, as in vLLM main)' },
  temperature: { kind: 'number', help: 'sampling temperature (not sent unless given)' },
  'extra-body': { kind: 'string', help: 'JSON object merged into each request body', metavar: 'JSON' },
  header: { kind: 'list', help: 'extra HTTP headers', metavar: 'KEY=VALUE...' },
  seed: { kind: 'number', help: 'seed for sampling and arrivals', default: '0' },
  'random-input-len': { kind: 'number', help: 'random dataset: input tokens', default: '1024' },
  'random-output-len': { kind: 'number', help: 'random dataset: output tokens', default: '128' },
  'random-range-ratio': { kind: 'number', help: 'random dataset: lengths vary within [1-r, 1+r]', default: '0.0' },
  'random-prefix-len': { kind: 'number', help: 'random dataset: shared prefix tokens', default: '0' },
  'sharegpt-output-len': { kind: 'number', help: 'ShareGPT: fixed output length instead of the reference reply' },
  'custom-output-len': { kind: 'number', help: 'custom dataset: output tokens per request; -1 = each line\'s output_tokens', default: '256' },
  'skip-chat-template': { kind: 'boolean', help: 'custom dataset: count the prompt as written (servelab never applies a chat template client-side)' },
  'no-oversample': { kind: 'boolean', help: 'ShareGPT: do not repeat samples when too few pass the filter' },
  goodput: { kind: 'list', help: 'SLOs for goodput in ms', metavar: 'KEY:MS...' },
  'percentile-metrics': { kind: 'string', help: 'metrics with percentiles, from ttft,tpot,itl,e2el', default: 'ttft,tpot,itl' },
  'metric-percentiles': { kind: 'string', help: 'percentiles to report, comma-separated', default: '99' },
  'save-result': { kind: 'boolean', help: 'write the result JSON (vLLM key names and file naming)' },
  'save-detailed': { kind: 'boolean', help: 'add per-request arrays to the result JSON' },
  'append-result': { kind: 'boolean', help: 'append to the result file instead of replacing it' },
  'result-dir': { kind: 'string', help: 'folder for the result file', metavar: 'DIR' },
  'result-filename': { kind: 'string', help: 'result file name', metavar: 'NAME' },
  label: { kind: 'string', help: 'prefix of the result file name (default: the backend)' },
  metadata: { kind: 'list', help: 'extra KEY=VALUE pairs stored in the result JSON', metavar: 'KEY=VALUE...' },
  'client-threads': { kind: 'string', help: 'client worker threads to shard the requests over (auto = one per core); 1 = one client, on this thread', metavar: 'N|auto', default: '1' },
  'disable-tqdm': { kind: 'boolean', help: 'no progress bar' },
  json: { kind: 'boolean', help: 'print the result JSON to stdout instead of the block' },
  'wall-clock': { kind: 'boolean', help: 'against a servelab simulator: keep wall-clock figures (default: convert to simulated GPU time)' },
  'trust-remote-code': { kind: 'boolean', help: 'accepted for compatibility; ignored' },
  help: { kind: 'boolean', help: 'show this help' },
};

const USAGE = `Usage: servelab bench [options]

Benchmark a running OpenAI-compatible server the way \`vllm bench serve\` does: same flags,
same metrics, the same printed result block and --save-result JSON. No Python needed.`;

const FOOTER = `Examples:
  servelab bench --base-url http://127.0.0.1:8000 --model Qwen/Qwen3-8B --dataset-name random \\
      --random-input-len 1024 --random-output-len 128 --num-prompts 200 --max-concurrency 32
  servelab bench --port 8000 --dataset-name sharegpt --dataset-path ShareGPT_V3.json --save-result

API key: OPENAI_API_KEY. Without a tokenizer.json, token counts are approximate (one word = one
token) and totals come from the server's usage reports.`;

function pairs(values: string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values ?? []) {
    const eq = v.indexOf('=');
    if (eq <= 0) throw new UserError(`invalid --${flag} '${v}': use KEY=VALUE`);
    out[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return out;
}

function progressBar(total: number): { update(done: number): void; end(): void } {
  let last = 0;
  const draw = (done: number) => {
    const width = 30;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r${'#'.repeat(filled)}${'.'.repeat(width - filled)} ${done}/${total}`);
  };
  return {
    update(done) {
      const now = Date.now();
      if (now - last < 100 && done < total) return;
      last = now;
      draw(done);
    },
    end() {
      process.stderr.write('\n');
    },
  };
}

type Flags = Record<string, unknown>;

/** The run's options from the flags (everything but the workload, model and live hooks). */
function runFlags(flags: Flags): Omit<RunOptions, 'baseUrl' | 'model' | 'requests'> & { dataset: 'random' | 'sharegpt' | 'custom' } {
  // vLLM's `--backend vllm` is its completions client; accept it as the same thing.
  const backendFlag = (flags.backend as string | undefined) ?? 'openai-chat';
  const backend = backendFlag === 'vllm' ? 'openai' : backendFlag;
  if (backend !== 'openai-chat' && backend !== 'openai') throw new UserError(`bench: --backend must be openai-chat, openai or vllm, got '${backendFlag}'`);
  const dataset = (flags['dataset-name'] as string | undefined) ?? 'random';
  if (dataset !== 'random' && dataset !== 'sharegpt' && dataset !== 'custom') throw new UserError(`bench: --dataset-name must be random, sharegpt or custom, got '${dataset}'`);
  let extraBody: Record<string, unknown> | undefined;
  if (flags['extra-body'] !== undefined) {
    try {
      extraBody = JSON.parse(flags['extra-body'] as string) as Record<string, unknown>;
    } catch {
      throw new UserError("bench: --extra-body must be a JSON object, e.g. '{\"top_p\": 0.9}'");
    }
  }
  const goodput = flags.goodput ? parseGoodput(flags.goodput as string[]) : undefined;
  return {
    dataset,
    ...(flags.endpoint !== undefined ? { endpoint: flags.endpoint as string } : {}),
    backend,
    ...(flags['served-model-name'] !== undefined ? { servedModelName: flags['served-model-name'] as string } : {}),
    requestRate: (flags['request-rate'] as number | undefined) ?? Infinity,
    burstiness: (flags.burstiness as number | undefined) ?? 1,
    seed: (flags.seed as number | undefined) ?? 0,
    maxConcurrency: (flags['max-concurrency'] as number | undefined) ?? null,
    numWarmups: (flags['num-warmups'] as number | undefined) ?? 0,
    // vLLM main (PR #28227) forces ignore_eos for random prompts: their outputs must have the asked length.
    ignoreEos: Boolean(flags['ignore-eos']) || dataset === 'random',
    ...(flags.temperature !== undefined ? { temperature: flags.temperature as number } : {}),
    headers: pairs(flags.header as string[] | undefined, 'header'),
    ...(extraBody ? { extraBody } : {}),
    ...(goodput ? { goodput } : {}),
    percentileMetrics: parsePercentileMetrics((flags['percentile-metrics'] as string | undefined) ?? 'ttft,tpot,itl'),
    metricPercentiles: parseMetricPercentiles((flags['metric-percentiles'] as string | undefined) ?? '99'),
    ...(flags['request-timeout'] !== undefined ? { requestTimeoutSec: flags['request-timeout'] as number } : {}),
    readyCheckTimeoutSec: (flags['ready-check-timeout-sec'] as number | undefined) ?? 0,
    ...(flags.label !== undefined ? { label: flags.label as string } : {}),
  };
}

async function loadBenchWorkload(flags: Flags, dataset: 'random' | 'sharegpt' | 'custom', model: string): Promise<Workload> {
  const tokenizer = flags.tokenizer as string | undefined;
  return loadWorkload({
    dataset,
    ...(flags['dataset-path'] !== undefined ? { path: flags['dataset-path'] as string } : {}),
    numPrompts: (flags['num-prompts'] as number | undefined) ?? 1000,
    ...(flags['random-input-len'] !== undefined ? { randomInputLen: flags['random-input-len'] as number } : {}),
    ...(flags['random-output-len'] !== undefined ? { randomOutputLen: flags['random-output-len'] as number } : {}),
    ...(flags['random-range-ratio'] !== undefined ? { randomRangeRatio: flags['random-range-ratio'] as number } : {}),
    ...(flags['random-prefix-len'] !== undefined ? { randomPrefixLen: flags['random-prefix-len'] as number } : {}),
    ...(flags['sharegpt-output-len'] !== undefined ? { sharegptOutputLen: flags['sharegpt-output-len'] as number } : {}),
    // vLLM's default --custom-output-len is 256 (benchmarks/datasets.py); -1 uses each line's output_tokens.
    ...(dataset === 'custom' ? { customOutputLen: (flags['custom-output-len'] as number | undefined) ?? 256 } : {}),
    seed: (flags.seed as number | undefined) ?? 0,
    ...(tokenizer ? { tokenizer } : {}),
    model,
    noOversample: Boolean(flags['no-oversample']),
  });
}

/** Runs the benchmark with a progress bar; Ctrl-C stops it and keeps what finished. */
async function measure(opts: RunOptions, threads: number, disableBar: boolean): Promise<BenchResult> {
  const bar = process.stderr.isTTY && !disableBar ? progressBar(opts.requests.length) : undefined;
  let done = 0;
  const onEvent = (e: BenchEvent) => {
    if (e.type === 'request-finished' || e.type === 'request-failed') bar?.update(++done);
  };
  const ac = new AbortController();
  const onSigint = () => {
    process.stderr.write('\nservelab: interrupted; reporting what finished\n');
    ac.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    const run = { ...opts, signal: ac.signal, onEvent };
    return threads > 1 ? await runBenchmarkSharded(run, threads) : await runBenchmark(run);
  } finally {
    process.removeListener('SIGINT', onSigint);
    bar?.end();
  }
}

/** Prints (or saves) the result as vLLM does; the exit code. */
function report(result: BenchResult, flags: Flags): number {
  const failed = result.outputs.filter((o) => !o.success);
  if (failed.length) {
    process.stderr.write(`${failed.length} request(s) failed; first errors:\n`);
    for (const f of failed.slice(0, 10)) process.stderr.write(`  ${f.error.split('\n')[0]}\n`);
  }
  for (const note of result.notes) process.stderr.write(`note: ${note}\n`);
  const saveOpts = {
    saveDetailed: Boolean(flags['save-detailed']),
    appendResult: Boolean(flags['append-result']),
    metadata: pairs(flags.metadata as string[] | undefined, 'metadata'),
    ...(flags['result-dir'] !== undefined ? { resultDir: flags['result-dir'] as string } : {}),
    ...(flags['result-filename'] !== undefined ? { resultFilename: flags['result-filename'] as string } : {}),
  };
  if (flags.json) process.stdout.write(JSON.stringify(resultJson(result, saveOpts)) + '\n');
  else process.stdout.write(formatResult(result));
  if (flags['save-result'] || flags['save-detailed'] || flags['append-result']) {
    const file = saveResultJson(result, saveOpts);
    process.stderr.write(`saved ${file}\n`);
  }
  if (result.aborted) return 130;
  return result.metrics.completed === 0 ? 1 : 0;
}

export default async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv, FLAGS, 'bench');
  if (flags.help) {
    process.stdout.write(formatHelp(USAGE, FLAGS, FOOTER));
    return 0;
  }
  if (positional.length) throw new UserError(`bench: unexpected argument '${positional[0]}'. Run 'servelab bench --help'.`);
  setLogSink((level, message) => {
    if (level !== 'debug') process.stderr.write(`${level === 'info' ? '' : `${level}: `}${message}\n`);
  });
  const { dataset, ...run } = runFlags(flags);
  const threadSpec = parseClientThreads((flags['client-threads'] as string | undefined) ?? '1');
  const baseUrl = checkBaseUrl((flags['base-url'] as string | undefined) ?? `http://${(flags.host as string | undefined) ?? '127.0.0.1'}:${(flags.port as number | undefined) ?? 8000}`);
  let model = flags.model as string | undefined;
  if (!model) {
    const ids = await fetchModelIds(baseUrl, run.headers ?? {});
    if (ids.length === 0) throw new UserError(`bench: ${baseUrl}/v1/models lists no model; pass --model`);
    model = ids[0]!;
  }
  const tokenizer = flags.tokenizer as string | undefined;
  const workload = await loadBenchWorkload(flags, dataset, model);
  const counter = await resolveTokenCounter(tokenizer, model);
  // A servelab simulator runs `speed` times faster than the GPU it models: report GPU time.
  const simSpeed = flags['wall-clock'] ? undefined : await fetchSimSpeed(baseUrl);
  if (simSpeed !== undefined) {
    process.stderr.write(`servelab simulator at ${baseUrl} (clock ${simSpeed}x): figures are converted to simulated GPU time (--wall-clock keeps them raw)\n`);
  }
  if (!flags.json) {
    process.stdout.write(`Traffic request rate: ${pyFloatStr(run.requestRate!)}\n`);
    process.stdout.write(`Burstiness factor: ${pyFloatStr(run.burstiness!)} (${run.burstiness === 1 ? 'Poisson process' : 'Gamma distribution'})\n`);
    process.stdout.write(`Maximum request concurrency: ${run.maxConcurrency ?? 'None'}\n`);
  }
  const threads = resolveClientThreads(threadSpec, { requests: workload.requests.length, maxConcurrency: run.maxConcurrency ?? null });
  const measured = await measure(
    { ...run, baseUrl, model, tokenizerId: workload.tokenizerPath ?? tokenizer ?? model, requests: workload.requests, tokenCounts: workload.tokenCounts, countOutputTokens: (t) => counter.count(t, false) },
    threads,
    Boolean(flags['disable-tqdm']),
  );
  return report(simSpeed !== undefined ? toSimulated(measured, simSpeed) : measured, flags);
}

/** A base URL the client can send to: a typo is bad input (one line), not an internal error from `new URL`. */
function checkBaseUrl(url: string): string {
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new UserError(`bench: --base-url must be an http:// or https:// URL, e.g. http://127.0.0.1:8000, got '${url}'`);
  return url;
}

