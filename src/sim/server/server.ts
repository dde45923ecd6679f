// The simulated engine server's life: size the variant with the estimate, bind, "load" for the
// simulated load time with 503 on /health, print the imitated engine's logs and ready line, then
// serve (routes.ts); or fail the way that engine fails (its text on stderr, non-zero exit, within
// seconds).
import { ENGINE_BEHAVIOUR } from '../../model/engine-behaviour.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findGpu, gpuNames } from '../../model/gpus.js';
import { getModel, type ModelInfo } from '../../model/models.js';
import { resolveServer } from '../../model/estimate.js';
import { onNodes } from '../../model/interconnect.js';
import { correctServer } from '../../model/correct-server.js';
import { simCorrections } from './host-corrections.js';
import { SimArgsError, type SimArgs } from './sim-args.js';
import { corpusLines } from '../../engines/corpus.js';
import { loadedLines, readyLines, startLines, type LogLine } from '../imitation/engine-style.js';
import {
  adjustedMaxSeqLenLine,
  fitFailure,
  portBusyFailure,
  unknownModelFailure,
  type StartFailure,
} from '../imitation/engine-failures.js';
import type { SimLive } from './live.js';
import { watchLoopDelay, type LoopDelay } from './loop-delay.js';
import { simRoutes } from './routes.js';
import { WallRunner } from '../scheduler/wall.js';
import { engineEnvLines } from './engine-env.js';
import { cacheMarkers, cacheState, startupBreakdown, writeCacheMarkers, type CacheMarkers } from '../imitation/startup.js';

export type ExitSpec = { code: number } | { signal: 'SIGKILL' };

export interface SimServer {
  /** Resolves when the server ends by itself (a start-up failure); never for a healthy server. */
  done: Promise<ExitSpec>;
  /** The bound port once listening (0 before). */
  port(): number;
  stop(): Promise<void>;
}

/** A failing start never keeps the caller waiting longer than this (wall seconds). */
const MAX_FAILURE_DELAY_S = 1;

// The start-up model and its caches live in imitation/startup.ts; re-exported for the tuning code.

/** The process's end, its timers and its HTTP server: stopped once, by a signal or a failure. */
class SimLifecycle {
  readonly done: Promise<ExitSpec>;
  private finish!: (e: ExitSpec) => void;
  private timers: NodeJS.Timeout[] = [];
  stopped = false;
  server: http.Server | undefined;
  runner: WallRunner | undefined;
  loop: LoopDelay | undefined;
  boundPort = 0;

  constructor(private readonly emit: (l: LogLine) => void) {
    this.done = new Promise<ExitSpec>((r) => (this.finish = r));
  }

  later(s: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, s * 1000));
  }

  /** Print the engine's failure text, stop, and end the process with the engine's exit. */
  failNow(f: StartFailure): void {
    for (const l of f.lines) this.emit(l);
    void this.stop().then(() => this.finish(f.exit));
  }

  stop = async (): Promise<void> => {
    this.stopped = true;
    this.loop?.disable();
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    this.runner?.stop();
    if (this.server) {
      const s = this.server;
      this.server = undefined;
      s.closeAllConnections();
      await new Promise<void>((r) => s.close(() => r()));
    }
  };

  handle(): SimServer {
    return { done: this.done, port: () => this.boundPort, stop: this.stop };
  }
}

/** A failure vLLM reports before it binds: --max-model-len beyond the model's positions. */
function maxModelLenFailure(args: SimArgs, model: ModelInfo): StartFailure | undefined {
  if (
    !ENGINE_BEHAVIOUR[args.engine].refusesLongMaxModelLen ||
    !args.knobs.maxModelLen ||
    args.knobs.maxModelLen <= model.maxPositionEmbeddings
  )
    return undefined;
  // vLLM's own text (src/engines/data/corpus.json 'vllm-max-model-len').
  const text = corpusLines('vllm-max-model-len', { len: args.knobs.maxModelLen, max: model.maxPositionEmbeddings });
  return {
    lines: [{ stream: 'stderr', text: 'Traceback (most recent call last):' }, ...text.map((t) => ({ stream: 'stderr' as const, text: t }))],
    exit: { code: 1 },
    early: true,
  };
}

