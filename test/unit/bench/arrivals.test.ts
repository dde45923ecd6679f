import { describe, expect, it } from 'vitest';
import { arrivalDelays } from '../../../src/bench/load/arrivals.js';
import { parseFlags } from '../../../src/cli/flags.js';
import { parseGoodput, parseMetricPercentiles, parsePercentileMetrics } from '../../../src/bench/metrics/goodput.js';
import { PyRandom } from '../../../src/bench/datasets/rng.js';
import { mean, std } from '../../../src/core/stats.js';

const gaps = (d: number[]) => d.map((x, i) => x - (i ? d[i - 1]! : 0));

describe('arrival schedule (vLLM get_request)', () => {
  it('infinite rate: everything at t=0', () => {
    expect(arrivalDelays(5, Infinity)).toEqual([0, 0, 0, 0, 0]);
  });
  it('rescales so the last arrival is exactly N/rate, and the first also waits', () => {
    const d = arrivalDelays(1000, 20, 1, 0);
    expect(d.at(-1)).toBeCloseTo(50, 9);
    expect(d[0]).toBeGreaterThan(0);
    expect(d.every((x, i) => i === 0 || x >= d[i - 1]!)).toBe(true);
  });
  it('burstiness is the gamma shape: 1 is Poisson (CV 1), lower is burstier', () => {
    const cv = (b: number) => {
      const g = gaps(arrivalDelays(20000, 10, b, 1));
      return std(g) / mean(g);
    };
    expect(cv(1)).toBeGreaterThan(0.95);
    expect(cv(1)).toBeLessThan(1.05);
    expect(cv(0.25)).toBeGreaterThan(1.9); // CV = 1/sqrt(shape) = 2
    expect(cv(4)).toBeLessThan(0.55); // 0.5
    const inf = arrivalDelays(4, 2, Infinity);
    expect(inf).toEqual([0.5, 1, 1.5, 2]);
  });
  it('is seeded', () => {
    expect(arrivalDelays(10, 5, 1, 3)).toEqual(arrivalDelays(10, 5, 1, 3));
    expect(arrivalDelays(10, 5, 1, 3)).not.toEqual(arrivalDelays(10, 5, 1, 4));
  });
});

describe('CPython-compatible random', () => {
  it('matches random.seed(0); random.random() and shuffle', () => {
    // Python: random.seed(0); a=list(range(20)); random.shuffle(a); random.random()
    const r = new PyRandom(0);
    const a = Array.from({ length: 20 }, (_, i) => i);
    r.shuffle(a);
    expect(a).toEqual([10, 18, 16, 14, 0, 17, 11, 2, 3, 9, 5, 7, 4, 19, 6, 15, 8, 1, 13, 12]);
    expect(r.random()).toBe(0.3101475693193326);
    // Seeds wider than 32 bits are split into 32-bit words, as CPython's init_by_array does.
    const big = new PyRandom(2 ** 40 + 7);
    const b = Array.from({ length: 20 }, (_, i) => i);
    big.shuffle(b);
    expect(big.random()).toBe(0.13725267899886362);
    expect(new PyRandom(42).random()).toBe(0.6394267984578837);
  });
});

describe('vLLM-style flags', () => {
  const specs = {
    'num-prompts': { kind: 'number' as const, help: '' },
    goodput: { kind: 'list' as const, help: '' },
    'save-result': { kind: 'boolean' as const, help: '' },
    model: { kind: 'string' as const, help: '' },
  };
  it('parses --flag value, --flag=value, underscores, nargs+ lists and inf', () => {
    const { flags, positional } = parseFlags(
      ['--num_prompts', 'inf', '--goodput', 'ttft:1', 'tpot:2', '--save-result', '--model=a/b', 'extra'],
      specs,
      'bench',
    );
    expect(flags).toEqual({ 'num-prompts': Infinity, goodput: ['ttft:1', 'tpot:2'], 'save-result': true, model: 'a/b' });
    expect(positional).toEqual(['extra']); // a list stops at the next --flag; 'extra' follows a plain value
  });
  it('rejects bad values with the flag named', () => {
    expect(() => parseFlags(['--num-prompts', 'ten'], specs, 'bench')).toThrow("bench: --num-prompts must be a number, got 'ten'");
    expect(() => parseFlags(['--model'], specs, 'bench')).toThrow('bench: --model needs a value');
    expect(() => parseFlags(['--save-result=1'], specs, 'bench')).toThrow('bench: --save-result takes no value');
    expect(parseGoodput(['ttft:500', 'e2el:1000.5'])).toEqual({ ttft: 500, e2el: 1000.5 });
    expect(() => parseGoodput(['ttft=5'])).toThrow(/invalid --goodput 'ttft=5'/);
    expect(parsePercentileMetrics('ttft,e2el')).toEqual(['ttft', 'e2el']);
    expect(() => parsePercentileMetrics('ttft,foo')).toThrow(/'foo'/);
    expect(parseMetricPercentiles('50,99.9')).toEqual([50, 99.9]);
    expect(() => parseMetricPercentiles('101')).toThrow(/--metric-percentiles/);
  });
});
