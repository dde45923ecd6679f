// `servelab replay PROFILE --capacity`: does the profile's server still hold the load its
// capacity search answered, at the same SLO? One probe at the recorded answer, sized and judged
// as the search judged it, on the same launch path: "still holds 48 concurrent users at p99 TTFT
// < 2 s" (exit 0), or "no longer holds ..." with the rule that broke (exit 3).
import { UserError } from '../core/errors.js';
import { parseSlo } from '../core/slo-rule.js';
import { loadPhrase, sloPhrase } from '../capacity/judge.js';
import type { CapacityRecord } from '../capacity/record.js';
import { probeOnce } from '../capacity/runner.js';
import type { Profile } from '../profiles/schema/profile.js';
import { EXIT, type ReplayOptions, type ReplaySetup } from '../tune/replay/replay.js';
import { profileTarget, withProfileServer } from './capacity-profile.js';
import { withInterrupt } from './capacity-print.js';
import { askConsent } from './consent.js';
import { describeSetup } from './replay-text.js';

/** The recorded answer to check; bad input (exit 2) when the profile has none. */
export function recordedCapacity(profile: Pick<Profile, 'capacity'>, file: string): CapacityRecord & { answer: number } {
  const c = profile.capacity;
  if (!c)
    throw new UserError(`${file} has no capacity answer to check; run 'servelab capacity ${file}' first (or replay without --capacity)`);
  if (c.answer === null) throw new UserError(`${file}: its capacity search found no load that held ${c.slo}; nothing to check`);
  return { ...c, answer: c.answer };
}

export async function replayCapacityHeadless(
  setup: ReplaySetup,
  opts: ReplayOptions,
  v: { json?: boolean; yes?: boolean; auto?: boolean },
  file: string,
): Promise<number> {
  const rec = recordedCapacity(setup.profile, file);
  const slo = parseSlo(rec.slo);
  const claim = `${loadPhrase(rec.by, rec.answer)} at ${slo.map(sloPhrase).join(' and ')}`;
  process.stderr.write(`${describeSetup(setup)}\ncapacity  ${claim}, as recorded ${rec.at.slice(0, 10)}\n`);
  if (!(await askConsent({ yes: v.yes === true, auto: v.auto === true, what: `replay --capacity ${file}` }))) {
    process.stderr.write('servelab: not run\n');
    return EXIT.failed;
  }
  const spec = { by: rec.by, slo };
  const p = await withInterrupt((signal) =>
    withProfileServer(setup, opts, signal, (url) => probeOnce(profileTarget(setup, url, rec.by), spec, rec.answer, { signal })),
  );
  const now = slo
    .map((r) => `${r.stat} ${r.metric.toUpperCase()} ${Number(p.metrics[`${r.stat}_${r.metric}_ms`]).toFixed(0)} ms`)
    .join(', ');
  const line = p.holds
    ? `still holds ${claim} (now ${now}, ${p.numPrompts} requests)`
    : `no longer holds ${claim}: ${p.violations.join('; ')}`;
  const code = p.holds ? EXIT.ok : EXIT.regression;
  process.stdout.write(
    v.json
      ? JSON.stringify({
          profile: file,
          verdict: p.holds ? 'holds' : 'regression',
          by: rec.by,
          load: rec.answer,
          slo: rec.slo,
          breaks: p.breaks,
          violations: p.violations,
          numPrompts: p.numPrompts,
          exitCode: code,
        }) + '\n'
      : line + '\n',
  );
  return code;
}
