// The simulated engine server's life: size the variant with the estimate, bind, "load" for the
// simulated load time with 503 on /health, print the imitated engine's logs and ready line, then
// serve; or fail the way that engine fails (its text on stderr, non-zero exit, within seconds).
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { findGpu, gpuNames } from '../model/gpus.js';
import { getModel } from '../model/models.js';
import { resolveServer } from '../model/estimate.js';
import { onNodes } from '../model/interconnect.js';
import { SimArgsError, type SimArgs } from './args.js';
import { corpusLines } from '../engines/corpus.js';
import {
  adjustedMaxSeqLenLine,
  fitFailure,
  loadedLines,
  metricsText,
  portBusyFailure,
  readyLines,
  startLines,
  unknownModelFailure,
  type LogLine,
  type StartFailure,
} from './engine-style.js';
import { handleCompletion, sendJson } from './openai.js';
import { WallRunner } from './wall.js';

export type ExitSpec = { code: number } | { signal: 'SIGKILL' };

export interface SimServer {
  /** Resolves when the server ends by itself (a start-up failure); never for a healthy server. */
  done: Promise<ExitSpec>;
  /** The bound port once listening (0 before). */
  port(): number;
  stop(): Promise<void>;
}

const MiB = 1024 * 1024;
/** A failing start never keeps the caller waiting longer than this (wall seconds). */
const MAX_FAILURE_DELAY_S = 1;

/** Simulated start-up seconds: process start, weights from disk at ~2 GB/s, graph capture, compile. */
export function defaultLoadTime(weightsPerGpu: number, torchCompile: boolean): number {
  return 10 + weightsPerGpu / 2e9 + 6 + (torchCompile ? 30 : 0);
}

