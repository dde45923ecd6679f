// The shipped profiles are the three studies' winners with their published numbers.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { launcherOf } from '../../../src/profiles/safety/command.js';
import { DEFAULT_VERSION } from '../../../src/engines/data/versions.js';
import { renderReport } from '../../../src/profiles/report/report.js';
import { loadProfile, profileFileName, serializeProfile } from '../../../src/profiles/store/store.js';
import { studyProfiles } from '../../../scripts/studies.js';

const DIR = 'profiles';

describe('shipped profiles', () => {
  it('are exactly what the generator writes, with their reports', () => {
    for (const p of studyProfiles()) {
      const file = `${DIR}/${profileFileName(p)}`;
      // Byte for byte: replaying a shipped profile records its history elsewhere, never here.
      expect(readFileSync(file, 'utf8'), file).toBe(serializeProfile(p));
      expect(readFileSync(file.replace(/\.json$/, '.md'), 'utf8'), file).toBe(renderReport(p));
    }
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(['DeepSeek-R1-0528-H200x8.json', 'GLM-4.6-A100x8.json', 'Qwen3-14B-H100x1.json']);
  });

  it('Qwen3-14B: SGLang FP8 on 1 x H100 with the published figures', () => {
    const p = loadProfile(`${DIR}/Qwen3-14B-H100x1.json`);
    expect(p.engineArgv).toEqual(['python3', '-m', 'sglang.launch_server', '--model-path', 'Qwen/Qwen3-14B-FP8']);
    expect(p.host).toMatchObject({ gpuCount: 1, simulated: false });
    expect(p.host.gpuName).toMatch(/H100/);
    expect(p.metrics.total_token_throughput).toBe(10426.27);
    expect(p.metrics.mean_tpot_ms).toBe(251.67);
    expect(p.stages.map((s) => [s.name, s.results.length])).toEqual([
      ['engine', 3],
      ['quantization', 1],
      ['attention', 3],
    ]);
    expect(p.validation.map((v) => v.gainPct)).toEqual([58.1, 191.3, 39.3, 33.0, 20.7]);
    // The one full result block the study printed is kept on the vLLM baseline row.
    const vllm = p.stages[0]!.results[0]!;
    expect(vllm.metrics).toMatchObject({ duration: 63.53, p99_ttft_ms: 31156.86, max_output_tokens_per_s: 8890 });
  });

  it('GLM-4.6: vLLM TP8 with 8192 batched tokens, the SGLang FP8 failure kept with its reason', () => {
    const p = loadProfile(`${DIR}/GLM-4.6-A100x8.json`);
    expect(p.engineArgv).toEqual(['vllm', 'serve', 'zai-org/GLM-4.6-FP8', '-tp', '8', '--max-num-batched-tokens', '8192']);
    expect(p.host.gpuCount).toBe(8);
    expect(p.metrics.total_token_throughput).toBe(2824.82);
    const engine = p.stages[0]!.results;
    const sglang = engine.find((r) => r.variant.engine === 'sglang')!;
    expect(sglang.status).toBe('failed');
    expect(sglang.failure?.kind).toBe('unsupported');
    expect(sglang.failure?.evidence?.[0]).toContain('fp8e4nv not supported in this architecture');
    expect(engine.find((r) => r.variant.engine === 'trtllm')?.failure?.kind).toBe('unsupported');
    expect(p.stages[2]!.results.map((r) => r.metrics?.total_token_throughput)).toEqual([2819.17, 2824.82, 2818.53]);
  });

  it('DeepSeek-R1: SGLang TP8 + DP-attention on 8 x H200, MTP kept as a losing row', () => {
    const p = loadProfile(`${DIR}/DeepSeek-R1-0528-H200x8.json`);
    expect(p.engineArgv).toEqual([
      'python3',
      '-m',
      'sglang.launch_server',
      '--model-path',
      'deepseek-ai/DeepSeek-R1-0528',
      '--tp-size',
      '8',
      '--enable-dp-attention',
    ]);
    expect(p.variant.knobs).toEqual({ tp: 8, dpAttention: true });
    expect(p.metrics.total_token_throughput).toBe(7143.3);
    expect(p.stages.map((s) => s.name)).toEqual(['engine', 'parallelism', 'torch.compile', 'speculative']);
    expect(p.stages[3]!.results[0]!.metrics?.mean_tpot_ms).toBe(42.24);
    expect(p.validation).toHaveLength(6);
  });

  it('every command in them is a known launcher', () => {
    for (const p of studyProfiles()) {
      expect(launcherOf(p.engineArgv)).toBe(p.engine.name);
      for (const s of p.stages) for (const r of s.results) expect(launcherOf(r.engineArgv ?? r.argv), r.variantId).not.toBeNull();
    }
  });
});

