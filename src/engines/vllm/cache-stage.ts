// vLLM's cache-stage candidates: prefix caching off (it is on by default, so the stage measures
// what it buys), and KV offloading to CPU memory where the release has it (vllm/knobs.ts rows).
import { VLLM_TABLE } from './knobs.js';
import { KV_OFFLOAD_GIB, type CacheCandidate, type CacheStageInput, type CacheStageOut } from '../kit/cache-stage-types.js';

export function vllmCacheStage({ knobs, version }: CacheStageInput): CacheStageOut {
  const c: CacheCandidate[] = [];
  if (knobs.prefixCaching !== false) c.push({ knobs: { prefixCaching: false }, change: 'prefix caching off', needs: ['prefixCaching'] });
  if (knobs.prefixCaching !== false && knobs.kvOffloadGiB === undefined && VLLM_TABLE.rowAt('kvOffloadGiB', version))
    c.push({ knobs: { kvOffloadGiB: KV_OFFLOAD_GIB }, change: `KV offload to CPU ${KV_OFFLOAD_GIB} GiB`, needs: ['kvOffloadGiB'] });
  const notes = VLLM_TABLE.rowAt('kvOffloadGiB', version)
    ? [
        `KV offloading keeps blocks evicted from the GPU in ${KV_OFFLOAD_GIB} GiB of host memory (servelab does not read how much the host has free).`,
      ]
    : [`vLLM ${version} has no --kv-offloading-size in servelab's tables: only prefix caching itself is compared.`];
  return { candidates: c, notes };
}
