import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appendReplay,
  buildProfile,
  loadProfile,
  parseProfile,
  profileFileName,
  reportPathFor,
  saveProfile,
  serializeProfile,
} from '../../../src/profiles/store/store.js';
import { qwen3Study } from '../../../scripts/studies.js';
import type { Profile, ReplayRecord } from '../../../src/profiles/schema/profile.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-profiles-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function json(p: unknown): string {
  return JSON.stringify(p, null, 2);
}

function edited(mutate: (p: Record<string, any>) => void): string {
  const p = JSON.parse(serializeProfile(qwen3Study())) as Record<string, any>;
  mutate(p);
  return json(p);
}

describe('parseProfile', () => {
  it('round-trips a valid profile', () => {
    const p = qwen3Study();
    expect(parseProfile(serializeProfile(p), 'q.json')).toEqual(p);
  });

  it('names the field and the expected type', () => {
    const text = edited((p) => (p.metrics.total_token_throughput = 'fast'));
    expect(() => parseProfile(text, 'x.json')).toThrow('profile x.json: metrics.total_token_throughput: expected number, received string');
  });

  it('names nested array fields with their index', () => {
    const text = edited((p) => (p.stages[0].results[1].status = 'great'));
    expect(() => parseProfile(text, 'x.json')).toThrow(/profile x\.json: stages\[0\]\.results\[1\]\.status: /);
  });

  it('checks percentile keys are numbers', () => {
    const text = edited((p) => (p.metrics.p99_ttft_ms = 'slow'));
    expect(() => parseProfile(text, 'x.json')).toThrow('profile x.json: metrics.p99_ttft_ms: expected number, received string');
  });

  it('refuses a newer schema with the version it needs', () => {
    const text = edited((p) => (p.schema = 3));
    expect(() => parseProfile(text, 'x.json')).toThrow(
      /profile x\.json: written for profile schema 3; .* reads schema 1\. Upgrade servelab to one that reads schema 3/,
    );
  });

  it('refuses a file without a schema version', () => {
    expect(() => parseProfile('{"model":"m"}', 'y.json')).toThrow(
      'profile y.json: schema: expected 1, got nothing (is this a servelab profile?)',
    );
  });

  it('gives file, line and column for malformed JSON', () => {
    const text = '{\n  "schema": 1,\n  "model": "x",,\n}';
    expect(() => parseProfile(text, 'bad.json')).toThrow(/^profile bad\.json: malformed JSON at line 3, column 16/);
  });

  it('reports a truncated file', () => {
    const text = serializeProfile(qwen3Study()).slice(0, 200);
    expect(() => parseProfile(text, 't.json')).toThrow(/^profile t\.json: malformed JSON at line \d+, column \d+/);
  });

  it('errors are one line', () => {
    for (const text of ['{', '[]', '{"schema":1}', edited((p) => delete p.host)]) {
      try {
        parseProfile(text, 'z.json');
        expect.unreachable();
      } catch (e) {
        expect((e as Error).message).not.toContain('\n');
        expect((e as { code: number }).code).toBe(2);
      }
    }
  });
});

