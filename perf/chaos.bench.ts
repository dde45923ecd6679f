// Chaos on the simulated host: `npm run bench -- chaos [-- --runs N --seed S]`.
// One reference run, then N runs (default 20) of the same small session, each hit at a random
// moment by one of: SIGKILL, SIGTERM or SIGHUP to servelab; SIGKILL to the engine server (found
// through the ledger); the death of the benchmark worker thread (SERVELAB_CHAOS_WORKER_MS, a
// fault hook in src/bench/workers/isolated.ts). After a servelab kill: `servelab gpus` and `--resume`.
// Checked each time: no server left running (by /proc and by port), the ledger empty, every
// journal entry written before the hit still there byte for byte and every one parses, and a
// resumed run finishes with the reference run's winner; an engine or worker death is recorded
// as that (crash / the worker's error), never a stream error. Prints one line per run and a tally.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const argOf = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = argOf('runs', 20);
const SEED = argOf('seed', Date.now() % 100000);
let rng = SEED || 1;
const rand = () => (rng = (rng * 48271) % 2147483647) / 2147483647;

type Hit = 'servelab-SIGKILL' | 'servelab-SIGTERM' | 'servelab-SIGHUP' | 'engine-SIGKILL' | 'bench-worker';
const HITS: Hit[] = ['servelab-SIGKILL', 'servelab-SIGTERM', 'servelab-SIGHUP', 'engine-SIGKILL', 'bench-worker'];

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  events: Record<string, any>[];
  stdout: string;
  stderr: string;
  ms: number;
}

function servelab(args: string[], env: NodeJS.ProcessEnv, onStart?: (pid: number, events: Record<string, any>[]) => void): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const events: Record<string, any>[] = [];
    let out = '';
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      const lines = (out + c).split('\n');
      out = lines.pop() ?? '';
      for (const l of lines) if (l.startsWith('{')) events.push(JSON.parse(l));
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    onStart?.(child.pid!, events);
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, events, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** Live processes whose cmdline names sim-serve on one of `ports`. */
function simServers(ports: number[]): number[] {
  const want = new Set(ports.map(String));
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => {
      try {
        const argv = readFileSync(`/proc/${n}/cmdline`, 'utf8').split('\0');
        const i = argv.indexOf('--port');
        return argv.includes('sim-serve') && i > 0 && want.has(argv[i + 1]!) ? [Number(n)] : [];
      } catch {
        return [];
      }
    });
}

function ledgerEntries(state: string): Record<string, any>[] {
  const dir = join(state, 'servelab', 'servers');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

function journal(runDir: string): Map<string, string> {
  const dir = join(runDir, 'results');
  const out = new Map<string, string>();
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) out.set(f, readFileSync(join(dir, f), 'utf8'));
  return out;
}

const winnerOf = (r: Run) => r.events.find((e) => e.type === 'stage-finished')?.winnerId as string | undefined;
const portsOf = (r: Run) => r.events.filter((e) => e.type === 'variant-launching').map((e) => e.port as number);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const root = mkdtempSync(join(tmpdir(), 'servelab-chaos-'));
const basePort = 21000 + ((SEED * 7919 + process.pid) % 20000);
function session(i: number) {
  const dir = join(root, `run-${i}`);
  const env = {
    ...process.env,
    XDG_STATE_HOME: join(dir, 'state'),
    XDG_DATA_HOME: join(dir, 'data'),
    SERVELAB_CONFIG_DIR: join(dir, 'config'),
  };
  const args = [
    '--auto',
    '--sim',
    '--model',
    'Qwen/Qwen3-14B',
    '--stages',
    'engine',
    '--engines',
    'vllm,sglang',
    '--scale',
    '0.02',
    // --speed 1: the automatic clock on a busy host flags the client and lets close winners swap.
    '--validation',
    'sharegpt-like',
    '--seed',
    '7',
    '--speed',
    '1',
    '--run-dir',
    join(dir, 'run'),
    '--port',
    String(basePort + i * 20),
    '--json',
  ];
  return { dir, env, args, runDir: join(dir, 'run') };
}

const ref = await servelab(session(0).args, session(0).env);
const refWinner = winnerOf(ref);
process.stdout.write(`seed ${SEED}; reference run: exit ${ref.code}, winner ${refWinner}, ${(ref.ms / 1000).toFixed(1)} s\n`);
if (ref.code !== 0 || !refWinner) {
  process.stderr.write(ref.stderr.slice(-2000));
  process.exit(1);
}