/** The simulated load: the engine's start lines, then after the load time either the pending failure or ready. */
function load(
  life: SimLifecycle,
  live: SimLive,
  emit: (l: LogLine) => void,
  pending: StartFailure | undefined,
  markers: CacheMarkers,
): void {
  const { args, cfg } = live;
  live.loadStart = performance.now();
  for (const l of startLines(args.engine, cfg, args.model, args.host, life.boundPort || args.port, args.engineVersion)) emit(l);
  for (const l of engineEnvLines(args.engineEnv, process.env)) emit(l);
  if (pending) {
    life.later(Math.min(live.loadWallS, MAX_FAILURE_DELAY_S), () => life.failNow(pending));
    return;
  }
  life.later(live.loadWallS, () => {
    if (life.stopped) return;
    // TRT-LLM shrinks max_seq_len and says so; SGLang caps requests at the pool (tp_worker.py max_req_len).
    if (!ENGINE_BEHAVIOUR[args.engine].refusesShortKv && cfg.kvCapacityTokens / cfg.par.dp < live.maxModelLen) {
      live.maxModelLen = Math.floor(cfg.kvCapacityTokens / cfg.par.dp);
      if (ENGINE_BEHAVIOUR[args.engine].saysMaxSeqLenAdjusted) emit(adjustedMaxSeqLenLine(live.maxModelLen));
    }
    for (const l of loadedLines(args.engine, cfg, live.maxModelLen)) emit(l);
    live.runner = life.runner = new WallRunner({ ...cfg, maxModelLen: live.maxModelLen }, args.seed, args.speed);
    writeCacheMarkers(markers, !!args.knobs.torchCompile, args.loadFormat === 'dummy');
    live.ready = true;
    for (const l of readyLines(args.engine, args.host, life.boundPort)) emit(l);
  });
}

/** Bind, then load; a busy port fails the way the engine does (at once, or after its start lines). */
function listen(
  life: SimLifecycle,
  live: SimLive,
  emit: (l: LogLine) => void,
  fitFail: StartFailure | undefined,
  markers: CacheMarkers,
): void {
  const { args } = live;
  const server = http.createServer(simRoutes(live, life.loop!));
  life.server = server;
  server.keepAliveTimeout = 60_000;
  server.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EADDRINUSE' || e.code === 'EACCES') {
      life.server = undefined;
      const f = portBusyFailure(args.engine, args.host, args.port);
      if (f.early) life.failNow(f);
      else load(life, live, emit, f, markers);
    } else life.failNow({ lines: [{ stream: 'stderr', text: `OSError: ${e.message}` }], exit: { code: 1 }, early: true });
  });
  server.listen(args.port, args.host, () => {
    life.boundPort = (life.server?.address() as AddressInfo | null)?.port ?? args.port;
    load(life, live, emit, fitFail, markers);
  });
}

export function startSimServer(args: SimArgs, emit: (l: LogLine) => void): SimServer {
  const model = getModel(args.model);
  const gpu = findGpu(args.gpu);
  if (!gpu)
    throw new SimArgsError(`argument --gpu: unknown GPU '${args.gpu}' (choose from ${gpuNames().join(', ')} or an nvidia-smi name)`);
  const life = new SimLifecycle(emit);
  if (!model) {
    life.failNow(unknownModelFailure(args.engine, args.model));
    return life.handle();
  }
  const cfg = correctServer(
    onNodes(resolveServer(args.engine, gpu, args.gpus, model, args.knobs, args.engineVersion), args.gpusPerNode),
    simCorrections(args, (text) => emit({ stream: 'stderr', text })),
  );
  const fitFail = cfg.fit.fits ? undefined : fitFailure(args.engine, cfg, cfg.fit.kind!, args.model, cfg.maxModelLen);
  // Failures the engine reports before it binds; a later fit failure comes after its start lines.
  const early = maxModelLenFailure(args, model) ?? (fitFail?.early ? fitFail : undefined);
  if (early) {
    life.failNow(early);
    return life.handle();
  }
  // The modelled start-up (what a real host would take, with this session's caches as they are
  // now) is reported on /sim/info even when --load-time plays it faster.
  const markers = cacheMarkers(args.engine, args.model, args.knobs, process.env);
  const cached = cacheState(markers);
  const startup = {
    ...startupBreakdown(cfg.weights.perGpu, !!args.knobs.torchCompile, {
      ...cached,
      cudaGraph: args.knobs.cudaGraph !== false,
      dummyWeights: args.loadFormat === 'dummy',
    }),
    ...cached,
  };
  const loadS = args.loadTime ?? startup.totalS;
  const live: SimLive = {
    startup,
    args,
    gpu,
    cfg,
    served: args.servedModelName ?? args.model,
    loadWallS: loadS / args.speed,
    maxModelLen: cfg.maxModelLen,
    ready: false,
    loadStart: performance.now(),
    runner: undefined,
  };
  life.loop = watchLoopDelay();
  listen(life, live, emit, fitFail, markers);
  return life.handle();
}
