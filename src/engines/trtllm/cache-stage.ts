// TensorRT-LLM's cache-stage candidate: KV block reuse off (kv_cache_config.enable_block_reuse is
// on by default: trtllm/knobs.ts). Under attn_backend FLASHINFER, 1.2.1 reuses no block whatever
// the key says (engine audit 4), so a carried winner on that backend has no cache to measure.
import type { CacheCandidate, CacheStageInput, CacheStageOut } from '../kit/cache-stage-types.js';

export function trtllmCacheStage({ knobs }: CacheStageInput): CacheStageOut {
  const c: CacheCandidate[] = [];
  if (knobs.prefixCaching !== false) c.push({ knobs: { prefixCaching: false }, change: 'block reuse off', needs: ['prefixCaching'] });
  const notes =
    knobs.attentionBackend === 'flashinfer'
      ? [
          'The carried winner runs attn_backend FLASHINFER, under which TensorRT-LLM 1.2.1 starts with cache_reuse=False (engine audit 4): block reuse cannot help it, and this stage compares two servers without a prefix cache.',
        ]
      : [];
  return { candidates: c, notes };
}
