// Failure triage by every engine's rules, for callers that ask by engine name (or for any engine).
import type { Failure } from '../core/events.js';
import type { ExitInfo } from '../host/launch-spec.js';
import { classifyWith } from './kit/classify.js';
import type { FailureEngine } from './kit/failure-rule.js';
import type { FailureContext } from './kit/types.js';
import { FAILURE_RULES } from './failure-rules.js';

/**
 * Classify a failed start or a death. `engine` limits the rules to those that can occur for it.
 * A matching log line wins over a timeout (a hung TRT-LLM after an OOM is still an OOM).
 */
export function classifyFromLog(engine: FailureEngine | undefined, logLines: string[], exit: ExitInfo, ctx: FailureContext = {}): Failure {
  return classifyWith(FAILURE_RULES, engine, logLines, exit, ctx);
}
