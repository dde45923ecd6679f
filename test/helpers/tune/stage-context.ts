// A session context for driving the stage loop with no process: a simulated 8-GPU H100 host, a
// real journal in a temporary folder, and a scripted runner. For tests of measureStage and
// settleTies; the temporary folder is removed with removeStageDirs().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent, VariantResult } from '../../../src/core/events.js';
import type { Variant } from '../../../src/core/variant.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { CostLedger } from '../../../src/tune/cost/ledger.js';
import { Journal } from '../../../src/tune/context/journal.js';
import type { PlannedVariant, Plan } from '../../../src/tune/plan/types.js';
import { makeVariant } from '../../../src/tune/plan/variant-ids.js';
import { SessionControl, type RunRequest, type ScenarioRunner, type SessionContext } from '../../../src/tune/context/session-context.js';
import { variantGpuTime } from '../../../src/tune/cost/gpu-hours.js';
import { metricsFor } from './scripted-runner.js';

const dirs: string[] = [];
let n = 0;

export function removeStageDirs(): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Headless config of the test session (a fresh --out folder each time). */
export function stageConfig(extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'servelab-stage-'));
  dirs.push(dir);
  const args = ['--sim', '--gpus', '8', '--model', 'Qwen/Qwen3-14B', '--engines', 'vllm,sglang', '--stages', 'engine,batching'];
  return parseAutoArgs([
    ...args,
    '--scale',
    '0.02',
    '--validation',
    'sharegpt-like',
    '--out',
    dir,
    '--run-dir',
    join(dir, `run-${++n}`),
    ...extra,
  ]).config!;
}

export function stageContext(
  run: ScenarioRunner,
  extra: string[] = [],
  signal?: AbortSignal,
): { ctx: SessionContext; events: TuneEvent[] } {
  const c = stageConfig(extra);
  const events: TuneEvent[] = [];
  const planHost = { gpuName: 'H100', gpuCount: 8, gpuMemMiB: 81559, simulated: true } as SessionContext['planHost'];
  const ctx = {
    config: c,
    host: { simulated: true, gpus: [] } as unknown as SessionContext['host'],
    planHost,
    planDeps: {} as SessionContext['planDeps'],
    plan: {} as Plan,
    journal: Journal.create(c.runDir!, c),
    versions: {},
    emit: (e: TuneEvent) => events.push(e),
    ...(signal ? { signal } : {}),
    control: new SessionControl(),
    run,
    warnedClientBound: false,
    cost: new CostLedger(8, true),
  } satisfies SessionContext;
  return { ctx, events };
}

/** A planned engine-stage variant of Qwen3-14B at this TP. */
export const plannedTp = (engine: 'vllm' | 'sglang', t: number, extra = {}): PlannedVariant => ({
  variant: makeVariant(engine, 'Qwen/Qwen3-14B', { tp: t > 1 ? t : undefined, ...extra }, { model: 'Qwen/Qwen3-14B' }),
  stage: 'engine',
  change: 'defaults',
  status: 'planned',
  warnings: [],
});

/** A successful run at `total` tok/s that held its GPUs 160 simulated seconds. */
export function okStageResult(v: Variant, req: RunRequest, total: number, p99Tpot = 20): VariantResult {
  const m = { ...metricsFor(total), p99_tpot_ms: p99Tpot };
  const gpuTime = variantGpuTime({ gpus: v.knobs.tp ?? 1, launchS: 0, readyS: 60, stopS: 160 }, true);
  return {
    variantId: v.id,
    stage: req.stage,
    scenario: 'sharegpt-like',
    status: 'ok',
    variant: v,
    argv: ['sim-serve', v.id],
    metrics: m,
    startupS: 60,
    gpuTime,
    simulated: true,
    startedAt: 'a',
    finishedAt: 'b',
  };
}
