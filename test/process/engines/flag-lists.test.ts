// Every command any plan can emit, for every shipped model, a small and a large host of each
// shipped GPU, every engine and every known engine version, uses only flags (env vars, JSON keys,
// YAML keys) of that version's reference list (src/engines/data/flags/*.json, read from the
// engines' sources), and every enumerated value is one of that flag's choices.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it, vi } from 'vitest';
import { ENGINES, type EngineName, type Variant } from '../../../src/core/variant.js';
import { getAdapter } from '../../../src/engines/index.js';
import { rowAt, rowsAt, supportedKnobs } from '../../../src/engines/table.js';
import { KNOWN_VERSIONS } from '../../../src/engines/data/versions.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { GPUS } from '../../../src/model/gpus.js';
import { builtinModelIds, getModel } from '../../../src/model/models.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { planHost } from '../../../src/tune/plan/deps.js';
import { engineStage, expandStage } from '../../../src/tune/plan/plan.js';
import type { PlanDeps } from '../../../src/tune/plan/types.js';
import { findFp8Checkpoint } from '../../../src/tune/plan/checkpoint.js';
import type { PlanHost } from '../../../src/engines/kit/plan-types.js';
import { LLAMA_SKIP, testGguf } from '../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../helpers/skip.js';

// Each of the thousands of config parses below writes the same ShareGPT-like file: once is enough
// (it was three quarters of this file's time).
vi.mock('../../../src/sim/predict/sharegpt-jsonl.js', async (real) => {
  const { datasetWrittenOnce } = await import('../../helpers/tune/dataset-once.js');
  return datasetWrittenOnce(await real());
});

interface Entry {
  aliases?: string[];
  choices?: (string | number)[];
  bool?: boolean;
  json?: boolean;
  rejects?: Record<string, string>;
}
interface FlagList {
  engine: EngineName;
  version: string;
  flags: Record<string, Entry>;
  env?: Record<string, Entry>;
  json?: Record<string, Record<string, Entry>>;
  yaml?: Record<string, Entry>;
}

const DIR = path.join(import.meta.dirname, '../../../src/engines/data/flags');
const LISTS: FlagList[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(path.join(DIR, f), 'utf8')));
const listFor = (engine: EngineName, version: string) => LISTS.find((l) => l.engine === engine && l.version === version);
const ctx = { host: '127.0.0.1', port: 8000, runDir: '/run', runtime: { kind: 'native' as const } };

/** Problems of one variant's command against the list (empty: clean). */
function check(list: FlagList, v: Variant): string[] {
  const spec = getAdapter(v.engine).command(v, ctx);
  const bad: string[] = [];
  const byName = new Map<string, Entry>();
  for (const [name, e] of Object.entries(list.flags)) for (const n of [name, ...(e.aliases ?? [])]) byName.set(n, e);
  const argv = spec.engineArgv.slice(v.engine === 'sglang' ? 3 : v.engine === 'vllm' ? 3 : 2);
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    if (!tok.startsWith('-')) continue;
    const e = byName.get(tok);
    if (!e) {
      bad.push(`flag ${tok}`);
      continue;
    }
    if (e.bool) continue;
    const value = argv[++i]!;
    if (e.choices && !e.choices.map(String).includes(value)) bad.push(`${tok} ${value}`);
    if (e.rejects?.[value]) bad.push(`${tok} ${value}: ${e.rejects[value]}`);
    const keys = list.json?.[tok];
    if (e.json && keys) {
      for (const [k, val] of Object.entries(JSON.parse(value) as Record<string, unknown>)) {
        if (!keys[k]) bad.push(`${tok} key ${k}`);
        else if (keys[k]!.choices && !keys[k]!.choices!.map(String).includes(String(val))) bad.push(`${tok} ${k}=${val}`);
      }
    }
  }
  for (const [k, val] of Object.entries(spec.env)) {
    if (/^CUDA_/.test(k)) continue;
    const e = list.env?.[k];
    if (!e) bad.push(`env ${k}`);
    else if (e.choices && !e.choices.includes(val)) bad.push(`env ${k}=${val}`);
  }
  for (const f of spec.files) {
    const flat = (o: Record<string, unknown>, pre = ''): [string, unknown][] =>
      Object.entries(o).flatMap(([k, val]) => {
        const key = pre + k;
        return val && typeof val === 'object' && !Array.isArray(val)
          ? [[key, val] as [string, unknown], ...flat(val as Record<string, unknown>, `${key}.`)]
          : [[key, val] as [string, unknown]];
      });
    for (const [k, val] of flat(YAML.parse(f.content) as Record<string, unknown>)) {
      const e = list.yaml?.[k];
      if (!e) bad.push(`yaml ${k}`);
      else if (e.choices && !e.choices.map(String).includes(String(val))) bad.push(`yaml ${k}=${val}`);
    }
  }
  return bad;
}

/** What the planner reads from a table: the knobs it can set, its candidates and speculative methods. */
function plannerChoices(engine: EngineName, version: string): string {
  const rows = rowsAt(engine, version).filter((r) => r.candidates || r.knob === 'speculative.method');
  return JSON.stringify([
    [...supportedKnobs(engine, version)].sort(),
    rows.map((r) => [r.knob, r.candidates, Object.keys(r.values ?? {})]),
  ]);
}

