// `servelab bench` and `servelab import` as a user runs them: a real child process against a
// real local server.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../fixtures/bench/scripted-server.js';
import { BIN } from '../../helpers/bin.js';

const SEED = fileURLToPath(new URL('../../fixtures/bench/seed-study-a-block.txt', import.meta.url));
const servelab = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [BIN, ...args], { reject: false, timeout: 60_000, stripFinalNewline: false, env: { NO_COLOR: '1', ...env } });

let srv: ScriptedServer;
let dir: string;
beforeAll(async () => {
  srv = await startScriptedServer({ ttftMs: 5, gapMs: 2 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-cli-'));
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('servelab bench', () => {
  it('--help lists the vLLM flag names', async () => {
    const r = await servelab(['bench', '--help']);
    expect(r.exitCode).toBe(0);
    for (const f of [
      '--base-url',
      '--host',
      '--port',
      '--endpoint',
      '--backend',
      '--model',
      '--served-model-name',
      '--tokenizer',
      '--dataset-name',
      '--dataset-path',
      '--num-prompts',
      '--request-rate',
      '--burstiness',
      '--max-concurrency',
      '--num-warmups',
      '--goodput',
      '--percentile-metrics',
      '--metric-percentiles',
      '--save-result',
      '--save-detailed',
      '--result-dir',
      '--result-filename',
    ]) {
      expect(r.stdout).toContain(f);
    }
  });

  it('runs end to end: prints the block, saves vLLM-named JSON with detailed arrays', async () => {
    const r = await servelab(
      [
        'bench',
        '--base-url',
        srv.url,
        '--dataset-name',
        'random',
        '--random-input-len',
        '16',
        '--random-output-len',
        '6',
        '--num-prompts',
        '12',
        '--max-concurrency',
        '3',
        '--percentile-metrics',
        'ttft,tpot,itl,e2el',
        '--metric-percentiles',
        '50,99',
        '--goodput',
        'ttft:5000',
        'e2el:10000',
        '--save-result',
        '--save-detailed',
        '--result-dir',
        dir,
        '--metadata',
        'run=ci',
        '--header',
        'X-Test=1',
      ],
      { OPENAI_API_KEY: 'sk-cli' },
    );
    expect(r.stderr).toContain('approximate');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'Traffic request rate: inf',
      'Burstiness factor: 1.0 (Poisson process)',
      'Maximum request concurrency: 3',
    ]);
    expect(lines[3]).toBe('============ Serving Benchmark Result ============');
    expect(lines[4]).toBe('Successful requests:                     12        ');
    expect(lines[5]).toBe('Maximum request concurrency:             3         ');
    expect(r.stdout).toMatch(/^Total input tokens: {22}192 {7}$/m);
    expect(r.stdout).toMatch(/^Total generated tokens: {18}72 {8}$/m);
    expect(r.stdout).toMatch(/^Request goodput \(req\/s\): +\d+\.\d\d +$/m);
    expect(r.stdout).toContain('----------------End-to-end Latency----------------');
    expect(r.stdout).toMatch(/^P50 E2EL \(ms\): +\d+\.\d\d +$/m);
    expect(lines.filter(Boolean).at(-1)).toBe('='.repeat(50));
    // The model came from GET /v1/models; the request carried the key and header.
    expect(srv.served.at(-1)!.body.model).toBe('scripted-model');
    expect(srv.served.at(-1)!.headers.authorization).toBe('Bearer sk-cli');
    expect(srv.served.at(-1)!.headers['x-test']).toBe('1');
    expect(srv.served.at(-1)!.body.ignore_eos).toBe(true); // random dataset, as vLLM main
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^openai-chat-infqps-concurrency3-scripted-model-\d{8}-\d{6}\.json$/);
    const j = JSON.parse(readFileSync(path.join(dir, files[0]!), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(j).slice(0, 9)).toEqual([
      'date',
      'endpoint_type',
      'backend',
      'label',
      'model_id',
      'tokenizer_id',
      'num_prompts',
      'run',
      'request_rate',
    ]);
    expect(j).toMatchObject({ completed: 12, total_output_tokens: 72, max_concurrency: 3, request_rate: 'inf', run: 'ci' });
    expect(j.output_lens).toEqual(new Array(12).fill(6));
    expect((j.itls as number[][]).every((x) => x.length === 5)).toBe(true);
    // import reads it back and prints the same block
    const back = await servelab(['import', path.join(dir, files[0]!)]);
    expect(back.exitCode).toBe(0);
    const block = lines.slice(3).join('\n');
    expect(back.stdout).toBe(block.slice(0, block.lastIndexOf('='.repeat(50)) + 50) + '\n');
  });

  it('ShareGPT with a tokenizer.json: exact prompt counts, completions backend', async () => {
    const data = fileURLToPath(new URL('../../fixtures/bench/sharegpt-small.json', import.meta.url));
    const tok = fileURLToPath(new URL('../../fixtures/bench/tiny-tokenizer', import.meta.url));
    const before = srv.served.length;
    const r = await servelab([
      'bench',
      '--host',
      '127.0.0.1',
      '--port',
      String(srv.port),
      '--model',
      'acme/tiny',
      '--backend',
      'openai',
      '--tokenizer',
      tok,
      '--dataset-name',
      'sharegpt',
      '--dataset-path',
      data,
      '--num-prompts',
      '3',
      '--sharegpt-output-len',
      '4',
      '--json',
    ]);
    expect(r.stderr).not.toContain('approximate');
    expect(r.exitCode).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ completed: 3, total_output_tokens: 12, token_counts: 'exact', backend: 'openai', model_id: 'acme/tiny' });
    const sent = srv.served.slice(before);
    expect(sent).toHaveLength(3);
    expect(sent.every((s) => typeof s.body.prompt === 'string' && s.body.max_tokens === 4 && s.body.ignore_eos === undefined)).toBe(true);
    // The scripted server reports prompt_tokens as words; servelab uses the server's count (vLLM main).
    expect(j.total_input_tokens).toBe(sent.reduce((a, s) => a + String(s.body.prompt).split(/\s+/).filter(Boolean).length, 0));
  });

  it('Ctrl-C stops the run and still prints what finished (exit 130)', async () => {
    const slow = await startScriptedServer({ ttftMs: 20, gapMs: 20, tokens: 10 });
    try {
      const before = () => slow.served.length;
      const child = servelab([
        'bench',
        '--base-url',
        slow.url,
        '--model',
        'm',
        '--num-prompts',
        '60',
        '--max-concurrency',
        '2',
        '--random-input-len',
        '4',
        '--random-output-len',
        '10',
      ]);
      // Wait until a few requests have been served, then interrupt.
      const t0 = Date.now();
      while (before() < 6 && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 20));
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).toBe(130);
      expect(r.stderr).toContain('interrupted; reporting what finished');
      const done = Number(/^Successful requests: +(\d+)/m.exec(r.stdout)?.[1]);
      expect(done).toBeGreaterThanOrEqual(3);
      expect(done).toBeLessThan(60);
      expect(r.stdout).toContain('='.repeat(50));
    } finally {
      await slow.close();
    }
  });

  it('unreachable server: one line, exit 1, no hang', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await servelab(['bench', '--port', String(port), '--model', 'm', '--num-prompts', '2']);
    expect(r.exitCode).toBe(1);
    expect(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('warn:')),
    ).toEqual([
      `servelab: cannot reach the server at http://127.0.0.1:${port}: ECONNREFUSED. Is it running? Check --base-url or --host/--port.`,
    ]);
  });

  it('--client-threads 2 prints the same block rows for the same requests; a bad value is one line, exit 2', async () => {
    const args = [
      'bench',
      '--base-url',
      srv.url,
      '--dataset-name',
      'random',
      '--random-input-len',
      '16',
      '--random-output-len',
      '6',
      '--num-prompts',
      '12',
      '--max-concurrency',
      '3',
      '--request-rate',
      '100',
    ];
    const one = await servelab(args);
    const two = await servelab([...args, '--client-threads', '2']);
    expect(two.exitCode).toBe(0);
    // (On a loaded host a run can be client-bound or lose a request, which adds a row of its own:
    // not what this compares.)
    const labels = (out: string) =>
      out
        .split('\n')
        .map((l) => l.slice(0, 40))
        .filter((l) => !/^(Failed requests|Client-bound)/.test(l));
    expect(labels(two.stdout)).toEqual(labels(one.stdout));
    expect(two.stdout).toMatch(/^Successful requests: {21}12 {8}$/m);
    expect(two.stdout).toMatch(/^Total generated tokens: {18}72 {8}$/m);
    const bad = await servelab([...args, '--client-threads', '0']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr.trim()).toBe("servelab: --client-threads must be a positive integer or auto, got '0'");
  });

  it('bad input: one line and exit 2', async () => {
    const missing = await servelab([
      'bench',
      '--base-url',
      srv.url,
      '--model',
      'm',
      '--dataset-name',
      'sharegpt',
      '--dataset-path',
      path.join(dir, 'none.json'),
    ]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split('\n').at(-1)).toMatch(/^servelab: dataset file not found: .*none\.json \(check --dataset-path\)$/);
    const flag = await servelab(['bench', '--frobnicate']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr.trim()).toBe("servelab: bench: unknown option --frobnicate. Run 'servelab bench --help' for the list.");
    const goodput = await servelab(['bench', '--goodput', 'latency:5']);
    expect(goodput.exitCode).toBe(2);
    expect(goodput.stderr).toMatch(/invalid --goodput 'latency:5'/);
    // Refused before the header (and before any workload warning): stdout empty, one stderr line.
    const rate = await servelab(['bench', '--base-url', srv.url, '--num-prompts', '4', '--request-rate', '-1']);
    expect(rate.exitCode).toBe(2);
    expect(rate.stdout).toBe('');
    expect(rate.stderr.trim()).toBe('servelab: --request-rate must be > 0 or inf, got -1');
    for (const url of ['notaurl', 'ftp://127.0.0.1:8000']) {
      const bad = await servelab(['bench', '--base-url', url, '--model', 'm']);
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr.trim()).toBe(
        `servelab: bench: --base-url must be an http:// or https:// URL, e.g. http://127.0.0.1:8000, got '${url}'`,
      );
    }
  });
});

