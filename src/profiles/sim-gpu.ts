// Which simulated GPU stands in for a profile's real one (replay --sim and serve --sim).
import { UserError } from '../core/errors.js';
import { findGpu } from '../model/gpus.js';
import type { Profile } from './schema/profile.js';

/** The catalog name the simulator knows a profile's GPU by. */
export function simGpuFor(profile: Pick<Profile, 'host'>): string {
  const spec = findGpu(profile.host.gpuName);
  if (!spec) throw new UserError(`cannot simulate GPU '${profile.host.gpuName}': not in servelab's GPU catalog`);
  return spec.aliases[0]!;
}
