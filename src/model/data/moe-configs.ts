// Tuned fused-MoE Triton config files shipped with the engines: BLOCK_SIZE_M by batch-size key.
// vLLM's fused_moe (and SGLang's, adapted from it) looks for
// `configs/E={E},N={N},device_name={torch.cuda.get_device_name() with spaces as _}[,dtype=...][,block_shape=[..]].json`,
// E = w2.shape[0] (the rank's experts), N = w2.shape[2] (moe_intermediate_size / the MoE TP width),
// and uses `configs[min(configs.keys(), key=lambda x: abs(x - M))]`, M = the tokens entering the
// layer (vllm/model_executor/layers/fused_moe/fused_moe.py try_get_optimal_moe_config; sglang
// python/sglang/srt/layers/moe/fused_moe_triton/fused_moe_triton_config.py@083d6013, the same rule).
// Without a file the engine's get_default_config runs (moe-tiles.ts).
//
// Only the files read are here, each with the commit of the stored copy read. They were looked up
// for the MoE shapes of the published rows (src/model/data/published*.ts, studies.ts):
// Qwen3-235B-A22B (E=128, moe_intermediate 1536), GLM-4.6 (E=160, 1536), DeepSeek-R1 (E=256, 2048).
// Looked up and NOT found in the stored vLLM tree (so the default runs): E=160,N=192 for
// NVIDIA_H200 (BF16) and for NVIDIA_H100_80GB_HBM3 fp8_w8a8 block [128,128]; E=32,N=1536 H100 block
// FP8; E=128,N=384 H100_80GB_HBM3 block FP8 (only in a fork, qdanik/vllm). Found but left out:
// E=16,N=1536,device_name=NVIDIA_H100_80GB_HBM3,dtype=fp8_w8a8,block_shape=[128,128].json
// (vllm@a5766486) carries `"triton_version": "3.5.0"`, a Triton newer than v0.11.0's (torch 2.8,
// Triton 3.4), so it is taken as later than the rows' release. SGLang 0.5.x reads only
// configs/triton_{3_4_0,3_3_1,3_2_0,3_1_0}/; the stored index of those folders is partial (no
// triton_3_1_0 at all), so no SGLang file is claimed present or absent: SGLang keeps its defaults.

/** One tuned config file: which (engine, E, N, device, dtype) it serves and its M tiles. */
export interface TunedMoeConfig {
  engine: 'vllm' | 'sglang';
  /** E in the file name: experts on one rank. */
  experts: number;
  /** N in the file name: moe_intermediate_size / MoE tensor-parallel width. */
  n: number;
  /** device_name as the engine spells it in the file name. */
  device: string;
  /** '' (BF16), or 'fp8_w8a8,block_shape=[128,128]' (block-scaled FP8). */
  dtype: '' | 'fp8_w8a8,block_shape=[128,128]';
  /** Path in the engine's repository and the commit of the copy read. */
  file: string;
  source: string;
  /** [M key, BLOCK_SIZE_M], keys ascending as in the file. */
  blockM: [number, number][];
}

const VLLM_DIR = 'vllm/model_executor/layers/fused_moe/configs/';

export const TUNED_MOE_CONFIGS: TunedMoeConfig[] = [
  // Qwen3-235B-A22B BF16 at TP8 (1536 / 8 = 192). The file predates Qwen3-235B-2507 (it also serves
  // Qwen3-30B-A3B at TP4); assumed present at v0.11.0 (the tag itself could not be read).
  {
    engine: 'vllm',
    experts: 128,
    n: 192,
    device: 'NVIDIA_A100-SXM4-80GB',
    dtype: '',
    file: `${VLLM_DIR}E=128,N=192,device_name=NVIDIA_A100-SXM4-80GB.json`,
    source: 'vllm-project/vllm@0f17ee06',
    blockM: [[1, 16], [2, 16], [4, 16], [8, 16], [16, 16], [24, 16], [32, 16], [48, 16], [64, 16], [96, 16], [128, 16], [256, 32], [512, 64], [1024, 64], [1536, 128], [2048, 64], [3072, 64], [4096, 128]],
  },
  {
    engine: 'vllm',
    experts: 128,
    n: 192,
    device: 'NVIDIA_H100_80GB_HBM3',
    dtype: '',
    file: `${VLLM_DIR}E=128,N=192,device_name=NVIDIA_H100_80GB_HBM3.json`,
    source: 'vllm-project/vllm@0f17ee06',
    blockM: [[1, 16], [2, 16], [4, 16], [8, 16], [16, 16], [24, 16], [32, 16], [48, 16], [64, 16], [96, 16], [128, 16], [256, 32], [512, 64], [1024, 64], [1536, 128], [2048, 128], [3072, 128], [4096, 128]],
  },
  // DeepSeek-V3/R1 block-FP8 at TP8 (2048 / 8 = 256), H200: in vLLM since DeepSeek-V3 support
  // (early 2025), well before v0.11.0. Used when the Triton kernel runs (moe-tiles.ts says when).
  {
    engine: 'vllm',
    experts: 256,
    n: 256,
    device: 'NVIDIA_H200',
    dtype: 'fp8_w8a8,block_shape=[128,128]',
    file: `${VLLM_DIR}E=256,N=256,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json`,
    source: 'vllm-project/vllm@645d18fa',
    blockM: [[1, 16], [2, 16], [4, 16], [8, 16], [16, 16], [24, 16], [32, 16], [48, 16], [64, 16], [96, 16], [128, 16], [256, 16], [512, 16], [1024, 64], [1536, 64], [2048, 64], [3072, 64], [4096, 64]],
  },
];
