// Host calibration on the real engine: llama.cpp's own estimate (src/model/llamacpp-estimate.ts) against
// llama-server measured here. Makes a random-weight GGUF (random-gguf --hidden 512 --layers 8),
// launches llama-server (the build of `servelab engines build llamacpp`, commit 80fb11a) for each
// variant, measures it with `servelab bench` (random IN/OUT, concurrency = slots), stops the server
// on every path, and writes the measured results to llamacpp-calibration.json. Then prints the
// median |throughput error| of the uncalibrated estimate on all variants, and of the calibration
// fitted on the first 4 on the remaining ones. Prints figures, asserts nothing. The host's load is
// read once before anything is launched (the estimate's session-start fact: cores other processes
// keep busy) and, for the log, during each variant (all processes but llama-server, the client
// included).
// Each variant runs --repeats times (default 2, in rounds); the report compares the held-out error
// with max(8%, the pooled run-to-run noise of those means).
// Run: npx tsx model-lab/llamacpp-calibration.ts [--reuse] [--prompts N] [--repeats R]. Log: llamacpp-calibration.txt.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knobs } from '../src/core/variant.js';
import { cpuLoadNow, statTimes } from '../src/host/cpu.js';
import type { CpuLoad } from '../src/model/cpu.js';
import { makeModel, report } from './llamacpp-calibration-report.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
const RAW = join(HERE, 'llamacpp-calibration.json');
const SERVER = join(process.env.XDG_CACHE_HOME ?? join(os.homedir(), '.cache'), 'servelab/llama.cpp/80fb11a/build/bin/llama-server');
const arg = (f: string) => {
  const i = process.argv.indexOf(f);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const PROMPTS = Number(arg('--prompts') ?? 8);
// Rounds over every variant (interleaved, so drift hits all alike); 2 or more measure the host's noise.
const REPEATS = Number(arg('--repeats') ?? 2);
const IN = 128;
const OUT = 32;
const PORT = 18924;

/**
 * Variants in the order they are measured; the fit sees the first 4. The first 7 are the earlier
 * run's, in its order; the last 3 were added (2026-12-01, before this model's run) so that the
 * held-out set is 6: two more thread counts on the slot counts already there, and np1-t1 as plain f16.
 */
export const VARIANTS: { id: string; knobs: Knobs }[] = [
  { id: 'np1-t2', knobs: { maxRunningSeqs: 1, threads: 2 } },
  { id: 'np2-t2', knobs: { maxRunningSeqs: 2, threads: 2 } },
  { id: 'np2-t1', knobs: { maxRunningSeqs: 2, threads: 1 } },
  { id: 'np4-t2-q8', knobs: { maxRunningSeqs: 4, threads: 2, kvCacheDtype: 'q8_0', flashAttn: 'on' } },
  { id: 'np2-t2-ub128', knobs: { maxRunningSeqs: 2, threads: 2, maxBatchedTokens: 256, ubatch: 128 } },
  { id: 'np1-t1-q8', knobs: { maxRunningSeqs: 1, threads: 1, kvCacheDtype: 'q8_0', flashAttn: 'on' } },
  { id: 'np4-t1', knobs: { maxRunningSeqs: 4, threads: 1 } },
  { id: 'np4-t2', knobs: { maxRunningSeqs: 4, threads: 2 } },
  { id: 'np3-t1', knobs: { maxRunningSeqs: 3, threads: 1 } },
  { id: 'np1-t1', knobs: { maxRunningSeqs: 1, threads: 1 } },
];

const ctxOf = (k: Knobs) => (k.maxRunningSeqs ?? 1) * (IN + OUT + 64);

function serverArgs(model: string, k: Knobs): string[] {
  const a = [
    '-m',
    model,
    '-a',
    'm',
    '--host',
    '127.0.0.1',
    '--port',
    String(PORT),
    '--no-repack',
    '-np',
    String(k.maxRunningSeqs ?? 1),
    '-c',
    String(ctxOf(k)),
    '-t',
    String(k.threads ?? 2),
  ];
  if (k.maxBatchedTokens) a.push('-b', String(k.maxBatchedTokens));
  if (k.ubatch) a.push('-ub', String(k.ubatch));
  if (k.kvCacheDtype) a.push('-ctk', k.kvCacheDtype, '-ctv', k.kvCacheDtype);
  if (k.flashAttn) a.push('-fa', k.flashAttn);
  return a;
}

async function waitReady(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('llama-server did not become ready in 120 s');
}

/** llama-server's own CPU time (utime + stime of /proc/PID/stat), jiffies. */
const procJiffies = (pid: number | undefined) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};

