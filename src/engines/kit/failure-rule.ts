// The shape of one failure rule (failure-rules.ts holds the rules): kept apart so that the
// per-engine rule files (llamacpp/failure-rules.ts) and the table can both name it without an
// import circle.
import type { FailureKind } from '../../core/events.js';
import type { FailureContext } from './types.js';

export type FailureEngine = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'sim';

export interface FailureRule {
  id: string;
  kind: Exclude<FailureKind, 'pruned' | 'bench-failed' | 'aborted' | 'skipped' | 'startup-timeout' | 'crash'>;
  /** Engines whose logs can show this text; undefined = all. */
  engines?: readonly FailureEngine[];
  pattern: RegExp;
  /** When set, one of the 4 lines before the match must match this too (bare AssertionError). */
  near?: RegExp;
  reason: (m: RegExpExecArray, ctx: FailureContext) => string;
  hint: string;
}
