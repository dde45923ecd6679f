// Sequential testing for one probe: a probe's pNN verdict is settled before its last request once
// the rest cannot change it. With n planned requests, pNN is read (numpy's linear interpolation,
// as vLLM) between the sorted values at k = floor(NN/100 x (n-1)) and k+1. So:
// - it FAILS once b >= n - k requests are at or over the limit (or any request failed): the value
//   at k is then over, and pNN with it, whatever the rest measure;
// - it HOLDS once b + (requests not yet finished) <= n - k - 2 (n - k - 1 when the position is
//   whole): even if every remaining request broke the limit, the values read stay under it.
// Only per-request figures can be settled this way (TTFT, TPOT, E2EL at a percentile); a rule on a
// mean, a median of ITL gaps or ITL at all waits for the full probe (it can still fail early on
// another rule).
import type { SloRule } from '../core/slo-rule.js';
import type { RequestOutput } from '../bench/types.js';

export type EarlyVerdict = 'fails' | 'holds' | null;

interface Tracked {
  rule: SloRule;
  /** Most requests at or over the limit that keep pNN under it for sure. */
  safe: number;
  /** Fewest at or over the limit that put pNN over it for sure. */
  broken: number;
  over: number;
}

/** The per-request figure a rule reads, in ms (scaled by a simulator's speed), or null for none. */
function figureMs(rule: SloRule, o: RequestOutput, speed: number): number | null {
  const s =
    rule.metric === 'ttft'
      ? o.ttft
      : rule.metric === 'e2el'
        ? o.latency
        : rule.metric === 'tpot' && o.outputLen > 1
          ? (o.latency - o.ttft) / (o.outputLen - 1)
          : null;
  return s === null ? null : s * 1000 * speed;
}

const settleable = (r: SloRule) => r.stat.startsWith('p') && r.metric !== 'itl';

export class EarlyStop {
  private readonly tracked: Tracked[];
  /** Every rule can be settled early (else a probe can fail early, never hold early). */
  private readonly allSettleable: boolean;
  private finished = 0;
  private failed = 0;
  /** Why the verdict settled, once it has: "ttft:p99: 11 of 1000 planned at or over 3000 ms". */
  reason: string | null = null;

  constructor(
    private readonly planned: number,
    slo: readonly SloRule[],
    private readonly speed = 1,
  ) {
    this.allSettleable = slo.every(settleable);
    this.tracked = slo.filter(settleable).map((rule) => {
      const pos = (Number(rule.stat.slice(1)) / 100) * (planned - 1);
      const k = Math.floor(pos);
      const whole = pos === k;
      return { rule, broken: planned - k, safe: planned - k - (whole ? 1 : 2), over: 0 };
    });
  }

  /** Record one finished request; the verdict once it can no longer change, else null. */
  add(o: RequestOutput): EarlyVerdict {
    this.finished++;
    if (!o.success) {
      this.failed++;
      this.reason = `a request failed (${o.error.split('\n')[0]?.slice(0, 80) ?? 'no error text'})`;
      return 'fails';
    }
    for (const t of this.tracked) {
      const v = figureMs(t.rule, o, this.speed);
      if (v !== null && v >= t.rule.limitMs) t.over++;
      if (t.over >= t.broken) {
        this.reason = `${t.rule.metric}:${t.rule.stat}: ${t.over} of ${this.planned} planned requests at or over ${t.rule.limitMs} ms`;
        return 'fails';
      }
    }
    const left = this.planned - this.finished;
    if (left > 0 && this.allSettleable && this.tracked.every((t) => t.over + left <= t.safe)) {
      this.reason = `${left} request${left === 1 ? '' : 's'} left cannot break ${this.tracked.map((t) => `${t.rule.metric}:${t.rule.stat}`).join(', ')}`;
      return 'holds';
    }
    return null;
  }

  /** Requests at or over the limit so far, per rule: "ttft:p99 3/11" (over / the count that fails). */
  tally(): string {
    return this.tracked.map((t) => `${t.rule.metric}:${t.rule.stat} ${t.over}/${t.broken}`).join(', ');
  }

  get done(): number {
    return this.finished;
  }
}
