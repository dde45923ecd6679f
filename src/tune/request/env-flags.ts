// `--engine-env [ENGINE:]NAME=VALUE` (repeatable): environment variables every variant of the
// session starts with (all engines, or one), as the env knob of the engine stage that later
// stages carry; the ROCm stage then tries its switches over them. The user's own, so any name a
// shell could export is taken as given.
import { UserError } from '../../core/errors.js';
import { ENGINES, type EngineName } from '../../core/variant.js';
import type { SessionConfig } from '../config/config.js';

const ITEM = /^(?:([a-z]+):)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s;

/** The `engineEnv` a session gets from its flags (absent when none is given). */
export function engineEnvFlags(values: Record<string, unknown>): Pick<SessionConfig, 'engineEnv'> {
  const list = (values['engine-env'] as string[] | undefined) ?? [];
  if (!list.length) return {};
  const out: NonNullable<SessionConfig['engineEnv']> = {};
  for (const item of list) {
    const m = ITEM.exec(item);
    if (!m || (m[1] !== undefined && !(ENGINES as readonly string[]).includes(m[1])))
      throw new UserError(`--engine-env '${item}': write NAME=VALUE, or ENGINE:NAME=VALUE for one of ${ENGINES.join(', ')}`);
    const key = (m[1] as EngineName | undefined) ?? '*';
    out[key] = { ...out[key], [m[2]!]: m[3]! };
  }
  return { engineEnv: out };
}
