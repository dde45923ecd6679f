// Live GPU polling: nvidia-smi's loop mode on a real host, /sim/gpus on the simulated host.
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { GpuSample } from '../../src/core/metrics.js';
import { queryGpus, simulatedHost } from '../../src/host/gpus.js';
import { parseSimGpus, parseWatchLine, watchGpus } from '../../src/host/gpu-watch.js';
import { waitFor } from './helpers.js';

const FIX = fileURLToPath(new URL('../fixtures/nvidia-smi/2xH100-loop', import.meta.url));
const ORIGINAL_PATH = process.env.PATH;
const stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s();
  process.env.PATH = ORIGINAL_PATH;
});

describe('watchGpus', () => {
  it('reads nvidia-smi blocks as they come', async () => {
    process.env.PATH = `${FIX}${path.delimiter}${ORIGINAL_PATH}`;
    const host = { simulated: false, gpus: (await queryGpus())! };
    const samples: GpuSample[][] = [];
    stops.push(watchGpus({ host, intervalMs: 100, onSample: (s) => samples.push(s) }));
    expect(await waitFor(() => samples.length >= 3, 15_000)).toBe(true);
    for (const s of samples) expect(s.map((g) => g.index)).toEqual([0, 1]);
    expect(samples[0]![0]).toEqual({ index: 0, name: 'NVIDIA H100 80GB HBM3', utilPct: 0, memUsedMiB: 1000, memTotalMiB: 81559 });
    expect(samples[2]![1]!.utilPct).toBe(3);
  });

  it('stops the nvidia-smi child when stopped', async () => {
    process.env.PATH = `${FIX}${path.delimiter}${ORIGINAL_PATH}`;
    const host = { simulated: false, gpus: (await queryGpus())! };
    let n = 0;
    const stop = watchGpus({ host, intervalMs: 100, onSample: () => n++ });
    await waitFor(() => n >= 1, 15_000);
    stop();
    const after = n;
    await new Promise((r) => setTimeout(r, 400));
    expect(n).toBe(after);
  });

  it('simulated host: samples from the running sim server, idle figures without one', async () => {
    const body = { gpus: [{ index: 0, name: 'NVIDIA H200', utilPct: 88, memUsedMiB: 120000, memTotalMiB: 143771 }] };
    const srv = http.createServer((req, res) => {
      if (req.url === '/sim/gpus') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      let base: string | undefined;
      const samples: GpuSample[][] = [];
      stops.push(watchGpus({ host: simulatedHost('H200', 1), intervalMs: 100, simBaseUrl: () => base, onSample: (s) => samples.push(s) }));
      await waitFor(() => samples.length >= 1);
      expect(samples[0]).toEqual([{ index: 0, name: 'NVIDIA H200', utilPct: 0, memUsedMiB: 0, memTotalMiB: 143771 }]);
      base = `http://127.0.0.1:${port}`;
      expect(await waitFor(() => samples.at(-1)![0]!.utilPct === 88)).toBe(true);
      expect(samples.at(-1)).toEqual(body.gpus);
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });

  it('parsers reject what they cannot read', () => {
    expect(parseWatchLine('garbage')).toBeUndefined();
    expect(parseWatchLine('0, NVIDIA H100, [N/A], 10, 100')).toEqual({
      index: 0,
      name: 'NVIDIA H100',
      utilPct: 0,
      memUsedMiB: 10,
      memTotalMiB: 100,
    });
    expect(parseSimGpus({ nope: 1 })).toBeUndefined();
    expect(parseSimGpus([{ name: 'x' }])).toBeUndefined();
  });
});
