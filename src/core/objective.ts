// What a stage's winner maximises. Parsed here, in the core, because saved settings
// (src/core/settings.ts) and the --auto flags (src/tune/request/from-flags.ts) both check it.
import { UserError } from './errors.js';

export const OBJECTIVES = ['total', 'output', 'request', 'goodput'] as const;
export type Objective = (typeof OBJECTIVES)[number];

/** Is `text` (any case, spaces around) one of the objectives? */
export function isObjective(text: string): boolean {
  return (OBJECTIVES as readonly string[]).includes(text.trim().toLowerCase());
}

export function parseObjective(text: string): Objective {
  const o = text.trim().toLowerCase();
  if ((OBJECTIVES as readonly string[]).includes(o)) return o as Objective;
  throw new UserError(`unknown --objective '${text}': use one of ${OBJECTIVES.join(', ')}`);
}
