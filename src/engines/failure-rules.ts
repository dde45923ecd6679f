// Every engine's failure rules in match order: llama.cpp's own texts first (no other engine prints
// them), then the rules shared by the GPU engines (kit/failure-rules.ts).
import type { FailureRule } from './kit/failure-rule.js';
import { SHARED_FAILURE_RULES } from './kit/failure-rules.js';
import { LLAMACPP_RULES } from './llamacpp/failure-rules.js';

export const FAILURE_RULES: readonly FailureRule[] = [...LLAMACPP_RULES, ...SHARED_FAILURE_RULES];
