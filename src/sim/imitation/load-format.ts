// The weight formats sim-serve models: its --load-format flag and TRT-LLM's YAML load_format both
// name one (src/cli/sim-serve-args.ts, trtllm-yaml.ts).

/** The load formats sim-serve models (vLLM's --load-format choices include both; the rest read real files). */
export const SIM_LOAD_FORMATS = ['auto', 'dummy'] as const;
export type SimLoadFormat = (typeof SIM_LOAD_FORMATS)[number];