describe('saveProfile', () => {
  it('writes <model>-<gpu>x<n>.json atomically and reads back', () => {
    const p = qwen3Study();
    const file = saveProfile(p, dir);
    expect(file).toBe(join(dir, 'Qwen3-14B-H100x1.json'));
    expect(readdirSync(dir)).toEqual(['Qwen3-14B-H100x1.json']);
    expect(loadProfile(file)).toEqual(p);
  });

  it('never overwrites another run: a second save into the same folder keeps both files', () => {
    const first = { ...qwen3Study(), source: 'session' as const, createdAt: '2026-03-04T05:06:07.000Z' };
    const second = { ...first, createdAt: '2026-03-04T05:06:08.000Z', metrics: { ...first.metrics, total_token_throughput: 1 } };
    const third = { ...first, createdAt: '2026-03-04T05:06:09.000Z' };
    const a = saveProfile(first, dir);
    const b = saveProfile(second, dir);
    const c = saveProfile(third, dir);
    expect([a, b, c]).toEqual([
      join(dir, 'Qwen3-14B-H100x1.json'),
      join(dir, 'Qwen3-14B-H100x1-20260304-0506.json'),
      join(dir, 'Qwen3-14B-H100x1-20260304-0506-2.json'),
    ]);
    expect(loadProfile(a).metrics.total_token_throughput).toBe(first.metrics.total_token_throughput);
    expect(loadProfile(b).metrics.total_token_throughput).toBe(1);
    expect(loadProfile(c).createdAt).toBe(third.createdAt);
    expect(readdirSync(dir).sort()).toEqual([
      'Qwen3-14B-H100x1-20260304-0506-2.json',
      'Qwen3-14B-H100x1-20260304-0506.json',
      'Qwen3-14B-H100x1.json',
    ]);
  });

  it('the same run saved again replaces its file in place and keeps its replay history', () => {
    const p = qwen3Study();
    const file = saveProfile(p, dir);
    appendReplay(file, {
      at: '2026-01-01T00:00:00.000Z',
      servelabVersion: '0.1.0',
      host: p.host,
      simulated: true,
      verdict: 'ok',
      tolerancePct: 5,
      reasons: [],
    });
    expect(saveProfile(p, dir)).toBe(file);
    expect(readdirSync(dir)).toEqual(['Qwen3-14B-H100x1.json']);
    expect(loadProfile(file).replays.map((r) => r.verdict)).toEqual(['ok']);
  });

  it('a name is taken by its report too, and by a file that is not a profile', () => {
    writeFileSync(join(dir, 'Qwen3-14B-H100x1.md'), 'my notes');
    const p = { ...qwen3Study(), source: 'session' as const, createdAt: '2026-03-04T05:06:07.000Z' };
    const file = saveProfile(p, dir);
    expect(file).toBe(join(dir, 'Qwen3-14B-H100x1-20260304-0506.json'));
    expect(reportPathFor(file)).toBe(join(dir, 'Qwen3-14B-H100x1-20260304-0506.md'));
    expect(readFileSync(join(dir, 'Qwen3-14B-H100x1.md'), 'utf8')).toBe('my notes');
    writeFileSync(join(dir, 'Qwen3-14B-H100x1-20260304-0506-2.json'), '{"not": "a profile"}');
    expect(saveProfile({ ...p, createdAt: '2026-03-04T05:06:30.000Z' }, dir)).toBe(join(dir, 'Qwen3-14B-H100x1-20260304-0506-3.json'));
    expect(readFileSync(join(dir, 'Qwen3-14B-H100x1-20260304-0506-2.json'), 'utf8')).toBe('{"not": "a profile"}');
  });

  it('a session saved into a copy of the shipped profiles/ leaves every shipped file as it was', () => {
    cpSync('profiles', dir, { recursive: true });
    const before = new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
    // What `servelab --auto` from the repo root does: a Qwen3-14B session on one H100 into ./profiles.
    const { schema: _s, servelabVersion: _v, createdAt: _c, ...rest } = qwen3Study();
    const file = saveProfile(buildProfile({ ...rest, source: 'session', replays: [] }), dir);
    expect(file).toMatch(/Qwen3-14B-H100x1-\d{8}-\d{4}\.json$/);
    for (const [f, text] of before) expect(readFileSync(join(dir, f), 'utf8'), f).toBe(text);
    expect(readdirSync(dir).length).toBe(before.size + 1);
  });

  it('names files from the GPU model', () => {
    const p = qwen3Study();
    expect(profileFileName({ model: 'zai-org/GLM-4.6', host: { ...p.host, gpuName: 'NVIDIA A100-SXM4-80GB', gpuCount: 8 } })).toBe(
      'GLM-4.6-A100x8.json',
    );
    expect(profileFileName({ model: '/models/llama/', host: { ...p.host, gpuName: 'NVIDIA L40S', gpuCount: 2 } })).toBe(
      'llama-L40Sx2.json',
    );
  });

  it('never stores secret env keys or secret argv values', () => {
    const base = qwen3Study();
    const p: Profile = {
      ...base,
      env: {
        HF_TOKEN: 'hf_abcdefghijklmnopqrstuvwxyz',
        OPENAI_API_KEY: 'x',
        CUDA_VISIBLE_DEVICES: '0',
        SOME_VAR: 'sk-abcdefghijklmnopqrstuv',
      },
      engineArgv: [...base.engineArgv, '--api-key', 'supersecret'],
    };
    p.stages = structuredClone(base.stages);
    p.stages[0]!.results[0]!.env = { HUGGING_FACE_HUB_TOKEN: 'abc', NCCL_DEBUG: 'INFO' };
    const file = saveProfile(p, dir);
    const text = readFileSync(file, 'utf8');
    for (const secret of [
      'hf_abcdefghijklmnopqrstuvwxyz',
      'HF_TOKEN',
      'OPENAI_API_KEY',
      'supersecret',
      'sk-abcdefghijklmnopqrstuv',
      'HUGGING_FACE_HUB_TOKEN',
    ]) {
      expect(text).not.toContain(secret);
    }
    const back = loadProfile(file);
    expect(back.env).toEqual({ CUDA_VISIBLE_DEVICES: '0' });
    expect(back.engineArgv.slice(-2)).toEqual(['--api-key', '<redacted>']);
    expect(back.stages[0]!.results[0]!.env).toEqual({ NCCL_DEBUG: 'INFO' });
  });

  it('buildProfile fills version and time and validates', () => {
    const { schema: _s, servelabVersion: _v, createdAt: _c, ...rest } = qwen3Study();
    const p = buildProfile(rest);
    expect(p.schema).toBe(1);
    expect(p.servelabVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(Date.parse(p.createdAt)).not.toBeNaN();
    expect(() => buildProfile({ ...rest, host: { ...rest.host, gpuCount: -1 } })).toThrow(/host\.gpuCount/);
  });
});

describe('appendReplay', () => {
  it('appends to the history and leaves the recorded numbers alone', () => {
    const p = qwen3Study();
    const file = saveProfile(p, dir);
    const record: ReplayRecord = {
      at: '2026-01-01T00:00:00.000Z',
      servelabVersion: '0.1.0',
      host: { ...p.host, simulated: true },
      simulated: true,
      verdict: 'regression',
      tolerancePct: 5,
      reasons: ['total throughput -50.0% (tolerance 5%)'],
      metrics: { ...p.metrics, total_token_throughput: 1 },
    };
    appendReplay(file, record);
    appendReplay(file, { ...record, verdict: 'ok' });
    const back = loadProfile(file);
    expect(back.replays.map((r) => r.verdict)).toEqual(['regression', 'ok']);
    expect(back.metrics).toEqual(p.metrics);
    expect({ ...back, replays: [] }).toEqual(p);
  });

  it('refuses to touch a file that is not a valid profile', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"schema": 2}');
    expect(() => appendReplay(file, {} as ReplayRecord)).toThrow(/schema 2/);
    expect(readFileSync(file, 'utf8')).toBe('{"schema": 2}');
  });
});
