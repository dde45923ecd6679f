// The printed block (layout byte for byte) and the import path, on the real vLLM block from
// the seed studies and on edge cases.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { floatRow, formatResultBlock, intRow } from '../../../src/bench/output/format.js';
import { asMetrics, parseResultJson, parseResultText } from '../../../src/bench/output/parse.js';
import { pyCenter, pyFixed2, pyFloatStr } from '../../../src/bench/output/pyformat.js';
import type { BenchMetrics } from '../../../src/core/metrics.js';
import { UserError } from '../../../src/core/errors.js';

const SEED_BLOCK = readFileSync(new URL('../../fixtures/bench/seed-study-a-block.txt', import.meta.url), 'utf8');
const stripTrailing = (s: string) => s.replace(/ +$/gm, '');

describe('Python formatting', () => {
  it('.2f rounds exact binary ties half to even, like Python', () => {
    // Python: format(x, '.2f') for each
    const cases: [number, string][] = [
      [0.125, '0.12'],
      [0.375, '0.38'],
      [1.125, '1.12'],
      [2.675, '2.67'],
      [-0.125, '-0.12'],
      [0.005, '0.01'],
      [1.005, '1.00'],
      [1000.875, '1000.88'],
      [8890, '8890.00'],
      [0, '0.00'],
    ];
    for (const [x, s] of cases) expect(pyFixed2(x), String(x)).toBe(s);
  });
  it('centres with the extra fill on the right and prints floats like str()', () => {
    expect(pyCenter(' Serving Benchmark Result ', 50, '=')).toBe('============ Serving Benchmark Result ============');
    expect(pyCenter('Time to First Token', 50, '-')).toBe('---------------Time to First Token----------------');
    expect(pyCenter('Time per Output Token (excl. 1st token)', 50, '-')).toBe('-----Time per Output Token (excl. 1st token)------');
    expect(pyFloatStr(Infinity)).toBe('inf');
    expect(pyFloatStr(10)).toBe('10.0');
    expect(pyFloatStr(2.5)).toBe('2.5');
  });
  it("rows are '{:<40} {:<10}': trailing spaces kept", () => {
    expect(intRow('Successful requests:', 32)).toBe('Successful requests:                     32        ');
    expect(floatRow('Benchmark duration (s):', 150.866)).toBe('Benchmark duration (s):                  150.87    ');
    expect(floatRow('Mean TTFT (ms):', 22141.2149)).toBe('Mean TTFT (ms):                          22141.21  ');
  });
});

describe('the seed-studies block round-trips', () => {
  it('import gives its numbers', () => {
    const [b, ...rest] = parseResultText(SEED_BLOCK, 'seed.txt');
    expect(rest).toHaveLength(0);
    expect(b!.metrics).toMatchObject({
      completed: 1000,
      duration: 63.53,
      total_input_tokens: 217393,
      total_output_tokens: 201648,
      request_throughput: 15.74,
      output_throughput: 3173.92,
      max_output_tokens_per_s: 8890,
      max_concurrent_requests: 1000,
      total_token_throughput: 6595.66,
      mean_ttft_ms: 22141.21,
      median_ttft_ms: 21872.31,
      p99_ttft_ms: 31156.86,
      mean_tpot_ms: 226.03,
      median_tpot_ms: 117.46,
      p99_tpot_ms: 621.87,
      mean_itl_ms: 92.83,
      median_itl_ms: 59.99,
      p99_itl_ms: 627.72,
    });
    expect(b!.block.percentileMetrics).toEqual(['ttft', 'tpot', 'itl']);
    expect(b!.block.metricPercentiles).toEqual([99]);
  });
  it('printing those numbers gives the same text (vLLM pads values to 10, the reference strips that)', () => {
    const [b] = parseResultText(SEED_BLOCK);
    const printed = formatResultBlock(asMetrics(b!), b!.block);
    expect(stripTrailing(printed)).toBe(SEED_BLOCK);
    // and the printed text (with vLLM's trailing spaces) parses back to the same numbers
    expect(parseResultText(printed)[0]!.metrics).toEqual(b!.metrics);
  });
});

