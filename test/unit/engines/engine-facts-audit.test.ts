// The engine facts an audit of the sources found wrong, each checked where servelab uses it: the
// command it builds, the default it models, the flag list it checks against.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Knobs, Variant } from '../../../src/core/variant.js';
import { llamacpp } from '../../../src/engines/llamacpp/adapter.js';
import { parseLlamaHelp } from '../../../src/engines/llamacpp/help-flags.js';
import { mustRow } from '../../../src/engines/table.js';
import type { LaunchContext } from '../../../src/engines/kit/types.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';
import { engineEfficiency } from '../../../src/model/efficiency.js';
import { GPUS } from '../../../src/model/gpus.js';
import { efficiencyForVersion, versionChanges } from '../../../src/model/versions.js';

const ctx: LaunchContext = { host: '127.0.0.1', port: 8123, runDir: '/run', runtime: { kind: 'native' } };
const vllmAt = (engineVersion: string, knobs: Knobs): Variant => ({
  id: 'x',
  engine: 'vllm',
  model: 'Qwen/Qwen3-8B',
  knobs,
  engineVersion,
});
const after = (argv: readonly string[], flag: string) => argv[argv.indexOf(flag) + 1];

describe('vLLM draft-model speculation', () => {
  it('0.33.0 writes "method": "draft_model" with the draft model (docs.vllm.ai v0.25.0 draft_model)', () => {
    const argv = vllm.command(
      vllmAt('0.33.0', { speculative: { method: 'draft', draftModel: 'Qwen/Qwen3-0.6B', draftTokens: 5 } }),
      ctx,
    ).argv;
    expect(JSON.parse(after(argv, '--speculative-config')!)).toEqual({
      method: 'draft_model',
      model: 'Qwen/Qwen3-0.6B',
      num_speculative_tokens: 5,
    });
  });

  it('0.33.0 refuses draft without a draft model, in one line', () => {
    expect(() => vllm.command(vllmAt('0.33.0', { speculative: { method: 'draft' } }), ctx)).toThrow(/needs the draft model/);
  });

  it('0.20.1 (not checked) still refuses draft', () => {
    expect(() => vllm.command(vllmAt('0.20.1', { speculative: { method: 'draft', draftModel: 'd' } }), ctx)).toThrow(
      /cannot decode speculatively/,
    );
  });
});

describe("llama.cpp's MTP", () => {
  it('--spec-type draft-mtp without -md: the model drafts with its own MTP layers', () => {
    const argv = llamacpp.command(
      { id: 'x', engine: 'llamacpp', model: '/m/q.gguf', knobs: { speculative: { method: 'mtp', draftTokens: 2 } } },
      ctx,
    ).argv;
    expect(argv.join(' ')).toContain('--spec-type draft-mtp --spec-draft-n-max 2');
    expect(argv).not.toContain('-md');
  });

  it('a separate drafter (draft, eagle3) still needs -md', () => {
    for (const method of ['draft', 'eagle3'] as const)
      expect(() => llamacpp.command({ id: 'x', engine: 'llamacpp', model: '/m/q.gguf', knobs: { speculative: { method } } }, ctx)).toThrow(
        /needs a draft model/,
      );
  });
});

describe("llama-server's flag list", () => {
  it('a dash-only separator line of the help is no flag', () => {
    const help = [
      '----- common params -----',
      '',
      '-h,    --help, --usage                  print usage and exit',
      '-t,    --threads N   number of threads',
    ].join('\n');
    expect(parseLlamaHelp(help)).toEqual({ '--help': { aliases: ['-h', '--usage'], bool: true }, '--threads': { aliases: ['-t'] } });
  });

  it('the 80fb11a list has no dash-only entry', () => {
    const file = new URL('../../../src/engines/data/flags/llamacpp-0.4.0-dev.json', import.meta.url);
    const flags = Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { flags: Record<string, unknown> }).flags);
    expect(flags.filter((f) => /^-+$/.test(f))).toEqual([]);
    expect(flags).toContain('--spec-type');
  });
});

describe("vLLM's default memory fraction per release", () => {
  const h100 = GPUS.find((g) => /H100/.test(g.name))!;
  const fraction = (version: string) =>
    efficiencyForVersion('vllm', engineEfficiency('vllm'), version).defaultMemFraction(h100, {
      maxBatchedTokens: 8192,
      tp: 1,
      pp: 1,
      dp: 1,
      dpAttention: false,
    });

  it('0.9 at 0.11.x and 0.20.1, 0.92 from 0.25.0 (vllm/config/cache.py)', () => {
    expect([fraction('0.11.0'), fraction('0.11.1'), fraction('0.20.1'), fraction('0.25.0'), fraction('0.33.0')]).toEqual([
      0.9, 0.9, 0.9, 0.92, 0.92,
    ]);
    expect(versionChanges('vllm', '0.33.0').map((c) => c.why)).toContain('--gpu-memory-utilization defaults to 0.92 of total memory');
    expect(versionChanges('vllm', '0.11.0')).toEqual([]);
  });
});

describe("SGLang's NCCL port", () => {
  it('the note says a free port from the OS at 0.5.13/0.5.15, not a random range', () => {
    const note = mustRow('sglang', 'plumbing.ncclPort', '0.5.23').note!;
    expect(note).toMatch(/get_free_port\(\)/);
    expect(note).not.toMatch(/otherwise random in/);
  });
});
