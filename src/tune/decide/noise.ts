// The noise rule, as the tuner's decisions use it. Its one owner is src/core/noise-rule.ts (the
// core, so that capacity, below the tuner, judges by the same rule).
export { effectiveMarginPct, type NoiseEstimate } from '../../core/noise-rule.js';