function depsFor(engine: EngineName, version: string): PlanDeps {
  return {
    engineInfo: () => ({
      supports: supportedKnobs(engine, version),
      attentionBackends: rowAt(engine, 'attentionBackend', version)?.candidates ?? [],
    }),
    command: (v) => getAdapter(v.engine).command(v, ctx),
    preflight: () => ({ warnings: [] }),
    predict: () => undefined,
    fits: () => undefined,
    model: getModel,
    engineVersion: () => version,
  };
}

/** Every variant the stages can propose, expanding each stage from up to 4 variants of the one before. */
function allVariants(engine: EngineName, version: string, model: string, gpu: string, gpus: number): Variant[] {
  const config = parseAutoArgs([
    '--auto',
    '--sim',
    '--gpu',
    gpu,
    '--gpus',
    String(gpus),
    '--model',
    model,
    '--engines',
    engine,
    '--run-dir',
    '/tmp/x',
  ]).config!;
  return expandAll(engine, version, config, planHost(simulatedHost(gpu, gpus)));
}

/** llama.cpp serves a GGUF (a random-weight one here) on a CPU host of 2 and of 16 threads. */
function llamaVariants(version: string): Variant[] {
  const config = parseAutoArgs(['--auto', '--model', testGguf(), '--run-dir', '/tmp/x']).config!;
  const cpu = (threads: number): PlanHost => ({
    gpuName: 'CPU',
    gpuCount: 0,
    gpuMemMiB: 0,
    simulated: false,
    cpu: { threads, memAvailMiB: 64 * 1024 },
  });
  return [2, 16].flatMap((t) => expandAll('llamacpp', version, config, cpu(t)));
}

function expandAll(
  engine: EngineName,
  version: string,
  config: NonNullable<ReturnType<typeof parseAutoArgs>['config']>,
  host: PlanHost,
): Variant[] {
  const deps = depsFor(engine, version);
  const base = { config, host, deps, fp8Checkpoint: findFp8Checkpoint(config, deps) };
  const out: Variant[] = [];
  let carried = engineStage({ ...base, checkpoint: config.model, onlyFirst: false }).map((p) => p.variant);
  out.push(...carried);
  for (const stage of config.stages.filter((s) => s !== 'engine')) {
    const next = carried.flatMap((c) =>
      expandStage(stage, c, base)
        .variants.filter((p) => p.status !== 'pruned' && p.status !== 'dropped')
        .map((p) => p.variant),
    );
    out.push(...next);
    if (next.length) carried = next.slice(0, 4);
  }
  return out;
}

describe('reference flag lists', () => {
  it('exist for every known version of every engine', () => {
    for (const e of ENGINES) for (const k of KNOWN_VERSIONS[e]) expect(listFor(e, k.version), `${e} ${k.version}`).toBeDefined();
  });

  it('catch a flag the version does not have (the check can fail)', () => {
    const list = listFor('vllm', '0.11.0')!;
    expect(check(list, { id: 'x', engine: 'vllm', model: 'm', knobs: { extraArgs: ['--frobnicate', '1'] } })).toEqual([
      'flag --frobnicate',
    ]);
    expect(check(list, { id: 'x', engine: 'vllm', model: 'm', knobs: { torchCompile: false }, engineVersion: '0.11.1' })).toEqual([
      '--compilation-config key mode',
    ]);
  });

  // Every shipped model on a 1- and an 8-GPU host of every shipped GPU: the three studies' plans
  // (Qwen3-14B on H100, GLM-4.6 on 8 x A100, DeepSeek-R1 on 8 x H200) and Qwen3-32B on 8 x H100 are
  // among them.
  const models = builtinModelIds();
  const gpus = GPUS.map((g) => g.name);
  const enumerated = new Map<string, Variant[]>();
  /** The plan enumeration is shared by the releases whose tables give the planner the same choices. */
  function variantsFor(engine: EngineName, version: string): Variant[] {
    const key = `${engine} ${plannerChoices(engine, version)}`;
    let vs = enumerated.get(key);
    if (!vs) {
      vs = [];
      if (engine === 'llamacpp') vs.push(...llamaVariants(version));
      else
        for (const model of models)
          for (const gpu of gpus) for (const count of [1, 8]) vs.push(...allVariants(engine, version, model, gpu, count));
      enumerated.set(key, vs);
    }
    return vs.map((v) => ({ ...v, engineVersion: version }));
  }
  for (const engine of ENGINES) {
    for (const { version } of KNOWN_VERSIONS[engine]) {
      // llama.cpp's plans need a GGUF, written from the built source's vocabulary.
      it.skipIf(engine === 'llamacpp' && LLAMA_SKIP !== undefined)(
        `${engine} ${version}: every planned command uses only its flags and choices${skipNote(engine === 'llamacpp' && LLAMA_SKIP)}`,
        () => {
          const list = listFor(engine, version)!;
          const problems = new Set<string>();
          const vs = variantsFor(engine, version);
          for (const v of vs) for (const p of check(list, v)) problems.add(`${p} (${v.id})`);
          if (engine === 'llamacpp') expect(vs.length).toBeGreaterThan(10);
          else {
            expect(vs.length).toBeGreaterThan(50);
            expect(vs.some((v) => v.model === 'Qwen/Qwen3-32B')).toBe(true);
          }
          expect([...problems].slice(0, 10)).toEqual([]);
        },
        // Every shipped model on every catalogue GPU (14 parts): minutes on a loaded 2-core host.
        600_000,
      );
    }
  }
});
