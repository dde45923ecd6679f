// Every workload's dataset name, one list: the bench command, scenarios and the profile schema
// read it. Names follow vLLM's --dataset-name where vLLM has the same workload.
export const DATASETS = ['sharegpt', 'random', 'custom', 'prefix_repetition', 'multi_turn', 'mooncake_trace'] as const;
export type DatasetName = (typeof DATASETS)[number];
