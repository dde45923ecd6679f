// ShareGPT after vLLM's filter, lengths only: the prompt and output token-length distributions of
// the first turns of ShareGPT_V3_unfiltered_cleaned_split.json that pass vLLM's is_valid_sequence
// (prompt 4..1024 tokens, output >= 4, prompt + output <= 2048).
//
// PROVENANCE (read before trusting it): this table is NOT computed from the dataset; the dataset
// cannot be downloaded on servelab's build host. It is derived from published statistics:
// - the studies' totals for 1000 filtered prompts with the Qwen3 tokenizer: 217,393 input and
//   201,648 output tokens (the studies' printed vLLM result blocks, src/model/data/studies.ts), i.e. means ~217 / ~202;
// - vLLM's filter bounds above (vllm/benchmarks/datasets.py, is_valid_sequence);
// - the shape assumption that prompts spread wider than outputs (log-normal, sigma 1.0 for prompts
//   and 0.75 for outputs, medians ~147 and ~151 tokens), clipped by the filter.
// The bins below are that clipped log-normal pair, histogrammed from 1,000,000 draws (weights per
// 100,000). Large-sample means: 226.5 input, 199.3 output tokens. Replace the weights with the
// real histogram (same bins) when the dataset is at hand: nothing else changes.

export interface LengthTable {
  /** Bin edges in tokens: bin i holds lengths in [edges[i], edges[i+1]). */
  edges: number[];
  /** Relative weight of each bin (per 100,000). */
  weights: number[];
}

export const SHAREGPT_PROMPT_LENGTHS: LengthTable = {
  edges: [4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1025],
  weights: [149, 1089, 2129, 2849, 6801, 7154, 13283, 11032, 16098, 10524, 12095, 6223, 5654, 4920],
};

export const SHAREGPT_OUTPUT_LENGTHS: LengthTable = {
  edges: [4, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2045],
  weights: [2, 112, 1735, 4335, 6272, 14671, 14047, 21412, 13400, 13380, 5482, 3654, 963, 446, 91],
};

/** vLLM's is_valid_sequence bounds (datasets.py): prompt 4..1024, output >= 4, total <= 2048. */
export const SHAREGPT_FILTER = { minLen: 4, maxPrompt: 1024, maxTotal: 2048 };