describe('formatResultBlock optional rows', () => {
  const m = {
    duration: 10,
    completed: 9,
    failed: 1,
    total_input_tokens: 900,
    total_output_tokens: 450,
    request_throughput: 0.9,
    request_goodput: 0.5,
    output_throughput: 45,
    total_token_throughput: 135,
    max_output_tokens_per_s: 60,
    max_concurrent_requests: 4,
    mean_ttft_ms: 1,
    median_ttft_ms: 1,
    std_ttft_ms: 0,
    'p99.9_ttft_ms': 1.5,
    p50_ttft_ms: 1,
    mean_e2el_ms: 3,
    median_e2el_ms: 3,
    std_e2el_ms: 0,
    'p99.9_e2el_ms': 3,
    p50_e2el_ms: 3,
  } as unknown as BenchMetrics;
  const text = formatResultBlock(m, {
    maxConcurrency: 4,
    requestRate: 2,
    goodput: true,
    percentileMetrics: ['ttft', 'e2el'],
    metricPercentiles: [99.9, 50],
  });
  const lines = text.split('\n').map((l) => l.trimEnd());
  it('prints them in vLLM order', () => {
    expect(lines.slice(0, 10)).toEqual([
      '============ Serving Benchmark Result ============',
      'Successful requests:                     9',
      'Failed requests:                         1',
      'Maximum request concurrency:             4',
      'Request rate configured (RPS):           2.00',
      'Benchmark duration (s):                  10.00',
      'Total input tokens:                      900',
      'Total generated tokens:                  450',
      'Request throughput (req/s):              0.90',
      'Request goodput (req/s):                 0.50',
    ]);
    expect(lines).toContain('P99.9 TTFT (ms):                         1.50');
    expect(lines).toContain('----------------End-to-end Latency----------------');
    expect(lines).toContain('P50 E2EL (ms):                           3.00');
    expect(lines).not.toContain('---------------Inter-token Latency----------------');
  });
  it('parses back with every optional row', () => {
    const [b] = parseResultText(text);
    expect(b!.block).toMatchObject({
      maxConcurrency: 4,
      requestRate: 2,
      goodput: true,
      percentileMetrics: ['ttft', 'e2el'],
      metricPercentiles: [99.9, 50],
    });
    expect(stripTrailing(formatResultBlock(asMetrics(b!), b!.block))).toBe(stripTrailing(text));
  });
  it('omits Failed requests when none failed, and marks client-bound runs', () => {
    const ok = formatResultBlock({ ...m, failed: 0 } as BenchMetrics, { clientBound: 'event-loop lag p99 9.0 ms > 5 ms' });
    expect(ok).not.toContain('Failed requests');
    expect(ok).toContain('Client-bound (latencies inflated):       yes: event-loop lag p99 9.0 ms > 5 ms');
    expect(parseResultText(ok)[0]!.block.clientBound).toBe('event-loop lag p99 9.0 ms > 5 ms');
  });
});

