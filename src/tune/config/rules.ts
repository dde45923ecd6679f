// The rules a tuning config's inputs must meet, with their one wording. `servelab --auto` checks
// its flags with them (src/tune/request) and the workbench checks its form with them
// (src/tui/services/form.ts), so the two front ends reject the same input with the same words.
// `what` names the input the way its front end does: '--num-prompts' on the command line,
// 'prompts' in the form.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { NumberRange } from '../../core/number-arg.js';
import { OBJECTIVES, parseObjective, type Objective } from '../../core/objective.js';

/** The rules of the inputs both front ends take. */
export const RULES = {
  numPrompts: { integer: true, min: 1 },
  scenarioSeed: { integer: true, min: 0 },
  tokens: { integer: true, min: 1 },
  simGpus: { integer: true, min: 1, max: 64 },
} as const satisfies Record<string, NumberRange>;

/** The absolute path of a ShareGPT file that exists, or a UserError saying what to do. */
export function checkDataset(path: string): string {
  const p = resolve(path);
  if (!existsSync(p))
    throw new UserError(
      `dataset ${path}: no such file; give the path of a ShareGPT JSON (--dataset-path), or use the synthetic ShareGPT-like workload`,
    );
  if (!statSync(p).isFile()) throw new UserError(`dataset ${path}: not a file`);
  return p;
}

/** What a session can be told to choose by: a stage objective, or the frontier (sweep the finalists, choose by the SLO). */
export const SESSION_OBJECTIVES = [...OBJECTIVES, 'frontier'] as const;
export type SessionObjective = (typeof SESSION_OBJECTIVES)[number];

/** --objective for the stages; a bad one is told every objective a session takes, frontier too (it goes with the sweep). */
export function parseStageObjective(text: string): Objective {
  try {
    return parseObjective(text);
  } catch {
    throw new UserError(`unknown --objective '${text}': use one of ${SESSION_OBJECTIVES.join(', ')}`);
  }
}

/** Goodput counts requests that meet the SLOs, so it needs some. */
export function checkObjectiveSlo(objective: Objective, sloCount: number): void {
  if (objective === 'goodput' && sloCount === 0) {
    throw new UserError(
      'the goodput objective needs --slo, SLOs such as ttft:p99<2000,tpot:mean<100 (goodput counts the requests that meet them)',
    );
  }
}