describe('servelab import', () => {
  it('round-trips the seed-studies block and prints JSON with vLLM key names', async () => {
    const text = await servelab(['import', SEED]);
    expect(text.exitCode).toBe(0);
    expect(text.stdout.replace(/ +$/gm, '')).toBe(readFileSync(SEED, 'utf8'));
    const json = await servelab(['import', '--json', SEED, SEED]);
    expect(json.exitCode).toBe(0);
    const arr = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(arr).toHaveLength(2);
    expect(arr[0]).toMatchObject({
      completed: 1000,
      duration: 63.53,
      mean_tpot_ms: 226.03,
      p99_itl_ms: 627.72,
      request_rate: 'inf',
      max_concurrency: null,
    });
  });
  it('malformed input names the file and line', async () => {
    const bad = path.join(dir, 'bad.txt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, readFileSync(SEED, 'utf8').replace('63.53', 'sixty'));
    const r = await servelab(['import', bad]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe(`servelab: ${bad}:3: 'Benchmark duration (s)' has a value that is not a number: sixty`);
    const none = await servelab(['import']);
    expect(none.exitCode).toBe(2);
    // JSON that is not a result (no completed count or duration) is refused, not printed as a block of undefined.
    const notResult = path.join(dir, 'not-result.json');
    writeFileSync(notResult, '{"model_id": "m"}\n');
    const nr = await servelab(['import', notResult]);
    expect(nr.exitCode).toBe(2);
    expect(nr.stderr.trim()).toBe(
      `servelab: ${notResult}: result 1: not a vLLM result JSON: no numeric 'completed' and 'duration' (a --save-result file has both)`,
    );
    // The position counts results, not lines: the second JSON line after a blank one is result 2 (line 3).
    writeFileSync(notResult, '{"completed": 1, "duration": 2}\n\n{"model_id": "m"}\n');
    const second = await servelab(['import', notResult]);
    expect(second.exitCode).toBe(2);
    expect(second.stderr.trim()).toMatch(/not-result\.json: result 2: not a vLLM result JSON/);
  });
});
