// `servelab bench`: a drop-in for `vllm bench serve` (same flag names, same printed block, same
// --save-result JSON) on top of src/bench.
import { parseBenchArgs } from '../cli/bench-args.js';
import { formatResult } from '../bench/output/format.js';
import { fetchModelIds, fetchSimSpeed } from '../bench/http/models.js';
import { toSimulated } from '../bench/metrics/simulated.js';
import { runBenchmark } from '../bench/load/run.js';
import { checkRunOptions, type RunOptions } from '../bench/load/run-options.js';
import { runBenchmarkSharded } from '../bench/workers/sharded.js';
import { parseClientThreads, resolveClientThreads } from '../bench/workers/client-threads.js';
import { resultJson, saveResultJson } from '../bench/output/save.js';
import { resolveTokenCounter } from '../bench/datasets/tokenizer.js';
import type { BenchEvent, BenchResult } from '../bench/types.js';
import { UserError } from '../core/errors.js';
import { setLogSink } from '../core/logger.js';
import { pyFloatStr } from '../bench/output/pyformat.js';
import { checkBaseUrl, loadBenchWorkload, pairs, runFlags, type Flags } from '../cli/bench-flags.js';
import { anyEngineCacheFields } from '../engines/cache-report.js';
import { loadMultiTurnBench } from './bench-multi-turn.js';

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

/** Runs a benchmark of `total` requests with a progress bar; Ctrl-C stops it and keeps what finished. */
async function measure(
  total: number,
  disableBar: boolean,
  go: (signal: AbortSignal, onEvent: (e: BenchEvent) => void) => Promise<BenchResult>,
): Promise<BenchResult> {
  const bar = process.stderr.isTTY && !disableBar ? progressBar(total) : undefined;
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
    return await go(ac.signal, onEvent);
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
  const parsed = parseBenchArgs(argv);
  if (!parsed) return 0;
  const { flags, positional } = parsed;
  if (positional.length) throw new UserError(`bench: unexpected argument '${positional[0]}'. Run 'servelab bench --help'.`);
  setLogSink((level, message) => {
    if (level !== 'debug') process.stderr.write(`${level === 'info' ? '' : `${level}: `}${message}\n`);
  });
  const { dataset, ...run } = runFlags(flags);
  const threadSpec = parseClientThreads((flags['client-threads'] as string | undefined) ?? '1');
  const baseUrl = checkBaseUrl(
    (flags['base-url'] as string | undefined) ??
      `http://${(flags.host as string | undefined) ?? '127.0.0.1'}:${(flags.port as number | undefined) ?? 8000}`,
  );
  let model = flags.model as string | undefined;
  // Bad options are refused before anything is fetched, loaded or printed: bad input is one line.
  checkRunOptions({ ...run, baseUrl, model: model ?? '' });
  if (!model) {
    const ids = await fetchModelIds(baseUrl, run.headers ?? {});
    if (ids.length === 0) throw new UserError(`bench: ${baseUrl}/v1/models lists no model; pass --model`);
    model = ids[0]!;
  }
  const tokenizer = flags.tokenizer as string | undefined;
  // A servelab simulator runs `speed` times faster than the GPU it models: report GPU time.
  const simSpeed = flags['wall-clock'] ? undefined : await fetchSimSpeed(baseUrl);
  if (simSpeed !== undefined) {
    process.stderr.write(
      `servelab simulator at ${baseUrl} (clock ${simSpeed}x): figures are converted to simulated GPU time (--wall-clock keeps them raw)\n`,
    );
  }
  const asSimulated = (r: BenchResult) => (simSpeed !== undefined ? toSimulated(r, simSpeed) : r);
  // The server is not known here: read any engine's cache report (the adapters say where).
  const cacheFields = anyEngineCacheFields();
  if (dataset === 'multi_turn') {
    const mt = await loadMultiTurnBench(flags, model, !flags.json);
    const r = await measure(mt.total, Boolean(flags['disable-tqdm']), (signal, onEvent) =>
      mt.run({ ...run, baseUrl, model: model!, cacheFields, signal, onEvent }),
    );
    return report(asSimulated(r), flags);
  }
  const workload = await loadBenchWorkload(flags, dataset, model);
  const counter = await resolveTokenCounter(tokenizer, model);
  if (!flags.json) {
    process.stdout.write(`Traffic request rate: ${pyFloatStr(run.requestRate!)}\n`);
    process.stdout.write(
      `Burstiness factor: ${pyFloatStr(run.burstiness!)} (${run.burstiness === 1 ? 'Poisson process' : 'Gamma distribution'})\n`,
    );
    process.stdout.write(`Maximum request concurrency: ${run.maxConcurrency ?? 'None'}\n`);
    const last = workload.requests.at(-1)?.arrivalS;
    if (last !== undefined)
      process.stdout.write(`Trace replay: ${workload.requests.length} requests at their recorded times over ${last.toFixed(3)} s\n`);
  }
  const threads = resolveClientThreads(threadSpec, { requests: workload.requests.length, maxConcurrency: run.maxConcurrency ?? null });
  const opts: RunOptions = {
    ...run,
    baseUrl,
    model,
    tokenizerId: workload.tokenizerPath ?? tokenizer ?? model,
    requests: workload.requests,
    tokenCounts: workload.tokenCounts,
    countOutputTokens: (t) => counter.count(t, false),
    cacheFields,
  };
  const measured = await measure(workload.requests.length, Boolean(flags['disable-tqdm']), (signal, onEvent) => {
    const o = { ...opts, signal, onEvent };
    return threads > 1 ? runBenchmarkSharded(o, threads) : runBenchmark(o);
  });
  return report(asSimulated(measured), flags);
}
