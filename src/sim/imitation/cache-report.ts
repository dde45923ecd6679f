// How each imitated engine reports the prompt tokens it served from its prefix cache, in a
// completion's usage. vLLM: usage.prompt_tokens_details.cached_tokens, set only when the count is
// non-zero (vllm/entrypoints/openai/serving_chat.py and serving_completion.py: `if
// self.enable_prompt_tokens_details and num_cached_tokens: ... PromptTokenUsageInfo(cached_tokens=
// num_cached_tokens)`). SGLang: the same field, from meta_info.cached_tokens, left out at 0
// (python/sglang/srt/entrypoints/openai/usage_processor.py). Both need a server flag
// (--enable-prompt-tokens-details, --enable-cache-report): sim-serve reports as if it were given.
// TensorRT-LLM: no per-request count was found in trtllm-serve's OpenAI responses, so none here.
import type { GpuEngineName } from '../../core/variant.js';

const CACHED_TOKENS_IN_USAGE: Readonly<Record<GpuEngineName, boolean>> = { vllm: true, sglang: true, trtllm: false };

/** The usage fields an engine adds for a request that found `cached` prompt tokens in its prefix cache. */
export function cachedUsage(engine: GpuEngineName, cached: number): { prompt_tokens_details?: { cached_tokens: number } } {
  return CACHED_TOKENS_IN_USAGE[engine] && cached > 0 ? { prompt_tokens_details: { cached_tokens: cached } } : {};
}
