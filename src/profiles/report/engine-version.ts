// What exports and reports say of a profile's engine version. A profile tuned on the simulated
// host records the version 'simulated' (no engine ran: src/tune/session/open.ts), yet its
// commands were spelled for one release's flags (src/engines/data/versions.ts; the plan says
// "commands are spelled for trtllm 1.2.0rc1"). That release is the one to name and pin, marked
// simulated, so that "trtllm simulated" never stands where a version belongs.
import { DEFAULT_VERSION } from '../../engines/data/versions.js';
import type { Profile } from '../schema/profile.js';

type VersionOf = Pick<Profile, 'engine' | 'variant' | 'host'>;

/** Is the recorded engine version a release (not 'simulated' or 'unknown')? */
export function hasReleaseVersion(p: Pick<Profile, 'engine'>): boolean {
  return /^v?\d+(\.\d+)*/.test(p.engine.version);
}

/** Tuned on the simulated host, with no real engine release recorded. */
export function simulatedEngine(p: VersionOf): boolean {
  return !hasReleaseVersion(p) && (p.host.simulated || /^(simulated|sim)$/.test(p.engine.version));
}

/**
 * The release the commands are for: the recorded release, or on the simulated host the release
 * they were spelled for (the variant's record, else the knob table the adapters default to).
 * Undefined when neither is known (then exports say to pin a version).
 */
export function commandRelease(p: VersionOf): string | undefined {
  if (hasReleaseVersion(p)) return p.engine.version.replace(/^v/, '');
  return simulatedEngine(p) ? (p.variant.engineVersion ?? DEFAULT_VERSION[p.engine.name]) : undefined;
}

/** The version as exports and reports print it: "0.11.0", "1.2.0rc1 (simulated)", or the raw record. */
export function engineVersionText(p: VersionOf): string {
  if (hasReleaseVersion(p)) return p.engine.version;
  const release = commandRelease(p);
  return release ? `${release} (simulated)` : p.engine.version;
}
