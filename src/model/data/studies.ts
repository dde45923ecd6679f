// The three published studies (their in-sample errors: model-lab/HISTORY.md "In-sample"; the
// figures are the studies' printed `vllm bench serve` result blocks): A = Qwen3-14B on 1xH100,
// B = GLM-4.6 on 8xA100 80GB, C = DeepSeek-R1-0528 on 8xH200; ShareGPT, 1000 prompts at once.
// Engines: vLLM 0.11.0, SGLang 0.5.3-0.5.5.post1, TensorRT-LLM 1.0-1.2.0rc1. These rows are
// TRAINING data (src/model/data/training.ts): the fitted constants in fitted.ts were fitted on
// them (with the training rows of published.ts).
import type { EngineName, Knobs } from '../../core/variant.js';

export interface StudyVariant {
  study: string;
  label: string;
  engine: EngineName;
  gpu: string;
  gpus: number;
  model: string;
  knobs: Knobs;
  /** Published total tok/s; null when the variant failed at start in the study. */
  published: number | null;
  publishedTpotMs?: number;
}

const R1 = 'deepseek-ai/DeepSeek-R1-0528';
const DPA: Knobs = { tp: 8, dp: 8, dpAttention: true };

export const STUDY_VARIANTS: StudyVariant[] = [
  { study: 'A Qwen3-14B 1xH100', label: 'vllm', engine: 'vllm', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', knobs: {}, published: 6595.66, publishedTpotMs: 226.03 },
  { study: 'A Qwen3-14B 1xH100', label: 'sglang', engine: 'sglang', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', knobs: {}, published: 8403.97, publishedTpotMs: 235.33 },
  { study: 'A Qwen3-14B 1xH100', label: 'trtllm', engine: 'trtllm', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', knobs: {}, published: 8315.15, publishedTpotMs: 161.58 },
  { study: 'A Qwen3-14B 1xH100', label: 'sglang FP8', engine: 'sglang', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B-FP8', knobs: {}, published: 10426.27, publishedTpotMs: 251.67 },
  { study: 'A Qwen3-14B 1xH100', label: 'sglang FP8 fa3', engine: 'sglang', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B-FP8', knobs: { attentionBackend: 'fa3' }, published: 10434.44, publishedTpotMs: 242.72 },
  { study: 'A Qwen3-14B 1xH100', label: 'sglang FP8 flashinfer', engine: 'sglang', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B-FP8', knobs: { attentionBackend: 'flashinfer' }, published: 9123.34, publishedTpotMs: 246.57 },
  { study: 'A Qwen3-14B 1xH100', label: 'sglang FP8 triton', engine: 'sglang', gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B-FP8', knobs: { attentionBackend: 'triton' }, published: 10055.13, publishedTpotMs: 268.09 },
  { study: 'B GLM-4.6 8xA100', label: 'vllm BF16 (does not fit)', engine: 'vllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6', knobs: { tp: 8 }, published: null },
  { study: 'B GLM-4.6 8xA100', label: 'vllm FP8', engine: 'vllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8 }, published: 2788.21, publishedTpotMs: 154.2 },
  { study: 'B GLM-4.6 8xA100', label: 'sglang FP8 (fails)', engine: 'sglang', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8 }, published: null },
  { study: 'B GLM-4.6 8xA100', label: 'trtllm FP8 (unsupported)', engine: 'trtllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8 }, published: null },
  { study: 'B GLM-4.6 8xA100', label: 'vllm FP8 EP', engine: 'vllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8, ep: 8 }, published: 2706.34, publishedTpotMs: 158.11 },
  { study: 'B GLM-4.6 8xA100', label: 'vllm FP8 mbt 4096', engine: 'vllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8, maxBatchedTokens: 4096 }, published: 2819.17, publishedTpotMs: 159.13 },
  { study: 'B GLM-4.6 8xA100', label: 'vllm FP8 mbt 8192', engine: 'vllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8, maxBatchedTokens: 8192 }, published: 2824.82, publishedTpotMs: 160.28 },
  { study: 'B GLM-4.6 8xA100', label: 'vllm FP8 mbt 16384', engine: 'vllm', gpu: 'A100', gpus: 8, model: 'zai-org/GLM-4.6-FP8', knobs: { tp: 8, maxBatchedTokens: 16384 }, published: 2818.53, publishedTpotMs: 160.5 },
  { study: 'C DeepSeek-R1 8xH200', label: 'vllm', engine: 'vllm', gpu: 'H200', gpus: 8, model: R1, knobs: { tp: 8 }, published: 5482.59, publishedTpotMs: 227.45 },
  { study: 'C DeepSeek-R1 8xH200', label: 'sglang', engine: 'sglang', gpu: 'H200', gpus: 8, model: R1, knobs: { tp: 8 }, published: 6635.73, publishedTpotMs: 420.18 },
  { study: 'C DeepSeek-R1 8xH200', label: 'trtllm EP8', engine: 'trtllm', gpu: 'H200', gpus: 8, model: R1, knobs: { tp: 8, ep: 8 }, published: 3385.88, publishedTpotMs: 221.31 },
  { study: 'C DeepSeek-R1 8xH200', label: 'sglang DP-attention', engine: 'sglang', gpu: 'H200', gpus: 8, model: R1, knobs: DPA, published: 7143.3, publishedTpotMs: 304.71 },
  { study: 'C DeepSeek-R1 8xH200', label: '+ torch.compile', engine: 'sglang', gpu: 'H200', gpus: 8, model: R1, knobs: { ...DPA, torchCompile: true }, published: 6804.17, publishedTpotMs: 306.37 },
  {
    study: 'C DeepSeek-R1 8xH200',
    label: '+ MTP (EAGLE 1/1/2)',
    engine: 'sglang',
    gpu: 'H200',
    gpus: 8,
    model: R1,
    knobs: { ...DPA, torchCompile: true, speculative: { method: 'eagle', numSteps: 1, topk: 1, draftTokens: 2 } },
    published: 2217.12,
    publishedTpotMs: 42.24,
  },
];
