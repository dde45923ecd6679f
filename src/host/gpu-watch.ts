// Live GPU samples for the GPU panel.
//   Real host: one long-running `nvidia-smi --query-gpu=... -lms N` child, read line by line
//   (a block of one line per GPU per interval), stopped by the returned function or the signal.
//   Simulated host: GET <sim server>/sim/gpus every interval while a sim server runs; idle
//   figures from the host description otherwise.
//
//   watchGpus({ host, intervalMs?, onSample, simBaseUrl?, signal? }) -> stop()
import { execa } from 'execa';
import type { GpuSample } from '../core/metrics.js';
import { log } from '../core/logger.js';
import type { HostInfo } from './gpus.js';
import { findOnPath } from '../core/which.js';

export interface WatchOptions {
  host: HostInfo;
  intervalMs?: number;
  onSample: (gpus: GpuSample[]) => void;
  /** Simulated host: base URL of the running sim server (changes per variant); undefined = none running. */
  simBaseUrl?: () => string | undefined;
  signal?: AbortSignal;
}

const WATCH_FIELDS = 'index,name,utilization.gpu,memory.used,memory.total';

const numOr0 = (s: string | undefined) => {
  const n = Number((s ?? '').trim());
  return Number.isFinite(n) ? n : 0;
};

/** One `index, name, util, used, total` line; undefined when unreadable. */
export function parseWatchLine(line: string): GpuSample | undefined {
  const f = line.split(',').map((s) => s.trim());
  if (f.length !== 5 || !/^\d+$/.test(f[0]!)) return undefined;
  return { index: Number(f[0]), name: f[1]!, utilPct: numOr0(f[2]), memUsedMiB: numOr0(f[3]), memTotalMiB: numOr0(f[4]) };
}

function idle(host: HostInfo): GpuSample[] {
  return host.gpus.map((g) => ({
    index: g.index,
    name: g.name,
    utilPct: g.utilPct ?? 0,
    memUsedMiB: g.memUsedMiB ?? 0,
    memTotalMiB: g.memTotalMiB,
  }));
}

/** Accepts GpuSample[] or { gpus: GpuSample[] }. */
export function parseSimGpus(body: unknown): GpuSample[] | undefined {
  const list = Array.isArray(body) ? body : (body as { gpus?: unknown } | null)?.gpus;
  if (!Array.isArray(list)) return undefined;
  const out: GpuSample[] = [];
  for (const g of list) {
    if (!g || typeof g !== 'object') return undefined;
    const o = g as Record<string, unknown>;
    if (typeof o.index !== 'number') return undefined;
    out.push({
      index: o.index,
      name: String(o.name ?? ''),
      utilPct: Number(o.utilPct ?? 0),
      memUsedMiB: Number(o.memUsedMiB ?? 0),
      memTotalMiB: Number(o.memTotalMiB ?? 0),
    });
  }
  return out;
}

export function watchGpus(opts: WatchOptions): () => void {
  const intervalMs = Math.max(100, opts.intervalMs ?? 1000);
  let stopped = false;
  const stops: (() => void)[] = [];
  const stop = () => {
    if (stopped) return;
    stopped = true;
    for (const s of stops) s();
  };
  opts.signal?.addEventListener('abort', stop, { once: true });

  const exe = opts.host.simulated ? undefined : findOnPath('nvidia-smi');
  if (exe) {
    // `cleanup` (execa's default) kills this child if servelab exits first.
    const child = execa(exe, [`--query-gpu=${WATCH_FIELDS}`, '--format=csv,noheader,nounits', `-lms`, String(intervalMs)], {
      reject: false,
      buffer: false,
      stdin: 'ignore',
      stderr: 'ignore',
    });
    child.catch(() => {});
    stops.push(() => child.kill('SIGTERM'));
    let block: GpuSample[] = [];
    let partial = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const s = parseWatchLine(line);
        if (!s) continue;
        // A new block starts when the index does not increase.
        if (block.length && s.index <= block.at(-1)!.index) {
          if (!stopped) opts.onSample(block);
          block = [];
        }
        block.push(s);
        if (block.length === opts.host.gpus.length) {
          if (!stopped) opts.onSample(block);
          block = [];
        }
      }
    });
    void child.then((r) => {
      if (!stopped && r.exitCode !== 0) log.warn(`nvidia-smi GPU polling stopped (exit ${r.exitCode ?? r.signal})`);
    });
    return stop;
  }

  let busy = false;
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    try {
      const base = opts.simBaseUrl?.();
      let sample: GpuSample[] | undefined;
      if (base) {
        const res = await fetch(`${base}/sim/gpus`, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
        if (res?.ok) sample = parseSimGpus(await res.json().catch(() => undefined));
        else await res?.arrayBuffer().catch(() => undefined);
      }
      if (!stopped) opts.onSample(sample ?? idle(opts.host));
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  stops.push(() => clearInterval(timer));
  void tick();
  return stop;
}
