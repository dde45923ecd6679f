// The classifier against the corpus of real engine output (src/engines/data/corpus.json):
// every entry gets the kind it must get, and start-up lines match no failure rule.
import { describe, expect, it } from 'vitest';
import { CORPUS, corpusLines } from '../../../src/engines/corpus.js';
import { classifyFromLog } from '../../../src/engines/failures.js';
import { FAILURE_RULES } from '../../../src/engines/failure-rules.js';
import type { FailureEngine } from '../../../src/engines/kit/failure-rule.js';

const died = { code: 1, signal: null };
const enginesOf = (e: string): FailureEngine[] => (e === 'any' ? ['vllm', 'sglang', 'trtllm'] : [e as FailureEngine]);

describe('engine output corpus', () => {
  it('holds at least 25 real failure texts, each with its source', () => {
    expect(CORPUS.filter((e) => e.expect !== null).length).toBeGreaterThanOrEqual(25);
    for (const e of CORPUS) expect(e.source.length, e.id).toBeGreaterThan(10);
    expect(new Set(CORPUS.map((e) => e.id)).size).toBe(CORPUS.length);
  });

  const failures = CORPUS.filter((e) => e.expect !== null);
  it.each(failures.map((e) => [e.id, e] as const))('%s', (_id, e) => {
    const lines = corpusLines(e.id);
    for (const engine of [...enginesOf(e.engine), 'sim' as const]) {
      const f = classifyFromLog(engine, ['INFO loading ...', ...lines], died);
      expect(f.kind, `${e.id} as ${engine}`).toBe(e.expect);
      // The engine's own line is the evidence.
      expect(f.evidence?.some((l) => lines.some((x) => x.trim() === l.trim()))).toBe(true);
    }
  });

  it('start-up lines match no failure rule', () => {
    for (const e of CORPUS.filter((x) => x.expect === null)) {
      for (const line of corpusLines(e.id)) {
        const hit = FAILURE_RULES.find((r) => r.pattern.test(line));
        expect(hit?.id, `${e.id}: ${line}`).toBeUndefined();
      }
    }
  });

  it('every failure rule is exercised by at least one real text', () => {
    const texts = failures.flatMap((e) => corpusLines(e.id));
    const unused = FAILURE_RULES.filter((r) => !r.id.startsWith('sim-') && !texts.some((t) => r.pattern.test(t))).map((r) => r.id);
    expect(unused).toEqual([]);
  });

  it('a speculative start failure names the knob combination', () => {
    const f = classifyFromLog('trtllm', corpusLines('trtllm-invalid-decoding-type'), died, {
      speculative: { method: 'eagle3', numSteps: 3, draftModel: 'd/e3' },
    });
    expect(f.kind).toBe('spec-failed');
    expect(f.reason).toBe(
      'this TensorRT-LLM does not know decoding_type Eagle3 (speculative knobs: method=eagle3 steps=3 topk=- draft-tokens=- draft=d/e3)',
    );
  });

  it('a rejected flag value is bad-flag with the engine line as evidence', () => {
    const lines = corpusLines('sglang-fa4-decode');
    const f = classifyFromLog('sglang', lines, died);
    expect(f.kind).toBe('bad-flag');
    expect(f.evidence).toContain(lines[0]);
  });
});
