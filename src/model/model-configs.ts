// Public config.json values (the fields the estimate reads), copied from each model's HF repo.

/** Llama-3.1-70B-Instruct's config.json fields (Llama-3.3-70B-Instruct has the same shape: below). */
const LLAMA_31_70B: Record<string, unknown> = {
  architectures: ['LlamaForCausalLM'],
  hidden_size: 8192,
  intermediate_size: 28672,
  max_position_embeddings: 131072,
  num_attention_heads: 64,
  num_hidden_layers: 80,
  num_key_value_heads: 8,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
  vocab_size: 128256,
};

export const BUILTIN_CONFIGS: Record<string, Record<string, unknown>> = {
  'Qwen/Qwen3-14B': {
    architectures: ['Qwen3ForCausalLM'],
    head_dim: 128,
    hidden_size: 5120,
    intermediate_size: 17408,
    max_position_embeddings: 40960,
    num_attention_heads: 40,
    num_hidden_layers: 40,
    num_key_value_heads: 8,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 151936,
  },
  // Qwen/Qwen3-32B config.json (Hugging Face): 64 layers, 64 query / 8 KV heads.
  'Qwen/Qwen3-32B': {
    architectures: ['Qwen3ForCausalLM'],
    head_dim: 128,
    hidden_size: 5120,
    intermediate_size: 25600,
    max_position_embeddings: 40960,
    num_attention_heads: 64,
    num_hidden_layers: 64,
    num_key_value_heads: 8,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 151936,
  },
  'Qwen/Qwen3-30B-A3B': {
    architectures: ['Qwen3MoeForCausalLM'],
    head_dim: 128,
    hidden_size: 2048,
    intermediate_size: 6144,
    max_position_embeddings: 40960,
    moe_intermediate_size: 768,
    num_attention_heads: 32,
    num_experts: 128,
    num_experts_per_tok: 8,
    num_hidden_layers: 48,
    num_key_value_heads: 4,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 151936,
  },
  'zai-org/GLM-4.6': {
    architectures: ['Glm4MoeForCausalLM'],
    first_k_dense_replace: 3,
    head_dim: 128,
    hidden_size: 5120,
    intermediate_size: 12288,
    max_position_embeddings: 202752,
    moe_intermediate_size: 1536,
    n_routed_experts: 160,
    n_shared_experts: 1,
    num_attention_heads: 96,
    num_experts_per_tok: 8,
    num_hidden_layers: 92,
    num_key_value_heads: 8,
    num_nextn_predict_layers: 1,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 151552,
  },
  'deepseek-ai/DeepSeek-R1-0528': {
    architectures: ['DeepseekV3ForCausalLM'],
    first_k_dense_replace: 3,
    hidden_size: 7168,
    intermediate_size: 18432,
    kv_lora_rank: 512,
    max_position_embeddings: 163840,
    moe_intermediate_size: 2048,
    n_routed_experts: 256,
    n_shared_experts: 1,
    num_attention_heads: 128,
    num_experts_per_tok: 8,
    num_hidden_layers: 61,
    num_key_value_heads: 128,
    num_nextn_predict_layers: 1,
    q_lora_rank: 1536,
    qk_nope_head_dim: 128,
    qk_rope_head_dim: 64,
    quantization_config: { activation_scheme: 'dynamic', fmt: 'e4m3', quant_method: 'fp8', weight_block_size: [128, 128] },
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    v_head_dim: 128,
    vocab_size: 129280,
  },
  'meta-llama/Llama-3.1-8B-Instruct': {
    architectures: ['LlamaForCausalLM'],
    hidden_size: 4096,
    intermediate_size: 14336,
    max_position_embeddings: 131072,
    num_attention_heads: 32,
    num_hidden_layers: 32,
    num_key_value_heads: 8,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 128256,
  },
  'meta-llama/Llama-3.1-70B-Instruct': LLAMA_31_70B,
  // Llama-3.3-70B-Instruct: the same shape as Llama-3.1-70B-Instruct above (80 layers, hidden 8192,
  // 64 query / 8 KV heads, MLP 28672, vocab 128256, 131072 positions, untied embeddings), per the
  // "Model Info" tables of oumi's recipes configs/recipes/llama3_3/README.md and llama3_1/README.md
  // (oumi-ai/oumi, read in the fork github.com/vulkomilev/oumi). Used by TensorRT-LLM's perf-overview rows (nvidia/...-FP8 checkpoint).
  'meta-llama/Llama-3.3-70B-Instruct': LLAMA_31_70B,
  // Qwen3-235B-A22B-Instruct-2507: 94 layers, 64 query / 4 KV heads, 128 experts, 8 active, native
  // context 262,144 (HF model card, "Model Overview"); hidden 4096, head dim (kv-channels) 128, dense
  // FFN 12288, expert FFN 1536, vocab 151936, untied embeddings, no dense leading layers: slime's
  // scripts/models/qwen3-235B-A22B.sh (read in github.com/zyzshishui/slime, a fork of THUDM/slime), written from the HF config.json.
  'Qwen/Qwen3-235B-A22B-Instruct-2507': {
    architectures: ['Qwen3MoeForCausalLM'],
    head_dim: 128,
    hidden_size: 4096,
    intermediate_size: 12288,
    max_position_embeddings: 262144,
    moe_intermediate_size: 1536,
    num_attention_heads: 64,
    num_experts: 128,
    num_experts_per_tok: 8,
    num_hidden_layers: 94,
    num_key_value_heads: 4,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 151936,
  },
  // Qwen3-235B-A22B (the original release, served by TensorRT-LLM's perf-overview as
  // nvidia/Qwen3-235B-A22B-FP8): the same architecture as the 2507 release above; its
  // max_position_embeddings (40960, as in the Qwen3-14B/32B/30B-A3B configs) is not re-checked
  // here and only bounds vLLM's default max length, which no row using this id depends on.
  'Qwen/Qwen3-235B-A22B': {
    architectures: ['Qwen3MoeForCausalLM'],
    head_dim: 128,
    hidden_size: 4096,
    intermediate_size: 12288,
    max_position_embeddings: 40960,
    moe_intermediate_size: 1536,
    num_attention_heads: 64,
    num_experts: 128,
    num_experts_per_tok: 8,
    num_hidden_layers: 94,
    num_key_value_heads: 4,
    tie_word_embeddings: false,
    torch_dtype: 'bfloat16',
    vocab_size: 151936,
  },
};