describe('parser input handling', () => {
  it('finds several blocks among other output, case-insensitively, and keeps unknown rows', () => {
    const text = `INFO starting\nTraffic request rate: inf\n${SEED_BLOCK}\nsome log line\n${SEED_BLOCK.replace(
      'Successful requests',
      'SUCCESSFUL REQUESTS',
    ).replace(
      'Total Token throughput (tok/s):          6595.66',
      'Total token throughput (tok/s):          6595.66\nRTFx:                                    1.50\n' +
        '---------------Speculative Decoding---------------\nAcceptance rate (%):                     71.20\nPer-position acceptance (%):             0.80, 0.60',
    )}`;
    const blocks = parseResultText(text, 'log.txt');
    expect(blocks).toHaveLength(2);
    expect(blocks[1]!.metrics.completed).toBe(1000);
    expect(blocks[1]!.metrics.total_token_throughput).toBe(6595.66);
    expect(blocks[1]!.metrics.rtfx).toBe(1.5);
    expect(blocks[1]!.metrics.acceptance_rate).toBe(71.2);
    expect(blocks[1]!.line).toBe(SEED_BLOCK.split('\n').length + 4);
  });
  it('names the file and line of malformed input', () => {
    const bad = SEED_BLOCK.replace('Mean TPOT (ms):                          226.03', 'Mean TPOT (ms):                          abc');
    expect(() => parseResultText(bad, 'x.txt')).toThrow(UserError);
    expect(() => parseResultText(bad, 'x.txt')).toThrow(/^x\.txt:16: 'Mean TPOT \(ms\)' has a value that is not a number: abc$/);
    const unclosed = SEED_BLOCK.split('\n').slice(0, 10).join('\n');
    expect(() => parseResultText(unclosed, 'y.txt')).toThrow(/^y\.txt:1: result block is not closed/);
    expect(() => parseResultText(SEED_BLOCK.replace('Median ITL (ms):', 'garbage line without colon'), 'z.txt')).toThrow(
      /^z\.txt:21: not a 'label: value' row/,
    );
    expect(() => parseResultJson('{"a":1}\n{oops\n', 'r.json')).toThrow(/^r\.json:2: not a vLLM result JSON line/);
  });
});

describe('importing --save-result JSON', () => {
  it('reads vLLM result lines (appended), drops the per-request arrays and prints the block', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { importResultFile } = await import('../../../src/bench/output/parse.js');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-imp-'));
    try {
      // Key order and values as vLLM v0.11.0 writes them (one json.dump per line with --append-result).
      const line = (rate: number | string, conc: number | null) =>
        JSON.stringify({
          date: '20250101-120000',
          endpoint_type: 'openai-chat',
          backend: 'openai-chat',
          label: null,
          model_id: 'Qwen/Qwen3-8B',
          tokenizer_id: 'Qwen/Qwen3-8B',
          num_prompts: 100,
          request_rate: rate,
          burstiness: 1.0,
          max_concurrency: conc,
          duration: 12.5,
          completed: 100,
          total_input_tokens: 1000,
          total_output_tokens: 2000,
          request_throughput: 8,
          request_goodput: null,
          output_throughput: 160,
          total_token_throughput: 240,
          input_lens: [10],
          output_lens: [20],
          ttfts: [0.1],
          itls: [[0.01]],
          generated_texts: ['x'],
          errors: [''],
          max_output_tokens_per_s: 300,
          max_concurrent_requests: 16,
          mean_ttft_ms: 100.125,
          median_ttft_ms: 90,
          std_ttft_ms: 5,
          p99_ttft_ms: 150,
          mean_tpot_ms: 10,
          median_tpot_ms: 10,
          std_tpot_ms: 1,
          p99_tpot_ms: 12,
          mean_itl_ms: 10,
          median_itl_ms: 9,
          std_itl_ms: 2,
          p99_itl_ms: 20,
        });
      const f = path.join(dir, 'r.json');
      writeFileSync(f, line('inf', null) + '\n' + line(4, 16) + '\n');
      const results = importResultFile(f);
      expect(results).toHaveLength(2);
      expect(results[0]!.result).not.toHaveProperty('itls');
      expect(results[0]!.result).toMatchObject({ completed: 100, mean_ttft_ms: 100.125, request_rate: 'inf' });
      const first = formatResultBlock(asMetricsFromJson(results[0]!.result), results[0]!.block);
      expect(first).not.toContain('Request rate configured');
      expect(first).toContain('Mean TTFT (ms):                          100.12'); // half-even tie, as Python prints it
      const second = formatResultBlock(asMetricsFromJson(results[1]!.result), results[1]!.block);
      expect(second).toMatch(/^Maximum request concurrency: +16 +$/m);
      expect(second).toMatch(/^Request rate configured \(RPS\): +4\.00 +$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function asMetricsFromJson(r: Record<string, unknown>): BenchMetrics {
  return { failed: 0, request_goodput: null, ...r } as unknown as BenchMetrics;
}
