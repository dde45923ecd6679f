// The simulated server's HTTP routes: its own /sim/* introspection, /health (503 while loading),
// the engine's /v1/models and /metrics, and the OpenAI completion endpoints (openai.ts).
import type http from 'node:http';
import { metricsText } from '../imitation/engine-style.js';
import type { SimLive } from './live.js';
import { gpusReport } from './live.js';
import type { LoopDelay } from './loop-delay.js';
import { handleCompletion, sendJson } from './openai.js';
import { simDrift } from '../imitation/drift.js';
import { simFaults } from '../imitation/faults.js';
import type { GpuEngineName } from '../../core/variant.js';

/** /sim/info: what is simulated, as sized, and how well this host keeps the simulated schedule. */
function simInfo(s: SimLive, loop: LoopDelay) {
  const { args, cfg } = s;
  return {
    simulated: true,
    ready: s.ready,
    engine: args.engine,
    gpu: s.gpu.name,
    gpus: args.gpus,
    model: args.model,
    servedModelName: s.served,
    speed: args.speed,
    kvCapacityTokens: cfg.kvCapacityTokens,
    maxBatchedTokens: cfg.maxBatchedTokens,
    maxRunningSeqs: cfg.maxRunningSeqs,
    maxModelLen: s.maxModelLen,
    attentionBackend: cfg.attentionBackend,
    // The modelled start-up a real host would take (simulated s), whatever --load-time played.
    startup: s.startup,
    // How late token deliveries ran against the simulated schedule on this host, wall ms.
    deliveryLateMs: s.runner ? s.runner.stats().deliveryLateMs : { mean: 0, max: 0 },
    // Process CPU (user + system) since start, ms: tells a busy simulator from a busy host.
    cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000),
    eventLoopDelayMs: loop.stats(),
  };
}

/** The engine's endpoints, once loaded (the runner exists). */
function engineRoute(s: SimLive, url: string, method: string, req: http.IncomingMessage, res: http.ServerResponse): void {
  const runner = s.runner!;
  const { args, served, maxModelLen } = s;
  if (url === '/v1/models' && method === 'GET')
    return sendJson(res, 200, {
      object: 'list',
      data: [
        {
          id: served,
          object: 'model',
          created: Math.floor(Date.now() / 1000),
          owned_by: args.engine,
          root: args.model,
          parent: null,
          max_model_len: maxModelLen,
        },
      ],
    });
  if ((url === '/metrics' || url === '/prometheus/metrics') && method === 'GET') {
    const text = metricsText(args.engine, served, runner.stats());
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    return void res.end(text);
  }
  const ctx = {
    runner,
    servedModel: served,
    maxModelLen,
    seed: args.seed,
    drift: simDrift(args.knobs, process.env.SERVELAB_SIM_DRIFT),
    faults: simFaults(args.knobs, process.env.SERVELAB_SIM_FAULTS),
    engine: args.engine as GpuEngineName,
  };
  if (url === '/v1/chat/completions' && method === 'POST') return void handleCompletion('chat', req, res, ctx).catch(() => res.destroy());
  if (url === '/v1/completions' && method === 'POST') return void handleCompletion('completion', req, res, ctx).catch(() => res.destroy());
  sendJson(res, 404, { detail: 'Not Found' });
}

export function simRoutes(s: SimLive, loop: LoopDelay): http.RequestListener {
  return (req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    if (url === '/sim/gpus' && method === 'GET') return sendJson(res, 200, gpusReport(s));
    if (url === '/sim/info' && method === 'GET') return sendJson(res, 200, simInfo(s, loop));
    if (url === '/sim/reset-stats' && method === 'POST') {
      loop.reset();
      return sendJson(res, 200, { ok: true });
    }
    if (url === '/health') {
      res.writeHead(s.ready ? 200 : 503, { 'content-length': 0 });
      return res.end();
    }
    if (!s.ready || !s.runner)
      return sendJson(res, 503, { object: 'error', message: 'The server is starting up.', type: 'ServiceUnavailableError', code: 503 });
    engineRoute(s, url, method, req, res);
  };
}
