// Acceptance, for real: the workbench (`servelab` with no --auto) in a pseudo-terminal on this
// CPU-only host walks a llama.cpp session on a random-weight GGUF as a user does, by keys: the
// Host screen names the CPU and the llama-server found (not a simulated GPU), the Model screen
// reads the GGUF, the Plan screen lists llama.cpp's stages, the Run screen's live panel is fed by
// the real server's /metrics, Results and Save follow, and q leaves no llama-server behind.
// Outputs are meaningless (random weights); no speed is asserted, only that figures were shown.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { removeDir, tempDir } from '../../helpers/e2e/cli.js';
import { KEY, PTY_SKIP, servelabInPty, type PtyRun } from '../../helpers/e2e/pty.js';
import { freshPort, leftServers, LLAMA_SERVER, LLAMA_SKIP, SMALL, testGguf } from '../../helpers/llamacpp/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const cwd = tempDir('llama-tui');
let pty: PtyRun | undefined;
let events: TuneEvent[] = [];

function runEvents(): TuneEvent[] {
  const runs = join(cwd, 'runs');
  if (!existsSync(runs)) return [];
  return readdirSync(runs).flatMap((d) => {
    const f = join(runs, d, 'events.jsonl');
    return existsSync(f)
      ? readFileSync(f, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as TuneEvent)
      : [];
  });
}

afterAll(() => {
  pty?.child.kill('SIGKILL');
  for (const pid of leftServers(runEvents())) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

describe.skipIf(LLAMA_SKIP !== undefined || PTY_SKIP !== undefined)(
  `the TUI on a real llama-server (CPU host, pseudo-terminal)${skipNote(LLAMA_SKIP ?? PTY_SKIP)}`,
  // Generous: the suite runs another real llama-server test beside this one on a 2-core host, and two
  // servers' spinning threads on two cores once slowed the threads stage's t=2 variant to 424 ms a token.
  { timeout: 300_000 },
  () => {
    it('walks Host, Model, Plan, Run with live server figures, Results and Save, and quits with no server left', async () => {
      const model = testGguf();
      const args = [
        '--engines',
        'llamacpp',
        '--model',
        model,
        // Longer than SMALL: each benchmark must keep the slots busy across a few of the live
        // panel's 1 s samples, or on a quiet machine it ends between two and no sample sees a slot running.
        ...SMALL.filter(
          (a, i, all) => a !== '--num-prompts' && all[i - 1] !== '--num-prompts' && a !== '--scenario' && all[i - 1] !== '--scenario',
        ),
        '--scenario',
        'random:32/64',
        '--num-prompts',
        '16',
        '--stages',
        'engine,threads',
        '--no-early-stop',
        '--runs-dir',
        join(cwd, 'runs'),
        '--out',
        cwd,
        '--port',
        freshPort(),
      ];
      const t = (pty = servelabInPty(args, { cwd, cols: 120, rows: 40 }));

      // Host: this machine's CPU and the real llama-server, not the simulated host's GPU choice.
      const host = await t.waitFor(/1\/6 Host[\s\S]*Engines[\s\S]*enter next/, 30_000);
      expect(host).toContain('no NVIDIA GPU found: llama.cpp runs on the CPU');
      expect(host).toMatch(/CPU \(no GPU\)\n.*\n\s+\S.*\n\s*\d+ threads? · [\d.]+ [GM]iB memory, [\d.]+ [GM]iB available/);
      // (the build's backend, then its path, on the next line where the row is too long)
      expect(host.replace(/\s+/g, ' ')).toContain(`llamacpp 0.4.0-dev native CPU build, no GPU offload ${LLAMA_SERVER}`);
      expect(host).not.toMatch(/simulated|GPU type|GPU count/);

      // Model: the GGUF's own header, and what random weights mean.
      let at = t.text().length;
      t.press(KEY.enter);
      const modelScreen = await t.waitFor(/2\/6 Model[\s\S]*enter plan/, 20_000, at);
      expect(modelScreen).toMatch(/qwen3 · \d+M params · dense/);
      expect(modelScreen).toContain('4 layers');
      expect(modelScreen).toContain('checkpoint GGUF F16');
      expect(modelScreen).toContain('random weights: outputs are meaningless, speeds are real');
      expect(modelScreen).not.toContain('no config.json');

      // Plan: llama.cpp's candidates, then run.
      at = t.text().length;
      t.press(KEY.enter);
      const plan = await t.waitFor(/3\/6 Plan[\s\S]*enter run/, 30_000, at);
      expect(plan).toContain('llamacpp defaults');
      expect(plan).toMatch(/\[x\] llamacpp t=1/);
      at = t.text().length;
      t.press(KEY.enter);

      // Run: the live panel shows the real server's /metrics (slots processing and deferred;
      // llama.cpp exports no KV-cache gauge, and the panel says so instead of showing 0%).
      const live = await t.waitFor(/server: \d+ running, \d+ waiting/, 60_000, at);
      await t.waitFor(/KV cache -\s+not reported by the server/, 10_000, at);
      expect(live).toMatch(/4\/6 Run/);
      // A finished variant's row carries the figures measured on the real server.
      await t.waitFor(/✓ engine\s+llamacpp defaults\s+[\d,.]+ tok\/s TTFT [\d,.]+m?s\s+TPOT [\d,.]+m?s/, 60_000, at);
      const done = await t.waitFor(/Tuning finished\.[\s\S]*enter results/, 240_000, at);
      expect(done).toMatch(/✓ threads\s+(?:\+|llamacpp) t=1\s+[\d,.]+ tok\/s/);
      // Over the session the server reported requests in its slots, and its own generation gauge reached the panel.
      expect(t.text().slice(at)).toMatch(/server: [1-9]\d* running/);
      expect(t.text().slice(at)).toMatch(/server's own gauge: [\d,.]+ tok\/s per sequence/);

      at = t.text().length;
      t.press(KEY.enter);
      const results = await t.waitFor(/5\/6 Results[\s\S]*enter save/, 20_000, at);
      expect(results).toMatch(/\* llamacpp defaults\s+[\d,.]+\s+ref/);
      expect(results).toMatch(/Winner: llamacpp[\s\S]*\$ llama-server -m /);

      at = t.text().length;
      t.press(KEY.enter);
      const save = await t.waitFor(/6\/6 Save[\s\S]*enter done/, 20_000, at);
      const profile = /profile\s+(\S+-cpu\.json)/.exec(save)?.[1];
      expect(profile, save).toBeDefined();
      expect(existsSync(profile!)).toBe(true);
      expect(JSON.parse(readFileSync(profile!, 'utf8')).argv[0]).toBe(LLAMA_SERVER);

      t.press('q');
      expect(await t.closed).toBe(0);
      events = runEvents();
      expect(events.filter((e) => e.type === 'variant-launching').length).toBeGreaterThanOrEqual(5);
      expect(leftServers(events)).toEqual([]);
    });
  },
);
