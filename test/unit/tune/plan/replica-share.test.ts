// The plan's note on a replica's share of the prompts (tune/plan/replica.ts replicaShareNote).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { MIN_STEADY_PROMPTS, replicaShareNote } from '../../../../src/tune/plan/replica.js';
import { planSession } from '../../../../src/tune/session/session.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-share-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(extra: string[]) {
  return parseAutoArgs([
    '--sim',
    '--gpus',
    '8',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'vllm',
    '--stages',
    'engine,batching',
    '--validation',
    'sharegpt-like',
    '--out',
    dir,
    ...extra,
  ]).config!;
}

describe('a replica share of the prompts', () => {
  it('is 100 requests at the least: the early-stop window then holds 10', () => {
    expect(MIN_STEADY_PROMPTS).toBe(100);
  });

  it('says the share, and what to do when it is under the minimum', async () => {
    const small = (await planSession(config(['--num-prompts', '80']))).plan;
    const note = small.notes.find((n) => n.includes('share'))!;
    expect(note).toContain("10 of the scenario's 80 prompts (1/8)");
    expect(note).toMatch(/raise --num-prompts to 800 or more/);
    const big = (await planSession(config(['--num-prompts', '1000']))).plan;
    const ok = big.notes.find((n) => n.includes('share'))!;
    expect(ok).toContain("125 of the scenario's 1000 prompts (1/8)");
    expect(ok).not.toMatch(/raise/);
  });

  it('is absent without a replica plan', async () => {
    const off = (await planSession(config(['--num-prompts', '80', '--replica', 'off']))).plan;
    expect(off.notes.some((n) => n.includes('share'))).toBe(false);
    expect(replicaShareNote(off.scenario, null)).toBeUndefined();
  });
});
