// Each engine's cache-stage candidates, one line per engine (the planner's cache stage,
// src/tune/plan/cache-stage.ts, asks here and never names an engine).
import type { EngineName } from '../core/variant.js';
import type { CacheStageInput, CacheStageOut } from './cache-stage-types.js';
import { llamacppCacheStage } from './llamacpp/cache-stage.js';
import { sglangCacheStage } from './sglang/cache-stage.js';
import { trtllmCacheStage } from './trtllm/cache-stage.js';
import { vllmCacheStage } from './vllm/cache-stage.js';

export const CACHE_STAGES: Readonly<Record<EngineName, (i: CacheStageInput) => CacheStageOut>> = {
  vllm: vllmCacheStage,
  sglang: sglangCacheStage,
  trtllm: trtllmCacheStage,
  llamacpp: llamacppCacheStage,
};
