// The Model screen's Validation field: what --validation takes, read by its one parser
// (tune/config/validation-list.ts), plus 'quick', the form's word for the studies' five at a
// tenth of their size (the form has no --scale field). The empty field is quick.
import { validationProblem, validationWords, VALIDATION_DEFAULT } from '../../tune/config/validation-list.js';
import type { WorkloadForm } from './types.js';

const QUICK = 'quick';
/** Quick validation's size: a tenth of the studies' scenarios, unless the command line's --scale says otherwise. */
const QUICK_SCALE = '0.1';

/** The field's hint (shown while it is empty): what empty means and what else it takes. */
export const VALIDATION_HINT = 'quick (or default, none; e.g. quick,multi-turn:8/6)';

/** The field's text as the flags it stands for: --validation (none for quick alone), and --scale 0.1 for quick (unless the command line gave a scale). */
export function validationFlags(text: string, cliScale: unknown): { validation?: string; scale?: string } {
  const words = validationWords(text.trim() || QUICK);
  if (!words.length) return { validation: 'none' };
  const quick = words.some((w) => w.toLowerCase() === QUICK);
  // Quick alone leaves --validation to the session's own default, as the command line does: the
  // studies' five for the GPU engines, its tuning workload for a llama.cpp-only session (whose
  // slots are sized for that workload).
  if (quick && words.length === 1) return cliScale === undefined ? { scale: QUICK_SCALE } : {};
  const validation = words.map((w) => (w.toLowerCase() === QUICK ? VALIDATION_DEFAULT : w)).join(',');
  return { validation, ...(quick && cliScale === undefined ? { scale: QUICK_SCALE } : {}) };
}

/** The field's problem in --validation's wording; null when it parses. */
export function validationFieldProblem(f: WorkloadForm): string | null {
  const datasetPath = f.scenario === 'sharegpt' && f.datasetPath.trim() ? { datasetPath: f.datasetPath.trim() } : {};
  const { validation } = validationFlags(f.validation, undefined);
  return validation === undefined ? null : validationProblem(validation, { scale: 1, ...datasetPath });
}

/** The field's start: the command line's --validation as given, else empty (quick). */
export function validationDefault(cliValidation: string | undefined): string {
  return cliValidation?.trim() ?? '';
}
