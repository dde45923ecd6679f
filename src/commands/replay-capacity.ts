// `servelab replay PROFILE --capacity`: does the profile's server still hold the load its
// capacity search answered, at the same SLO? One probe at the recorded answer, sized and judged
// as the search judged it, on the same launch path: "still holds 48 concurrent users at p99 TTFT
// < 2 s" (exit 0), or "no longer holds ..." with the rule that broke (exit 3).
import { UserError } from '../core/errors.js';
import { parseSlo } from '../core/slo-rule.js';
import { loadPhrase, sloPhrase } from '../capacity/judge.js';
import type { CapacityRecord } from '../capacity/record.js';
import { judgeOnce } from '../capacity/runner.js';
import type { Profile } from '../profiles/schema/profile.js';
import { EXIT, type ReplayOptions, type ReplaySetup } from '../tune/replay/replay.js';
import { profileTarget, withProfileServer } from './capacity-profile.js';
import { withInterrupt } from './capacity-print.js';
import { askConsent } from './consent.js';
import { describeSetup } from './replay-text.js';
import { capacityReplayWarmups } from '../tune/replay/capacity-warmup.js';

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
  // The search's probe followed lower loads on a warm server; this one's server is fresh.
  const numWarmups = capacityReplayWarmups(rec.by, rec.answer, setup.scenario);
  process.stderr.write(`warm-up   ${numWarmups} requests first, as the search's probes followed its lower loads\n`);
  const target = (url: string) => {
    const t = profileTarget(setup, url, rec.by);
    return { ...t, run: { ...t.run, numWarmups } };
  };
  // Judged as the search judged its answer: re-probed by its rule, against its measured noise.
  const noise = rec.noisePct !== undefined ? { pct: rec.noisePct, runs: 2, source: 'the search' } : undefined;
  const j = await withInterrupt((signal) =>
    withProfileServer(setup, opts, signal, (url) => judgeOnce(target(url), spec, rec.answer, { signal }, noise)),
  );
  const p = [...j.probes].reverse().find((x) => x.holds === j.holds)!;
  const reprobed = j.probes.length > 1 ? `; ${j.probes.length} probes, ${j.probes.filter((x) => x.holds).length} held` : '';
  const now = slo
    .map((r) => `${r.stat} ${r.metric.toUpperCase()} ${Number(p.metrics[`${r.stat}_${r.metric}_ms`]).toFixed(0)} ms`)
    .join(', ');
  const line = j.holds
    ? `still holds ${claim} (now ${now}, ${p.numPrompts} requests${reprobed})`
    : `no longer holds ${claim}: ${p.violations.join('; ')}${reprobed ? ` (${reprobed.slice(2)})` : ''}`;
  const code = j.holds ? EXIT.ok : EXIT.regression;
  process.stdout.write(
    v.json
      ? JSON.stringify({
          profile: file,
          verdict: j.holds ? 'holds' : 'regression',
          by: rec.by,
          load: rec.answer,
          slo: rec.slo,
          breaks: p.breaks,
          violations: p.violations,
          numPrompts: p.numPrompts,
          exitCode: code,
          probes: j.probes.length,
          warmups: numWarmups,
        }) + '\n'
      : line + '\n',
  );
  return code;
}