export function startSimServer(args: SimArgs, emit: (l: LogLine) => void): SimServer {
  const model = getModel(args.model);
  const gpu = findGpu(args.gpu);
  if (!gpu) throw new SimArgsError(`argument --gpu: unknown GPU '${args.gpu}' (choose from ${gpuNames().join(', ')} or an nvidia-smi name)`);
  let finish!: (e: ExitSpec) => void;
  const done = new Promise<ExitSpec>((r) => (finish = r));
  let server: http.Server | undefined;
  let runner: WallRunner | undefined;
  let timers: NodeJS.Timeout[] = [];
  let stopped = false;
  let boundPort = 0;

  const stop = async () => {
    stopped = true;
    loopDelay.disable();
    for (const t of timers) clearTimeout(t);
    timers = [];
    runner?.stop();
    if (server) {
      const s = server;
      server = undefined;
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  };
  const later = (s: number, fn: () => void) => timers.push(setTimeout(fn, s * 1000));
  const failNow = (f: StartFailure) => {
    for (const l of f.lines) emit(l);
    void stop().then(() => finish(f.exit));
  };

  if (!model) {
    failNow(unknownModelFailure(args.engine, args.model));
    return { done, port: () => 0, stop };
  }

  const cfg = onNodes(resolveServer(args.engine, gpu, args.gpus, model, args.knobs, args.engineVersion), args.gpusPerNode);
  let maxModelLen = cfg.maxModelLen;
  const served = args.servedModelName ?? args.model;
  const loadS = args.loadTime ?? defaultLoadTime(cfg.weights.perGpu, !!args.knobs.torchCompile);
  const loadWallS = loadS / args.speed;
  let ready = false;
  let loadStart = performance.now();

  if (args.engine === 'vllm' && args.knobs.maxModelLen && args.knobs.maxModelLen > model.maxPositionEmbeddings) {
    // vLLM's own text (test/fixtures/engines/corpus.json 'vllm-max-model-len').
    const text = corpusLines('vllm-max-model-len', { len: args.knobs.maxModelLen, max: model.maxPositionEmbeddings });
    failNow({ lines: [{ stream: 'stderr', text: 'Traceback (most recent call last):' }, ...text.map((t) => ({ stream: 'stderr' as const, text: t }))], exit: { code: 1 }, early: true });
    return { done, port: () => 0, stop };
  }

  const fitFail = cfg.fit.fits ? undefined : fitFailure(args.engine, cfg, cfg.fit.kind!, args.model, maxModelLen);
  if (fitFail?.early) {
    failNow(fitFail);
    return { done, port: () => 0, stop };
  }

  const gpusReport = () => {
    const used = Math.min(cfg.par.gpusUsed, args.gpus);
    const frac = ready ? 1 : Math.min(1, (performance.now() - loadStart) / 1000 / Math.max(1e-3, loadWallS));
    const memUsed = ready ? cfg.memUsedPerGpu : cfg.weights.perGpu * frac;
    const util = runner ? Math.round(runner.utilisation() * 100) : 0;
    return Array.from({ length: args.gpus }, (_, index) => ({
      index,
      name: gpu.smiName,
      utilPct: index < used ? util : 0,
      memUsedMiB: index < used ? Math.round(Math.min(memUsed, gpu.memMiB * MiB) / MiB) : 0,
      memTotalMiB: gpu.memMiB,
    }));
  };

  // The simulator must not be the bottleneck: it measures its own event-loop delay for /sim/info.
  // The histogram records whole timer intervals, so the sampling resolution is subtracted.
  const LOOP_RES_MS = 2;
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RES_MS });
  loopDelay.enable();
  const ms = (ns: number) => Math.max(0, Math.round((ns / 1e6 - LOOP_RES_MS) * 100) / 100);

  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    if (url === '/sim/gpus' && method === 'GET') return sendJson(res, 200, gpusReport());
    if (url === '/sim/info' && method === 'GET')
      return sendJson(res, 200, {
        simulated: true,
        ready,
        engine: args.engine,
        gpu: gpu.name,
        gpus: args.gpus,
        model: args.model,
        servedModelName: served,
        speed: args.speed,
        kvCapacityTokens: cfg.kvCapacityTokens,
        maxBatchedTokens: cfg.maxBatchedTokens,
        maxRunningSeqs: cfg.maxRunningSeqs,
        maxModelLen,
        attentionBackend: cfg.attentionBackend,
        // How late token deliveries ran against the simulated schedule on this host, wall ms.
        deliveryLateMs: runner ? runner.stats().deliveryLateMs : { mean: 0, max: 0 },
        // Process CPU (user + system) since start, ms: tells a busy simulator from a busy host.
        cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
        eventLoopDelayMs: { mean: ms(loopDelay.mean), p50: ms(loopDelay.percentile(50)), p99: ms(loopDelay.percentile(99)), max: ms(loopDelay.max) },
      });
    if (url === '/sim/reset-stats' && method === 'POST') {
      loopDelay.reset();
      return sendJson(res, 200, { ok: true });
    }
    if (url === '/health') {
      res.writeHead(ready ? 200 : 503, { 'content-length': 0 });
      return res.end();
    }
    if (!ready || !runner) return sendJson(res, 503, { object: 'error', message: 'The server is starting up.', type: 'ServiceUnavailableError', code: 503 });
    if (url === '/v1/models' && method === 'GET')
      return sendJson(res, 200, {
        object: 'list',
        data: [{ id: served, object: 'model', created: Math.floor(Date.now() / 1000), owned_by: args.engine, root: args.model, parent: null, max_model_len: maxModelLen }],
      });
    if ((url === '/metrics' || url === '/prometheus/metrics') && method === 'GET') {
      const text = metricsText(args.engine, served, runner.stats());
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      return res.end(text);
    }
    const ctx = { runner, servedModel: served, maxModelLen, seed: args.seed };
    if (url === '/v1/chat/completions' && method === 'POST') return void handleCompletion('chat', req, res, ctx).catch(() => res.destroy());
    if (url === '/v1/completions' && method === 'POST') return void handleCompletion('completion', req, res, ctx).catch(() => res.destroy());
    sendJson(res, 404, { detail: 'Not Found' });
  };

  const load = (bindFailure?: StartFailure) => {
    loadStart = performance.now();
    for (const l of startLines(args.engine, cfg, args.model, args.host, boundPort || args.port)) emit(l);
    const pending = bindFailure ?? fitFail;
    if (pending) {
      later(Math.min(loadWallS, MAX_FAILURE_DELAY_S), () => failNow(pending));
      return;
    }
    later(loadWallS, () => {
      if (stopped) return;
      // TRT-LLM shrinks max_seq_len and says so; SGLang caps requests at the pool (tp_worker.py max_req_len).
      if (args.engine !== 'vllm' && cfg.kvCapacityTokens / cfg.par.dp < maxModelLen) {
        maxModelLen = Math.floor(cfg.kvCapacityTokens / cfg.par.dp);
        if (args.engine === 'trtllm') emit(adjustedMaxSeqLenLine(maxModelLen));
      }
      for (const l of loadedLines(args.engine, cfg, maxModelLen)) emit(l);
      runner = new WallRunner({ ...cfg, maxModelLen }, args.seed, args.speed);
      ready = true;
      for (const l of readyLines(args.engine, args.host, boundPort)) emit(l);
    });
  };

  server = http.createServer(handler);
  server.keepAliveTimeout = 60_000;
  server.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES') {
      server = undefined;
      const f = portBusyFailure(args.engine, args.host, args.port);
      if (f.early) failNow(f);
      else load(f);
    } else failNow({ lines: [{ stream: 'stderr', text: `OSError: ${e.message}` }], exit: { code: 1 }, early: true });
  });
  server.listen(args.port, args.host, () => {
    boundPort = (server?.address() as AddressInfo | null)?.port ?? args.port;
    load();
  });
  return { done, port: () => boundPort, stop };
}
