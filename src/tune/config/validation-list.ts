// --validation's language, with one owner for both front ends (the command line's flag and the
// workbench's Validation field): 'none', or a comma list of 'default' (the studies' five
// scenarios) and any name --scenario takes (multi-turn:8/6, prefix:..., random:IN/OUT, ...).
import type { Scenario } from '../../core/scenario.js';
import { UserError } from '../../core/errors.js';
import { parseScenario, studyScenarios } from './scenarios.js';

/** The word that stands for the studies' five scenarios in a --validation list. */
export const VALIDATION_DEFAULT = 'default';

type ScenarioOpts = { datasetPath?: string; scale: number };

/** The list's words, trimmed and non-empty; [] for 'none'. */
export function validationWords(text: string): string[] {
  if (text.trim().toLowerCase() === 'none') return [];
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

const isDefault = (word: string) => word.toLowerCase() === VALIDATION_DEFAULT;

/** One named scenario, its problem said as the flag's (a list's word could be taken for the tuning workload). */
function scenarioOf(word: string, opts: ScenarioOpts): Scenario {
  try {
    return parseScenario(word, opts);
  } catch (e) {
    if (e instanceof UserError) throw new UserError(`--validation: ${e.message}`);
    throw e;
  }
}

/**
 * The validation scenarios a --validation text names (the studies' five when it is not given);
 * 'default' is the studies' five, so a list can add to them: default,multi-turn:8/6.
 */
export function parseValidation(text: string | undefined, opts: ScenarioOpts): Scenario[] {
  if (text === undefined) return studyScenarios(opts);
  return validationWords(text).flatMap((s) => (isDefault(s) ? studyScenarios(opts) : [scenarioOf(s, opts)]));
}

/**
 * The problem with a --validation text, in the flag's wording; null when it parses. 'default'
 * needs no check, so a form can ask at every key without writing the studies' dataset.
 */
export function validationProblem(text: string, opts: ScenarioOpts): string | null {
  try {
    for (const s of validationWords(text)) if (!isDefault(s)) scenarioOf(s, opts);
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}
