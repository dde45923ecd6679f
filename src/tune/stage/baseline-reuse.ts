// Validation that does not pay twice: a baseline already measured for validation in an
// earlier run folder of the same parent (--runs-dir) is reused when everything that could change
// its figures is the same: the host fingerprint (GPU, count, driver, real or simulated, and on the
// simulated host its seed and --truth file), the engine release, the model, the variant's command
// (knobs) and the scenario. `--fresh-baseline` measures it again. Reused rows say where and when.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { VariantResult } from '../../core/events.js';
import type { Scenario } from '../../core/scenario.js';
import type { SessionContext } from '../context/session-context.js';
import type { SessionConfig } from '../config/config.js';
import type { PlanHost } from '../../engines/kit/plan-types.js';
import { reusableForValidation, validationKey } from '../decide/validate.js';
import { scenarioKey } from '../launch/workloads.js';

interface Found {
  result: VariantResult;
  runDir: string;
}

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

/** The same host and model as far as the baseline's figures go. */
function sameSetup(ctx: SessionContext, config: SessionConfig | undefined, host: PlanHost | undefined): boolean {
  const here = ctx.planHost;
  if (!config || !host || config.model !== ctx.config.model) return false;
  if (
    host.gpuName !== here.gpuName ||
    host.gpuCount !== here.gpuCount ||
    host.simulated !== here.simulated ||
    (host.driver ?? '') !== (here.driver ?? '')
  )
    return false;
  const a = config.sim;
  const b = ctx.config.sim;
  return (
    !a === !b &&
    (!a ||
      (a.gpu === b!.gpu &&
        a.gpus === b!.gpus &&
        a.seed === b!.seed &&
        (a.truth ?? '') === (b!.truth ?? '') &&
        (a.nodes ?? 1) === (b!.nodes ?? 1)))
  );
}

/** Earlier validation measurements of `side` on `scenarios`, newest run first, by scenario name. */
export function earlierBaseline(ctx: SessionContext, side: VariantResult, scenarios: readonly Scenario[]): Map<string, Found> {
  const found = new Map<string, Found>();
  const parent = ctx.config.runsDir;
  if (ctx.config.freshBaseline || !existsSync(parent)) return found;
  const here = resolve(ctx.journal.dir);
  const dirs = readdirSync(parent)
    .map((d) => join(parent, d))
    .filter((d) => resolve(d) !== here && existsSync(join(d, 'results')))
    .sort()
    .reverse();
  const wanted = new Map(scenarios.map((s) => [validationKey(scenarioKey(s)), s.name]));
  const version = ctx.versions[side.variant.engine];
  for (const dir of dirs) {
    const state = readJson(join(dir, 'session.json')) as { config?: SessionConfig } | undefined;
    const plan = readJson(join(dir, 'plan.json')) as { host?: PlanHost } | undefined;
    if (!sameSetup(ctx, state?.config, plan?.host)) continue;
    for (const f of readdirSync(join(dir, 'results')).filter((n) => n.endsWith('.json'))) {
      const e = readJson(join(dir, 'results', f)) as { key?: string; role?: string; result?: VariantResult } | undefined;
      const r = e?.result;
      const name = e?.key ? wanted.get(e.key.replace(/^[^@]*@/, '').replace(/#\d+$/, '')) : undefined;
      if (
        !r ||
        e?.role !== 'validate' ||
        !name ||
        found.has(name) ||
        r.variantId !== side.variantId ||
        r.status !== 'ok' ||
        !reusableForValidation(r, false)
      )
        continue;
      if (JSON.stringify(r.variant.knobs) !== JSON.stringify(side.variant.knobs) || r.variant.model !== side.variant.model) continue;
      if (version && r.variant.engineVersion && r.variant.engineVersion !== version) continue;
      found.set(name, { result: r, runDir: dir });
    }
  }
  return found;
}

/** The warning line of a reused baseline: where and when it was measured, and how to measure it again. */
export function reusedLine(side: VariantResult, found: Map<string, Found>): string {
  const when = [...new Set([...found.values()].map((f) => `${f.runDir} (${f.result.finishedAt.slice(0, 16).replace('T', ' ')} UTC)`))];
  return `baseline ${side.variantId}: ${[...found.keys()].join(', ')} reused from ${when.join(', ')}, same host, engine release, model and workload; --fresh-baseline measures it again`;
}
