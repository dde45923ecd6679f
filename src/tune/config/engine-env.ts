// The environment an engine's engine-stage variant starts with (`--engine-env`, parsed by
// tune/request/env-flags.ts): every engine's variables, then the engine's own. The planner's
// engine stage reads it, and later stages carry it in the variants' env knob.
import type { EngineName } from '../../core/variant.js';
import type { SessionConfig } from './config.js';

export function engineStageEnv(config: Pick<SessionConfig, 'engineEnv'>, engine: EngineName): Record<string, string> | undefined {
  const env = { ...config.engineEnv?.['*'], ...config.engineEnv?.[engine] };
  return Object.keys(env).length ? env : undefined;
}
