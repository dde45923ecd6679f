// `servelab bench` against a servelab simulator: a simulator run converts to simulated GPU time and
// `--wall-clock` keeps the wall clock. The second figure is a wall-clock latency, so this file runs
// in the timing pass, one file at a time, where other tests' servers do not stretch it.
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { startScriptedServer } from '../../fixtures/bench/scripted-server.js';

const BIN = fileURLToPath(new URL('../../../bin/servelab.js', import.meta.url));
const servelab = (args: string[], env: Record<string, string> = {}) =>
  execa(process.execPath, [BIN, ...args], { reject: false, timeout: 60_000, stripFinalNewline: false, env: { NO_COLOR: '1', ...env } });

describe('servelab bench', () => {
  it('against a servelab simulator: converts to simulated GPU time (or keeps wall clock on request)', async () => {
    const sim = await startScriptedServer({ ttftMs: 20, gapMs: 5, tokens: 4 }, { simSpeed: 10 });
    try {
      const args = [
        'bench',
        '--base-url',
        sim.url,
        '--model',
        'm',
        '--num-prompts',
        '4',
        '--max-concurrency',
        '2',
        '--random-input-len',
        '4',
        '--json',
      ];
      const conv = await servelab(args);
      expect(conv.exitCode).toBe(0);
      expect(conv.stderr).toContain('clock 10x');
      const j = JSON.parse(conv.stdout) as Record<string, number> & { simulated: { speed: number } };
      expect(j.simulated).toEqual({ speed: 10 });
      expect(j.mean_ttft_ms).toBeGreaterThan(180); // ~20 ms wall x 10
      const wall = await servelab([...args, '--wall-clock']);
      const w = JSON.parse(wall.stdout) as Record<string, number>;
      expect(w).not.toHaveProperty('simulated');
      expect(w.mean_ttft_ms).toBeLessThan(180);
      expect(w.mean_ttft_ms).toBeGreaterThan(18);
    } finally {
      await sim.close();
    }
  });
});
