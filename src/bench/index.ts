// The bench library's public surface. @huggingface/tokenizers is loaded lazily, so importing
// this stays cheap for src/sim and src/tune.
export { loadWorkload, type WorkloadSpec } from './datasets.js';
export { runBenchmark } from './run.js';
export type { RunOptions } from './run-options.js';
export { calculateMetrics, peakConcurrency, peakOutputTokensPerS, ALL_LATENCY_METRICS } from './metrics.js';
export { countWords, resolveTokenCounter, type TokenCounter } from './tokenizer.js';
export type * from './types.js';
export type * from '../core/metrics.js';
export { formatResultBlock, formatResult, type BlockOptions } from './format.js';
export { parseResultText, parseResultJson, importResultFile, blockToResultJson, type ParsedBlock } from './parse.js';
export { saveResultJson, resultJson, resultFileName, type SaveOptions } from './save.js';
export { toSimulated, toSimulatedSnapshot, toSimulatedEvent } from './simulated.js';
export { parseGoodput, parsePercentileMetrics, parseMetricPercentiles } from './goodput.js';
export { fetchModelIds } from './models.js';
export { runBenchmarkIsolated, type IsolatedRunOptions } from './isolated.js';
export { runBenchmarkSharded } from './sharded.js';
export { parseClientThreads, resolveClientThreads, type ClientThreadsSpec } from './client-threads.js';