describe('renderReport', () => {
  const [qwen, glm] = studyProfiles();
  const md = renderReport(qwen!);

  it("has the studies' sections in order", () => {
    const order = [
      '## Conclusion',
      '## Before and after',
      '## Caveats',
      '## Set-up',
      '## Benchmark commands',
      '## Results per stage',
      '## Summary',
    ];
    const at = order.map((h) => md.indexOf(h));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('leads with the recommended command and gives the gains', () => {
    const conclusion = md.slice(md.indexOf('## Conclusion'), md.indexOf('## Before and after'));
    expect(conclusion).toContain('python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8');
    expect(md).toContain('| short 128/4 | 5796.73 | 525.31 | 16884.75 | 927.88 | +191.3% |');
    expect(md).toContain('- engine: +27.4% (SGLang defaults)');
    expect(md).toContain('- attention: no gain');
  });

  it('carries the four caveats and the engine versions', () => {
    expect(md).toMatch(/1\. The search is greedy[\s\S]*4\. The studies recommend FP8 quantization/);
    // No accuracy figure without a source: vLLM's FP8 docs say "minimal impact on accuracy", quoted with its page.
    expect(md).not.toMatch(/under 1%/);
    expect(md).toContain('vLLM\'s FP8 docs say "minimal impact on accuracy": https://docs.vllm.ai/en/stable/features/quantization/fp8/');
    expect(md).toContain('vLLM 0.11.0, SGLang 0.5.5.post1, TensorRT-LLM 1.2.0rc1');
  });

  it('shows failed variants with their reason', () => {
    const g = renderReport(glm!);
    expect(g).toMatch(
      /SGLang TP8 \| `python3 -m sglang.launch_server --model-path zai-org\/GLM-4.6-FP8 --tp-size 8` \| failed: unsupported, SGLang FP8 is not supported on A100/,
    );
  });

  it('says which rows used dummy weights (--dummy-weights), and that the kept one did', () => {
    const p = structuredClone(qwen!);
    const kept = p.stages.flatMap((s) => s.results).find((r) => r.variantId === p.variant.id)!;
    kept.weights = { kind: 'dummy', why: 'dummy weights (--load-format dummy, outputs fixed by ignore_eos)' };
    const out = renderReport(p);
    expect(out).toMatch(/\| [^|]*\(kept\) \(dummy weights\) \|/);
    expect(out.match(/\(dummy weights\)/g)).toHaveLength(1);
    expect(out).toContain('The throughput above was measured on dummy weights (`--load-format dummy`');
    expect(md).not.toContain('dummy');
  });

  it('spells dummy weights as the engine was asked for them, and names the before/after table only when there is one', () => {
    const p = structuredClone(qwen!);
    const kept = p.stages.flatMap((s) => s.results).find((r) => r.variantId === p.variant.id)!;
    kept.weights = { kind: 'dummy', why: 'x' };
    p.engine.name = 'trtllm';
    expect(renderReport(p)).toContain(
      'measured on dummy weights (`load_format: dummy` in its --extra_llm_api_options YAML, outputs fixed by ignore_eos); the before/after table ran the real weights.',
    );
    p.validation = [];
    const out = renderReport(p);
    expect(out).toContain('outputs fixed by ignore_eos).');
    expect(out).not.toContain('before/after table');
    expect(out).not.toContain('--load-format');
  });

  it('says in the conclusion where the winner loses to the baseline, and where it failed', () => {
    const p = structuredClone(qwen!);
    const conclusionOf = (text: string) => text.slice(text.indexOf('## Conclusion'), text.indexOf('## Before and after'));
    expect(conclusionOf(md)).not.toMatch(/loses|failed/);
    p.validation[4]!.optimized = { totalTokPerS: 100, meanTpotMs: 9 };
    p.validation[4]!.gainPct = -15.5;
    p.validation[2]!.gainPct = -2.25;
    p.validation[1]!.optimized = null;
    p.validation[1]!.gainPct = null;
    p.source = 'session';
    const conclusion = conclusionOf(renderReport(p));
    expect(conclusion).toContain('+58.1% over the baseline');
    expect(conclusion).toContain('It loses to the baseline on medium 2000/100 (-2.3%) and very long 32000/100 (-15.5%).');
    expect(conclusion).toContain('It failed on short 128/4, where the baseline ran.');
    // A published study that did not report a side is not a failure.
    p.source = 'study';
    expect(conclusionOf(renderReport(p))).not.toContain('failed on');
  });

  it('marks simulated numbers and lists replays', () => {
    const p = structuredClone(qwen!);
    p.host.simulated = true;
    p.replays.push({
      at: '2026-01-01T00:00:00Z',
      servelabVersion: '0.1.0',
      host: p.host,
      simulated: true,
      verdict: 'regression',
      tolerancePct: 5,
      reasons: ['total throughput -9.0% (tolerance 5%)'],
    });
    p.engine.version = 'simulated';
    const out = renderReport(p);
    expect(out).toContain('simulated host');
    // The release the commands were spelled for, marked simulated: never "SGLang simulated".
    expect(out).toContain(`: SGLang ${DEFAULT_VERSION.sglang} (simulated)\n`);
    expect(out).toContain(`- Engine: SGLang ${DEFAULT_VERSION.sglang} (simulated) (native)`);
    expect(out).not.toContain('SGLang simulated');
    expect(out).toContain('## Replays');
    expect(out).toContain('| regression | total throughput -9.0% (tolerance 5%) |');
  });
});
