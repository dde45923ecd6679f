// TPOT's two definitions: servelab's (vLLM's, the first token left out) and the inclusive one
// (AIConfigurator --inclusive-tpot, GuideLLM); --tpot inclusive switches the summary and the report.
import { describe, expect, it } from 'vitest';
import { meanTpotMs, parseTpotMode, tpotDefinition } from '../../../src/core/tpot.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { renderReport } from '../../../src/profiles/report/report.js';
import { loadProfile } from '../../../src/profiles/store/store.js';

// 10 requests of 100 output tokens, TTFT 1000 ms, 20 ms a later token: E2E 1000 + 99 x 20 = 2980 ms.
const m = { completed: 10, total_output_tokens: 1000, mean_tpot_ms: 20, mean_e2el_ms: 2980 };

describe('TPOT definitions', () => {
  it('excl is the measured TPOT; inclusive is E2E latency over output tokens', () => {
    expect(meanTpotMs(m)).toBe(20);
    expect(meanTpotMs(m, 'inclusive')).toBeCloseTo(29.8, 9);
    expect(meanTpotMs({ completed: 0, total_output_tokens: 0 }, 'inclusive')).toBeUndefined();
    expect(tpotDefinition()).toMatch(/excludes the first token/);
    expect(tpotDefinition('inclusive')).toMatch(/AIConfigurator --inclusive-tpot, GuideLLM/);
    expect(() => parseTpotMode('incl')).toThrow(/^--tpot must be excl .* or inclusive/);
  });

  it('--tpot inclusive reaches the config; the report says which TPOT its table shows and shows it', () => {
    expect(parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--tpot', 'inclusive']).config!.tpot).toBe('inclusive');
    expect(parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B']).config!.tpot).toBeUndefined();
    expect(() => parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--tpot', 'both'])).toThrow(/^--tpot must be/);
    const p = loadProfile('profiles/Qwen3-14B-H100x1.json');
    const excl = renderReport(p);
    expect(excl).toContain("TPOT excludes the first token, as vLLM's");
    expect(excl).toContain('| mean TPOT ms |');
    const incl = renderReport({ ...p, tpot: 'inclusive' });
    expect(incl).toContain('TPOT inclusive of the first token');
    expect(incl).toContain('| mean TPOT ms (incl. 1st token) |');
    expect(incl).not.toBe(excl);
  });
});
