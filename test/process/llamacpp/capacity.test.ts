// Acceptance, for real: `servelab capacity --base-url` against a real llama-server (random-weight
// GGUF, 2 slots) finds the highest concurrency at which a TTFT bound holds, and both ends hold
// when measured again with `servelab bench`: the answer meets the SLO, the probe above it fails.
//
// The bound is chosen from a measurement of the same server at concurrency 1 (mean TTFT T1 and
// mean end-to-end latency E1), not written down: SLO = mean TTFT < T1 + E1/4. Why it lands inside
// the range, and stays there under machine load: with 2 slots (-np 2) no request waits for a slot
// at concurrency <= 2, so TTFT stays near the prefill T1 (measured here under load: 9 ms at 1 and
// at 2), while at 3 a closed loop makes each request wait half a generation on average (mean
// TTFT >= T1 + E/2: 43 ms measured, against 50 ms E1, on 32 tokens out). Both sides are multiples of the same
// machine's prefill and decode times, so a slower (busier) machine moves the bound with them.
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { removeDir, runCli, tempDir } from '../../helpers/e2e/cli.js';
import { LLAMA_SKIP } from '../../helpers/llamacpp/helpers.js';
import { startLlamaServer } from '../../helpers/llamacpp-fixture.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { skipNote } from '../../helpers/skip.js';

const cwd = tempDir('llama-capacity');
let server: ServerHandle | undefined;
afterAll(async () => {
  await server?.stop();
  removeDir(cwd);
});

/** The workload of every call: 32-token prompts, 32 tokens out (the random dataset sends ignore_eos). */
const WORKLOAD = ['--random-input-len', '32', '--random-output-len', '32', '--seed', '7'];

async function bench(url: string, concurrency: number, prompts: number): Promise<Record<string, number>> {
  const r = await runCli(
    [
      'bench',
      '--base-url',
      url,
      '--max-concurrency',
      String(concurrency),
      '--num-prompts',
      String(prompts),
      ...WORKLOAD,
      '--percentile-metrics',
      'ttft,tpot,e2el',
      '--json',
    ],
    cwd,
    undefined,
    60_000,
  );
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Record<string, number>;
}

const title = `servelab capacity --base-url on a real llama-server${skipNote(LLAMA_SKIP)}`;
describe.skipIf(LLAMA_SKIP !== undefined)(title, { timeout: 120_000 }, () => {
  it('finds the highest concurrency under a TTFT bound, and both ends hold when benchmarked again', async () => {
    // One thread: on 2 shared cores, llama.cpp's -t 2 threads wait on each other whenever another
    // process holds a core (measured: a 90 s capacity call timed out at load 6 with -t 2; 24 s at load 9.5 with -t 1).
    const up = await startLlamaServer({ maxRunningSeqs: 2, ctxSize: 1024, threads: 1 }, join(cwd, 'server'));
    server = up.h;
    expect(up.ready.ready).toBe(true);
    const one = await bench(up.url, 1, 8);
    const limit = Math.round(one.mean_ttft_ms! + one.mean_e2el_ms! / 4);
    const slo = `ttft:mean<${limit}`;

    const r = await runCli(
      ['capacity', '--base-url', up.url, '--slo', slo, ...WORKLOAD, '--resolution', '1', '--max', '8', '--json'],
      cwd,
      undefined,
      90_000,
    );
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const c = JSON.parse(r.stdout) as {
      by: string;
      answer: number;
      failing: number;
      breaks: string;
      goodput: number;
      requests: number;
      probes: { load: number; holds: boolean }[];
    };
    expect(c).toMatchObject({ by: 'concurrency', breaks: 'ttft:mean' });
    // Bisected to one concurrent request; the answer inside the range searched.
    expect(c.failing).toBe(c.answer + 1);
    expect(c.answer).toBeGreaterThanOrEqual(1);
    expect(c.answer).toBeLessThan(8);
    // From the slots (see the caption) the answer is 2 on a quiet machine; it is not asserted:
    // another process taking a core mid-probe slows one probe alone (measured once: concurrency 2
    // at 20 ms TPOT against 1.3 ms at 1, under a load average of 13), and what is under test is
    // that the search and a fresh benchmark agree on both ends, whatever the answer.
    expect(c.goodput).toBeGreaterThan(0);

    // Both ends again, with servelab bench, sized as a probe (8 per concurrent request, 32 at the
    // least), 3 runs each: one probe of the search, or one fresh run, can be slowed alone by
    // another process on these 2 shared cores (seen under the full suite: the search's probe at 3
    // failed at 45 ms, fresh runs there gave a median of 43 ms). So each end is judged against the
    // noise measured here, the spread of its 3 runs: the answer's median is below the bound beyond
    // that noise's reach, and the failing load's median is not below it by more than the noise.
    const runs3 = async (n: number) => {
      const t: number[] = [];
      for (let i = 0; i < 3; i++) t.push((await bench(up.url, n, Math.max(32, 8 * n))).mean_ttft_ms!);
      t.sort((a, b) => a - b);
      return { median: t[1]!, spread: t[2]! - t[0]!, text: t.map((x) => x.toFixed(1)).join(', ') };
    };
    const atAnswer = await runs3(c.answer);
    expect(atAnswer.median - atAnswer.spread, `${slo} at ${c.answer}: ${atAnswer.text} ms`).toBeLessThan(limit);
    const atFailing = await runs3(c.failing);
    expect(atFailing.median + atFailing.spread, `${slo} at ${c.failing}: ${atFailing.text} ms`).toBeGreaterThanOrEqual(limit);
  });
});
