// The declared tie-break order: resources, then changes from the defaults, then precision, then
// the plan's order; a property decides only where every remaining candidate states it.
import { describe, expect, it } from 'vitest';
import type { Knobs, Variant } from '../../../../src/core/variant.js';
import { breakTieByOrder } from '../../../../src/tune/decide/tie-break.js';

const v = (id: string, knobs: Knobs, model = 'Qwen/Qwen3-14B', engine: Variant['engine'] = 'vllm'): Variant => ({
  id,
  engine,
  model,
  knobs,
});
const pick = (...vs: Variant[]) => breakTieByOrder(vs, (x) => x);

describe('breakTieByOrder', () => {
  it('fewer GPUs first, before any other property', () => {
    expect(pick(v('tp2', { tp: 2 }), v('tp1-fp8', { tp: 1, quantization: 'fp8' }))).toEqual({
      winner: v('tp1-fp8', { tp: 1, quantization: 'fp8' }),
      property: 'uses the fewest GPUs',
    });
  });

  it('then threads, slots and memory, where every candidate states them', () => {
    expect(pick(v('s16', { maxRunningSeqs: 16 }), v('s8', { maxRunningSeqs: 8 })).property).toBe('holds the fewest slots');
    expect(pick(v('t8', { threads: 8 }), v('t2', { threads: 2 })).winner.id).toBe('t2');
    expect(pick(v('m9', { memFraction: 0.9 }), v('m8', { memFraction: 0.8 })).property).toBe('reserves the least GPU memory');
  });

  it('then fewer changes from the defaults (an unset knob is no number to compare)', () => {
    const c = pick(v('fa', { attentionBackend: 'flashinfer' }), v('defaults', {}));
    expect(c).toMatchObject({ winner: { id: 'defaults' }, property: 'changes the fewest defaults' });
  });

  it('then higher precision: a bf16 checkpoint over its FP8 one, FP8 KV after the weights', () => {
    expect(pick(v('fp8ckpt', {}, 'Qwen/Qwen3-14B-FP8'), v('bf16', {})).winner.id).toBe('bf16');
    expect(pick(v('q4', { quantization: 'Q4_K_M' }, 'm', 'llamacpp'), v('q8', { quantization: 'Q8_0' }, 'm', 'llamacpp'))).toMatchObject({
      winner: { id: 'q8' },
      property: 'keeps the highest precision',
    });
  });

  it('then the plan order: the one listed first', () => {
    expect(pick(v('x', { tp: 1 }), v('y', { tp: 1 }))).toMatchObject({ winner: { id: 'x' }, property: 'is listed first in the plan' });
  });
});