const tally = { runs: 0, ok: 0, leftServers: 0, lostOrCorrupt: 0, winnerDiffers: 0, misclassified: 0, missed: 0 };
const byHit = new Map<Hit, number>();
for (let i = 1; i <= RUNS; i++) {
  const s = session(i);
  const hit = HITS[(i - 1) % HITS.length]!;
  const at = Math.round(300 + rand() * Math.max(500, ref.ms * 0.75 - 300));
  const problems: string[] = [];
  let before = new Map<string, string>();
  let hitDone = false;
  const env = hit === 'bench-worker' ? { ...s.env, SERVELAB_CHAOS_WORKER_MS: String(at) } : s.env;
  const first = await servelab(s.args, env, (pid) => {
    if (hit === 'bench-worker') return;
    setTimeout(async () => {
      if (hit === 'engine-SIGKILL') {
        // The next engine server to exist, at or after the random moment.
        for (let t = 0; t < 200 && !hitDone; t++) {
          const e = ledgerEntries(join(s.dir, 'state')).find((x) => x.server?.pid);
          if (e) {
            try {
              process.kill(e.server.pid, 'SIGKILL');
              hitDone = true;
            } catch {
              // gone meanwhile: try the next one
            }
          }
          if (!hitDone) await sleep(50);
        }
        return;
      }
      before = journal(s.runDir);
      try {
        process.kill(pid, hit.slice('servelab-'.length) as NodeJS.Signals);
        hitDone = true;
      } catch {
        // already finished
      }
    }, at);
  });
  if (hit === 'bench-worker') hitDone = /benchmark worker stopped/.test(JSON.stringify(first.events));
  let ports = portsOf(first);
  let final = first;
  const killedServelab = hit.startsWith('servelab-') && first.code !== 0;
  if (killedServelab) {
    const gpus = await servelab(['gpus', '--sim'], s.env);
    if (simServers(ports).length) problems.push(`servers alive after servelab died: ${simServers(ports).join(',')}`);
    if (!gpus.stdout.includes('no servers left running by servelab'))
      problems.push(`servelab gpus: ${gpus.stdout.trim().split('\n').slice(-2).join(' / ')}`);
    // Killed before its run folder held a journal: nothing to resume, the session starts again.
    const resumable = existsSync(join(s.runDir, 'session.json'));
    final = await servelab(resumable ? ['--auto', '--resume', s.runDir, '--json'] : s.args, s.env);
    ports = ports.concat(portsOf(final));
    const after = journal(s.runDir);
    for (const [f, text] of before) if (after.get(f) !== text) problems.push(`journal entry ${f} lost or rewritten`);
    if (final.code !== 0) problems.push(`resume exit ${final.code}: ${final.stderr.trim().split('\n').at(-1)}`);
    else if (winnerOf(final) !== refWinner) {
      problems.push(`winner ${winnerOf(final)} != ${refWinner}`);
      tally.winnerDiffers++;
    }
  }
  for (const [f, text] of journal(s.runDir)) {
    try {
      JSON.parse(text);
    } catch {
      problems.push(`journal entry ${f} does not parse`);
      tally.lostOrCorrupt++;
    }
  }
  if (problems.some((p) => p.includes('lost or rewritten'))) tally.lostOrCorrupt++;
  await sleep(300);
  const left = simServers(ports);
  if (left.length || ledgerEntries(join(s.dir, 'state')).length) {
    problems.push(`left running: ${left.join(',') || 'none'}; ledger entries: ${ledgerEntries(join(s.dir, 'state')).length}`);
    tally.leftServers++;
    for (const p of left) process.kill(p, 'SIGKILL');
  }
  if ((hit === 'engine-SIGKILL' || hit === 'bench-worker') && hitDone) {
    const failures = final.events.filter((e) => e.type === 'variant-finished' && e.result?.failure).map((e) => e.result.failure);
    const want = hit === 'engine-SIGKILL' ? /killed by SIGKILL/ : /benchmark worker stopped/;
    if (!failures.some((f: any) => want.test(f.reason))) {
      problems.push(`no failure names the ${hit}: ${JSON.stringify(failures.map((f: any) => f.reason))}`);
      tally.misclassified++;
    }
  }
  if (!hitDone) tally.missed++;
  tally.runs++;
  byHit.set(hit, (byHit.get(hit) ?? 0) + 1);
  if (!problems.length) tally.ok++;
  const how = killedServelab
    ? `exit ${first.code ?? first.signal}, resumed exit ${final.code}, winner ${winnerOf(final)}`
    : `exit ${first.code}, winner ${winnerOf(first) ?? '-'}`;
  process.stdout.write(
    `${String(i).padStart(2)} ${hit.padEnd(17)} at ${String(at).padStart(5)} ms ${hitDone ? 'hit ' : 'miss'} ${how}${problems.length ? `  PROBLEMS: ${problems.join('; ')}` : ''}\n`,
  );
}

rmSync(root, { recursive: true, force: true });
process.stdout.write(
  `\nchaos tally (simulated host, --scale 0.02, seed ${SEED}): ${tally.runs} runs, ${tally.ok} clean; ` +
    `servers left running: ${tally.leftServers}; journal entries lost or corrupt: ${tally.lostOrCorrupt}; ` +
    `resumed winner differs: ${tally.winnerDiffers}; death not classified: ${tally.misclassified}; ` +
    `hits that came after the run ended: ${tally.missed}\n` +
    `by hit: ${[...byHit].map(([h, n]) => `${h} ${n}`).join(', ')}\n`,
);
process.exit(tally.ok === tally.runs - tally.missed ? 0 : 1);
