// The sweep API the tuning session and the commands use. For `--objective frontier`:
//   const spec = parseSweep(flag);                                   // --sweep, exit 2 on bad input
//   const sweeps = await sweepVariants(finalists, scenario, spec, ctx); // one launch per variant
//   const a = analyseSweeps(sweeps, gpus, slo);                      // frontier + a.choice
//   profile.sweep = sweepRecord(sweeps, a, { spec, workload, gpus, slo, sweepAll, simulated });
import type { Variant } from '../core/variant.js';
import type { Scenario } from './scenarios.js';
import { sweepVariant, type SweepContext, type VariantSweep } from './sweep-run.js';
import type { SweepSpec } from '../sweep/spec.js';

export { analyseSweeps, chartSeries, formatTable, frontierNotes, sweepTable, type SweepAnalysis } from '../sweep/analyse.js';
export { compareSweeps, type SweepComparison } from '../sweep/compare.js';
export { chooseForSlo, paretoFrontier, toFrontierPoint, type Frontier, type FrontierPoint, type SloChoice } from '../sweep/frontier.js';
export { sweepRecord, SweepRecordSchema, sweepsOf, type SweepRecord } from '../sweep/record.js';
export { sweepMarkdown } from '../sweep/report.js';
export { sweepVariant, type SweepContext, type SweepPoint, type VariantSweep } from './sweep-run.js';
export { formatSweep, loadLabel, parseSweep, type SweepLoad, type SweepSpec } from '../sweep/spec.js';
export { renderChart, renderChartCells } from '../sweep/chart-text.js';
export { renderSvg } from '../sweep/chart-svg.js';

/**
 * Sweep each variant in turn (each on its own launch), named by its label or id. The journal in
 * ctx makes the whole list resumable. Throws the runner's AbortedError on abort.
 */
export async function sweepVariants(variants: readonly Variant[], base: Scenario, spec: SweepSpec, ctx: SweepContext): Promise<VariantSweep[]> {
  const out: VariantSweep[] = [];
  for (const v of variants) out.push(await sweepVariant(v, v.label ?? v.id, base, spec, ctx));
  return out;
}
