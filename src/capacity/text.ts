// A capacity search in words and pictures: one line per probe as it lands, then the probes in the
// sweep's chart and table, the answer with the failing probe above it, and goodput at the answer.
// The same answer as a Markdown section for a profile's report, and its SVG chart.
import { parseSlo, type SloRule } from '../core/slo-rule.js';
import { analyseSweeps, chartSeries, formatTable, sweepTable } from '../sweep/analyse.js';
import { renderChart } from '../sweep/chart-text.js';
import { renderSvg } from '../sweep/chart-svg.js';
import { loadPhrase, sloPhrase } from './judge.js';
import { PILOT_REQUESTS } from './pilot.js';
import { WARM_SHARE } from '../bench/metrics/cache-warm.js';
import { CAPACITY_MARGIN_PCT, MAX_PROBES_PER_LOAD } from './reprobe.js';
import { probeSweep, type CapacityRecord } from './record.js';
import type { CapacityBy } from './search.js';

type Metrics = Record<string, number | null | undefined>;
const ms = (v: number | null | undefined) => (typeof v === 'number' ? `${v.toFixed(v < 100 ? 1 : 0)} ms` : '–');

/** The figures a probe line shows: those the SLO names, then goodput. */
function figures(m: Metrics, slo: readonly SloRule[]): string {
  const parts = slo.map((r) => `${r.stat} ${r.metric.toUpperCase()} ${ms(m[`${r.stat}_${r.metric}_ms`])}`);
  if (typeof m.request_goodput === 'number') parts.push(`goodput ${m.request_goodput.toFixed(2)} req/s`);
  return parts.join(', ');
}

/** A cache filled before the probe (a custom dataset's fixed prompts, another client) made its TTFT read the cache, not the load. */
const warmBefore = (p: { cacheHitBeforeRun?: number }) => (p.cacheHitBeforeRun ?? 0) > WARM_SHARE;

export function probeLine(
  i: number,
  by: CapacityBy,
  p: {
    value: number;
    numPrompts: number;
    holds: boolean;
    violations: string[];
    metrics: object;
    early?: string;
    pilot?: boolean;
    attempt?: number;
    cacheHitBeforeRun?: number;
  },
  slo: readonly SloRule[],
): string {
  const verdict = p.holds ? (p.early ? `holds (settled early: ${p.early})` : 'holds') : `fails: ${p.violations.join('; ')}`;
  const kind = p.pilot ? ' (pilot)' : p.attempt ? ` (re-probe ${p.attempt - 1})` : '';
  const warm = warmBefore(p) ? `; ${Math.round(p.cacheHitBeforeRun! * 100)}% of prompt tokens were cached before the probe` : '';
  return `probe ${i}${kind}  ${loadPhrase(by, p.value)}, ${p.numPrompts} requests: ${verdict} (${figures(p.metrics as Metrics, slo)}${warm})`;
}

/** "margin 18% (re-probed 2x, noise ±4%)": how far under the limit the answer sits, and against what noise. */
export function marginText(r: Pick<CapacityRecord, 'marginPct' | 'noisePct' | 'reprobes'>): string {
  if (r.marginPct === null || r.marginPct === undefined) return '';
  const noise = r.noisePct !== undefined ? `noise ±${r.noisePct}%` : 'noise not measured: no load ran twice in full';
  const within = r.noisePct !== undefined && r.marginPct < r.noisePct ? ', within the noise' : '';
  return `margin ${r.marginPct.toFixed(0)}%${within} (re-probed ${r.reprobes ?? 0}x, ${noise})`;
}

/** The rules that shorten and settle the search, one line each, for the header and the stage's start. */
export function searchRules(spec: { by: CapacityBy; pilot?: boolean }): string[] {
  return [
    ...(spec.by === 'concurrency' && spec.pilot
      ? [`pilots of ${PILOT_REQUESTS} requests (4 per concurrent request) double from the start to place the bracket`]
      : []),
    'a probe stops once its verdict cannot change: pNN fails once more than (100-NN)% of its planned requests broke the bound, holds once those left cannot',
    `a load fails only when a re-probe agrees (two of up to ${MAX_PROBES_PER_LOAD}); a hold within max(${CAPACITY_MARGIN_PCT}%, the noise measured from re-probes) of a limit is re-probed too`,
  ];
}

/** A probe running now: "probe at 64 concurrent users: 412/1000 requests, over the limit: ttft:p99 3/11". */
export function progressLine(by: CapacityBy, p: { value: number; done: number; planned: number; tally: string }): string {
  return `  ... ${loadPhrase(by, p.value)}: ${p.done}/${p.planned} requests${p.tally ? `, at or over the limit (so far/fails at): ${p.tally}` : ''}`;
}

const sloOf = (r: CapacityRecord) => parseSlo(r.slo);

