// Shared bits of the Slurm tests: paths of the commands a job runs, ports, polling.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreePort } from '../../../src/host/ports.js';
import { testPort } from '../ports.js';
import { BIN as SERVELAB_BIN } from '../bin.js';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));

export { SERVELAB_BIN };

/** sim-serve argv (single node, through the real CLI). */
export function simServeArgv(port: number, extra: string[] = []): string[] {
  return [
    process.execPath,
    SERVELAB_BIN,
    'sim-serve',
    '--engine',
    'sglang',
    '--model',
    'Qwen/Qwen3-14B',
    '--gpus',
    '8',
    '--port',
    String(port),
    '--load-time',
    '0',
    ...extra,
  ];
}

/**
 * sim-serve as one node of a multi-node start (the rank flags come from sglangRanks): DeepSeek-R1
 * on 8 H100 per node, TP 16 over two nodes as SGLang counts it.
 */
export function simRankArgv(port: number, extra: string[] = []): string[] {
  return [
    process.execPath,
    SERVELAB_BIN,
    'sim-serve',
    '--engine',
    'sglang',
    '--model',
    'deepseek-ai/DeepSeek-R1-0528',
    '--gpu',
    'H100',
    '--gpus',
    '8',
    '--tp',
    '16',
    '--port',
    String(port),
    '--load-time',
    '0',
    ...extra,
  ];
}

const used: number[] = [];
export async function port(): Promise<number> {
  const p = await findFreePort({ from: testPort(), exclude: used });
  used.push(p);
  return p;
}

export function runDir(base: string, name: string): string {
  const d = path.join(base, 'jobs', name);
  mkdirSync(d, { recursive: true });
  return d;
}

export async function waitUntil(cond: () => boolean, timeoutMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