async function measureOne(
  model: string,
  v: (typeof VARIANTS)[number],
  dir: string,
): Promise<Record<string, number> & { launchLoad: CpuLoad }> {
  const launchLoad = cpuLoadNow(1000); // the host's load just before this variant's launch
  const srv = spawn(SERVER, serverArgs(model, v.knobs), { stdio: 'ignore' });
  try {
    await waitReady();
    const [s0, p0] = [statTimes(readFileSync('/proc/stat', 'utf8')), procJiffies(srv.pid)];
    const out = join(dir, `${v.id}.json`);
    const c = String(v.knobs.maxRunningSeqs ?? 1);
    execFileSync(
      'node',
      [
        join(ROOT, 'bin/servelab.js'),
        'bench',
        '--port',
        String(PORT),
        '--model',
        'm',
        '--tokenizer',
        model,
        '--dataset-name',
        'random',
        '--random-input-len',
        String(IN),
        '--random-output-len',
        String(OUT),
        '--num-prompts',
        String(PROMPTS),
        '--max-concurrency',
        c,
        '--save-result',
        '--result-filename',
        out,
      ],
      { stdio: 'ignore' },
    );
    const [s1, p1] = [statTimes(readFileSync('/proc/stat', 'utf8')), procJiffies(srv.pid)];
    const cores = os.cpus().length;
    const othersBusy = s1.total > s0.total ? ((s1.busy - s0.busy - (p1 - p0)) / (s1.total - s0.total)) * cores : 0;
    return { ...JSON.parse(readFileSync(out, 'utf8')), othersBusy, launchLoad };
  } finally {
    srv.kill('SIGTERM');
  }
}

async function measure(): Promise<void> {
  // The session-start fact, before anything of this script runs on the CPUs.
  const start = cpuLoadNow(2000);
  const dir = mkdtempSync(join(os.tmpdir(), 'llamacpp-cal-'));
  const model = makeModel(dir);
  try {
    const results: Record<string, unknown>[] = [];
    for (let round = 0; round < REPEATS; round++)
      for (const v of VARIANTS) {
        const m = await measureOne(model, v, dir);
        const keep = [
          'othersBusy',
          'launchLoad',
          'duration',
          'completed',
          'total_input_tokens',
          'total_output_tokens',
          'total_token_throughput',
          'mean_ttft_ms',
          'mean_tpot_ms',
        ];
        results.push({
          id: v.id,
          round,
          knobs: v.knobs,
          ctxSize: ctxOf(v.knobs),
          load: os.loadavg()[0],
          ...Object.fromEntries(keep.map((k) => [k, m[k]])),
        });
        process.stderr.write(
          `measured ${v.id}: ${(m.total_token_throughput ?? 0).toFixed(1)} tok/s, others busy ${(m.othersBusy ?? 0).toFixed(2)} cores\n`,
        );
        writeFileSync(
          RAW,
          JSON.stringify(
            { date: new Date().toISOString(), prompts: PROMPTS, inputLen: IN, outputLen: OUT, startLoad: start, results },
            null,
            1,
          ) + '\n',
        );
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const main = (process.argv[1] ?? '').endsWith('llamacpp-calibration.ts');
if (main && (!process.argv.includes('--reuse') || !existsSync(RAW))) await measure();
if (main && !process.argv.includes('--measure-only')) await report(RAW);
