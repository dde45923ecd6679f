// The Model screen's workloads with reuse: shared prefixes (vLLM's prefix_repetition), multi-turn
// conversations and a Mooncake trace file. Each is one text field whose value is the shape the
// command line's --scenario takes after its prefix, so the form and `--auto` name the same
// workload through the same parser (tune/config/scenarios.ts), and say the same when it is wrong.
import { parseScenario } from '../../tune/config/scenarios.js';
import type { WorkloadForm } from './types.js';

/** The scenarios that carry a shape, the field that holds it, and the --scenario prefix it goes after. */
const SHAPED = {
  'shared-prefix': { field: 'prefixShape', prefix: 'prefix:' },
  'multi-turn': { field: 'turnsShape', prefix: 'multi-turn:' },
  trace: { field: 'tracePath', prefix: 'trace:' },
} as const;

type Shaped = keyof typeof SHAPED;
type ShapeField = (typeof SHAPED)[Shaped]['field'];

const shaped = (scenario: string): scenario is Shaped => scenario in SHAPED;

/** The field a scenario's shape is typed in; undefined for the scenarios without one. */
export function shapeFieldOf(scenario: WorkloadForm['scenario']): ShapeField | undefined {
  return shaped(scenario) ? SHAPED[scenario].field : undefined;
}

/** The form's --scenario for a workload with reuse; undefined for the others. */
export function reuseScenarioFlag(f: WorkloadForm): string | undefined {
  if (!shaped(f.scenario)) return undefined;
  const { field, prefix } = SHAPED[f.scenario];
  return `${prefix}${f[field].trim()}`;
}

/** The problem with the shape typed, in --scenario's wording; null when it parses. */
export function reuseShapeProblem(f: WorkloadForm): string | null {
  const flag = reuseScenarioFlag(f);
  if (flag === undefined) return null;
  if (!f[SHAPED[f.scenario as Shaped].field].trim()) return `the ${f.scenario} workload needs its shape (see the field's hint)`;
  try {
    parseScenario(flag, { scale: 1 });
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The form's scenario and shape fields for a --scenario given on the command line with reuse. */
export function reuseFormDefaults(scenario: string | undefined): Partial<WorkloadForm> {
  const t = scenario?.trim() ?? '';
  for (const [kind, { field, prefix }] of Object.entries(SHAPED) as [Shaped, (typeof SHAPED)[Shaped]][])
    if (t.toLowerCase().startsWith(prefix)) return { scenario: kind, [field]: t.slice(prefix.length) };
  return {};
}

/** The shapes the form starts with: vLLM's prefix_repetition defaults, the bench's multi-turn defaults. */
export const SHAPE_DEFAULTS = { prefixShape: '256/256/10/128', turnsShape: '8/6', tracePath: '' } as const;