/** "48 concurrent users hold ttft:p99<2000 (56 fails: ttft:p99 breaks first)". */
export function answerLine(r: CapacityRecord, maxLoad?: number): string {
  const rules = sloOf(r).map(sloPhrase).join(' and ');
  if (r.answer === null)
    return `answer: none: ${r.failing === null ? 'nothing was measured' : `even ${loadPhrase(r.by, r.failing)} break ${rules} (${r.breaks} breaks first)`}`;
  const above =
    r.failing === null
      ? `nothing failed up to the highest load searched${maxLoad ? ` (--max ${maxLoad})` : ''}`
      : `${loadPhrase(r.by, r.failing)} fail${r.by === 'rate' ? 's' : ''}: ${r.breaks} breaks first`;
  const margin = marginText(r);
  return `answer: ${loadPhrase(r.by, r.answer)} at ${rules}${margin ? `: ${margin}` : ''} (${above}; resolution ${r.resolution})`;
}

export function goodputLine(r: CapacityRecord): string {
  if (r.answer === null) return 'goodput: none (no load held the SLO)';
  const p = r.probes.find((q) => q.load === r.answer);
  const all = typeof p?.metrics.request_throughput === 'number' ? ` of ${p.metrics.request_throughput.toFixed(2)} req/s served` : '';
  return `goodput at the answer: ${r.goodput === null ? '–' : r.goodput.toFixed(2)} req/s meeting the SLO${all} (ITL rules are not part of vLLM's goodput)`;
}

export function requestsLine(r: CapacityRecord): string {
  const warm = r.probes.filter(warmBefore).length;
  const cached = warm
    ? `; ${warm} of ${r.probes.length} found over ${WARM_SHARE * 100}% of their prompt tokens cached before they ran: their TTFT reads the cache`
    : '';
  return `requests: ${r.requests.toLocaleString('en-US')} over ${r.probes.length} probes${r.simulated ? ' (simulated host: figures in simulated GPU time)' : ''}${cached}`;
}

/** Chart (when asked), table and the three result lines. */
export function capacityText(r: CapacityRecord, o: { label: string; gpus: number; chartWidth?: number; maxLoad?: number }): string[] {
  const sweep = probeSweep(r, o.label);
  const a = analyseSweeps([sweep], o.gpus, sloOf(r));
  const t = sweepTable([sweep], a, true);
  const chart = o.chartWidth ? [...renderChart(chartSeries([sweep], a).series, o.chartWidth, 18), ''] : [];
  return [...chart, formatTable(t.head, t.rows), '', answerLine(r, o.maxLoad), goodputLine(r), requestsLine(r)];
}

/** The report's section: the answer, the chart, every probe. */
export function capacityMarkdown(r: CapacityRecord, gpus: number): string[] {
  const sweep = probeSweep(r, 'capacity');
  const a = analyseSweeps([sweep], gpus, sloOf(r));
  const t = sweepTable([sweep], a, true);
  const out = ['## Capacity under the SLO', ''];
  out.push(
    `Searched by ${r.by} on the ${r.workload} workload, ${r.at.slice(0, 10)}: doubling to bracket, then bisecting to ${r.resolution}.` +
      (r.simulated ? ' **Simulated host: the numbers come from a performance model, not a GPU.**' : ''),
    '',
    `**${answerLine(r).replace(/^answer: /, 'Answer: ')}.** ${goodputLine(r).replace(/^goodput/, 'Goodput')}. ${requestsLine(r).replace(/^requests/, 'Requests')}.`,
    '',
  );
  if (r.chart) out.push(`![Each probe: throughput per GPU against tokens per second per user](${encodeURI(r.chart)})`, '');
  out.push(`| ${t.head.join(' | ')} |`, `| ${t.head.map((_, i) => (i === 0 || i > 4 ? '---' : '---:')).join(' | ')} |`);
  for (const row of t.rows) out.push(`| ${row.join(' | ')} |`);
  out.push('');
  return out;
}

/** The probes as the sweep's SVG chart, the answer ringed. */
export function capacitySvg(r: CapacityRecord, o: { title: string; gpus: number }): string {
  const sweep = probeSweep(r, `probes (${r.by})`);
  const a = analyseSweeps([sweep], o.gpus, sloOf(r));
  const { series, titles, labels } = chartSeries([sweep], a);
  const p = a.points.find((q) => q.load.value === r.answer);
  const highlight = p ? { x: p.tokPerUser, y: p.tokPerGpu, text: `capacity at ${r.slo}: ${loadPhrase(r.by, p.load.value)}` } : undefined;
  const subtitle = `SLO ${r.slo}. ${r.simulated ? 'Simulated host (performance model), not measured on a GPU.' : `Measured ${r.at.slice(0, 10)}.`}`;
  return renderSvg(series, { title: o.title, subtitle, pointTitles: titles, pointLabels: labels, ...(highlight ? { highlight } : {}) });
}
