// The capacity search against a brute-force sweep on a real llama-server, figures in perf/README.md:
// `npx tsx perf/capacity-llamacpp.bench.ts [--slots N]` (log: capacity-llamacpp.log beside it).
// Starts llama-server (servelab's build or PATH) on a random-weight GGUF (qwen3, hidden 256,
// 4 layers, GPT-2 vocabulary) with N slots (default 4) and one thread (on 2 shared cores two
// threads wait on each other whenever another process holds a core), measures mean TTFT T1 and
// mean E2E latency E1 at concurrency 1, and sets the SLO to mean TTFT < T1 + E1/4: below N
// concurrent no request waits for a slot, above it one waits a share of a generation (the
// reasoning of test/process/llamacpp/capacity.test.ts). Then runs perf/capacity.bench.ts against it
// (search, then the 8-load sweep of the same server), at resolution 1, workload random 32/32.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLlamaServer } from '../src/engines/llamacpp/detect.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { makeRandomGguf } from '../src/gguf/make.js';

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const BENCH = fileURLToPath(new URL('./capacity.bench.ts', import.meta.url));
const i = process.argv.indexOf('--slots');
const SLOTS = i > 0 ? process.argv[i + 1]! : '4';
const LENS = ['--random-input-len', '32', '--random-output-len', '32'];

const server = findLlamaServer()?.path;
if (!server) throw new Error('no llama-server: run `servelab engines build llamacpp` first');
const dir = mkdtempSync(join(tmpdir(), 'servelab-capacity-llamacpp-'));
const gguf = join(dir, 'qwen3-256x4.gguf');
makeRandomGguf({ out: gguf, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: 256, layers: 4 } });
const port = String(26000 + Math.floor(Math.random() * 10000));
const child = spawn(
  server,
  ['-m', gguf, '--host', '127.0.0.1', '--port', port, '-np', SLOTS, '-c', String(256 * Number(SLOTS)), '-t', '1'],
  { stdio: 'ignore' },
);
const stop = () => child.kill('SIGKILL');
process.once('exit', stop);
const url = `http://127.0.0.1:${port}`;
try {
  for (let t = 0; ; t++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (t > 120) throw new Error('llama-server did not become ready in 60 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  const one = spawnSync(
    process.execPath,
    [
      BIN,
      'bench',
      '--base-url',
      url,
      '--max-concurrency',
      '1',
      '--num-prompts',
      '16',
      ...LENS,
      '--percentile-metrics',
      'ttft,e2el',
      '--json',
    ],
    { encoding: 'utf8' },
  );
  const m = JSON.parse(one.stdout) as { mean_ttft_ms: number; mean_e2el_ms: number };
  const limit = Math.round(m.mean_ttft_ms + m.mean_e2el_ms / 4);
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
  process.stdout.write(
    `llama-server ${server.replace(process.env.HOME ?? '~', '~')} -np ${SLOTS} -t 1, random GGUF qwen3 256x4; at concurrency 1: mean TTFT ${m.mean_ttft_ms.toFixed(1)} ms, mean E2E ${m.mean_e2el_ms.toFixed(1)} ms -> SLO ttft:mean<${limit}\nload average before: ${load()}\n`,
  );
  const r = spawnSync(
    'npx',
    ['tsx', BENCH, '--base-url', url, '--slo', `ttft:mean<${limit}`, '--resolution', '1', '--input-len', '32', '--output-len', '32'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  process.stdout.write(`${r.stdout}load average after: ${load()}\n`);
  process.exitCode = r.status ?? 1;
} finally {
  stop();
  rmSync(dir, { recursive: true, force: true });
}