/**
 * Published FP8 checkpoints of the built-in models whose weights' scaling is known from the
 * checkpoint's own quantization file, or explicitly not known. `scaling` undefined: the file was
 * not read here, and the estimate keeps its default FP8 GEMM rate (fitted on block-scaled
 * checkpoints, efficiency.ts fp8GemmEff) for it.
 */
export const FP8_CHECKPOINTS: Record<string, { base: string; scaling?: 'tensor' | 'block'; source: string }> = {
  // TensorRT-LLM docs/source/performance/perf-benchmarking.md@ac643b66 ("Quantization in the
  // PyTorch Flow"), on nvidia/Llama-3.1-8B-Instruct-FP8, -70B- and -405B-Instruct-FP8: "trtllm-bench
  // utilizes the hf_quant_config.json file present in the pre-quantized checkpoints above ... For
  // example, from the checkpoints above: {"producer": {"name": "modelopt", "version": "0.23.0rc1"},
  // "quantization": {"quant_algo": "FP8", "kv_cache_quant_algo": null}". ModelOpt quant_algo FP8 is
  // "FP8: per-tensor weight scale (+ optional static activation scale)" (vLLM
  // docs/features/quantization/modelopt.md). The same family's nvidia/Llama-3.1-405B-Instruct-FP8
  // hf_quant_config.json (HF, blob main) reads "quant_algo": "FP8", "kv_cache_quant_algo": null.
  'nvidia/Llama-3.1-8B-Instruct-FP8': {
    base: 'meta-llama/Llama-3.1-8B-Instruct',
    scaling: 'tensor',
    source: 'TensorRT-LLM perf-benchmarking.md@ac643b66: hf_quant_config.json quant_algo FP8',
  },
  // Per-tensor FP8 (quant_algo FP8). Its hf_quant_config.json has no stored copy here; TensorRT-LLM's
  // own tests read the hub checkpoint: tests/integration/defs/accuracy/test_llm_api_pytorch.py
  // (NVIDIA/TensorRT-LLM, stored revisions, e.g. find_string id 2396620026), TestLlama3_3_70BInstruct
  // test_fp8_tp4: `model_path = f"{llm_models_root()}/modelopt-hf-model-hub/Llama-3.3-70B-Instruct-fp8"`
  // ... `assert llm.args.quant_config.quant_algo == QuantAlgo.FP8`, and references/mmlu.yaml@000a01de
  // registers `meta-llama/Llama-3.3-70B-Instruct: - quant_algo: FP8 accuracy: 81.02`. QuantAlgo.FP8
  // is ModelOpt's per-tensor recipe (block scaling is a separate QuantAlgo.FP8_BLOCK_SCALES, the
  // entry mmlu.yaml uses for DeepSeek-V3-Lite and Qwen3-8B). Its KV dtype: published-wider.ts CKPT_KV.
  'nvidia/Llama-3.3-70B-Instruct-FP8': {
    base: 'meta-llama/Llama-3.3-70B-Instruct',
    scaling: 'tensor',
    source: 'TensorRT-LLM test_llm_api_pytorch.py TestLlama3_3_70BInstruct.test_fp8_tp4: quant_algo == QuantAlgo.FP8',
  },
  // hf_quant_config.json NOT read (no stored copy, no quote of it found): the fitted rate is kept.
  // What was found is about a sibling file: TensorRT-LLM's tests load their own ModelOpt export,
  // `Qwen3/saved_models_Qwen3-235B-A22B_fp8_hf` (TestQwen3_235B_A22B.test_fp8, no quant arguments;
  // the perf suite's MODEL_PATH_DICT maps qwen3_235b_a22b_fp8 to the same folder), and mmlu.yaml@000a01de
  // registers only `Qwen3/Qwen3-235B-A22B: - quant_algo: FP8 kv_cache_quant_algo: FP8` for FP8, so that
  // export is per-tensor FP8 weights with an FP8 KV cache (ModelOpt examples/llm_ptq/hf_ptq.py@0.29.0:
  // `"--kv_cache_qformat", ... default="fp8"`). Nothing quoted says the published nvidia/ checkpoint
  // is that export, so neither fact is applied (model-lab/DIAGNOSIS.md section 2 has the what-if).
  'nvidia/Qwen3-235B-A22B-FP8': { base: 'Qwen/Qwen3-235B-A22B', source: 'hf_quant_config.json not read' },
};
