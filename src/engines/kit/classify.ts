// Failure triage from a server's log tail and exit status, by the rules given (failure-rules.ts and an engine's own). The
// first rule (in table order) that matches any line wins, so specific root causes come before
// the generic ones they trigger (e.g. "EngineCore failed to start").
import type { Failure } from '../../core/events.js';
import type { SpeculativeKnob } from '../../core/variant.js';
import type { ExitInfo } from '../../host/launch-spec.js';
import type { FailureContext } from './types.js';
import type { FailureEngine, FailureRule } from './failure-rule.js';

/** "method=eagle3 steps=3 topk=- draft-tokens=- draft=d/e3": the combination a speculative start failed with. */
export function specCombination(s: SpeculativeKnob): string {
  const parts = [`method=${s.method}`, `steps=${s.numSteps ?? '-'}`, `topk=${s.topk ?? '-'}`, `draft-tokens=${s.draftTokens ?? '-'}`];
  if (s.draftModel) parts.push(`draft=${s.draftModel}`);
  return parts.join(' ');
}

const SPECULATIVE_TEXT = /specul|eagle|draft|\bmtp\b|ngram|spec_dec/i;

const ERRORISH = /(Error|Exception|Traceback|FAILED|fatal|Killed|Aborted)/;

function evidenceAround(lines: string[], i: number, before = 0): string[] {
  return lines
    .slice(i - before, i + 2)
    .map((l) => l.trimEnd())
    .filter(Boolean);
}

function exitText(exit: ExitInfo): string {
  if (exit.signal) return `killed by ${exit.signal}`;
  if (exit.code !== null) return `exited with code ${exit.code}`;
  return 'stopped';
}

/**
 * Classify a failed start or a death. `engine` limits the rules to those that can occur for it.
 * A matching log line wins over a timeout (a hung TRT-LLM after an OOM is still an OOM).
 */
export function classifyWith(
  rules: readonly FailureRule[],
  engine: FailureEngine | undefined,
  logLines: string[],
  exit: ExitInfo,
  ctx: FailureContext = {},
): Failure {
  for (const rule of rules) {
    if (engine && rule.engines && !rule.engines.includes(engine)) continue;
    // Scan from the end: the last occurrence is nearest to the death.
    for (let i = logLines.length - 1; i >= 0; i--) {
      const m = rule.pattern.exec(logLines[i]!);
      if (m && rule.near && !logLines.slice(Math.max(0, i - 4), i).some((l) => rule.near!.test(l))) continue;
      if (m) {
        const before = rule.near ? Math.min(i, 2) : 0;
        const spec = rule.kind === 'spec-failed' && ctx.speculative ? ` (speculative knobs: ${specCombination(ctx.speculative)})` : '';
        return { kind: rule.kind, reason: rule.reason(m, ctx) + spec, hint: rule.hint, evidence: evidenceAround(logLines, i, before) };
      }
    }
  }
  const errorLines = logLines.filter((l) => ERRORISH.test(l)).slice(-3);
  const evidence = errorLines.length ? errorLines : logLines.slice(-3);
  if (exit.timedOut) {
    return {
      kind: 'startup-timeout',
      reason: 'the server did not become ready before the start-up time-out',
      hint: 'Large models, torch.compile and CUDA-graph capture take minutes: raise --startup-timeout, or read the log for a hang.',
      evidence,
    };
  }
  const last = errorLines.at(-1)?.trim();
  // A speculative variant whose error names the speculative machinery failed because of it.
  if (ctx.speculative && errorLines.some((l) => SPECULATIVE_TEXT.test(l))) {
    return {
      kind: 'spec-failed',
      reason: `speculative decoding failed with ${specCombination(ctx.speculative)}: ${last!.slice(0, 160)}`,
      hint: 'Try another speculative method or fewer draft tokens; the log names the failing part.',
      evidence,
    };
  }
  return {
    kind: 'crash',
    reason: last ? `the server ${exitText(exit)}: ${last.slice(0, 160)}` : `the server ${exitText(exit)}`,
    hint: 'Read the log in the run folder for the root cause.',
    evidence,
  };
}
