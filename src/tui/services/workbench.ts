// The workbench's services wired to the real core: host and engine detection, model metadata,
// the planner and the session runner. The screens' typed choices become the same SessionConfig
// that `servelab --auto` builds from flags (form.ts, src/tune/request/from-flags.ts), so both front ends run one thing.
import { defaultRunsDir } from '../../host/xdg.js';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { Settings } from '../../core/settings.js';
import type { EngineName } from '../../core/variant.js';
import type { HostInfo } from '../../host/gpus.js';
import { detectHost } from '../../host/gpu-detect.js';
import { findGpu, gpuNames } from '../../model/gpus.js';
import { builtinModelIds } from '../../model/models.js';
import { type AutoFlagValues } from '../../tune/request/from-flags.js';
import type { SessionConfig } from '../../tune/config/config.js';
import { RULES } from '../../tune/config/rules.js';
import { realPlanDeps } from '../../tune/plan/deps.js';
import { estimateHostFor, validationSeconds } from '../../tune/plan/estimate-time.js';
import type { Plan } from '../../tune/plan/types.js';
import { realHostFor } from '../../tune/session/open.js';
import { planSession, runSession, type SessionOptions } from '../../tune/session/session.js';
import { checkCliFlags, checkForm, configFromChoices, formDefaults } from './form.js';
import type { Choices, PlannedSession, Services, SessionStarter, WorkbenchDefaults } from './types.js';
import { detectEngines, hostView, modelView, planView } from './view.js';
import { optionalNumberArg } from '../../core/number-arg.js';
import { SessionControl } from '../../tune/context/session-context.js';

/**
 * The plan's checklist as config: later stages are re-expanded from the winner actually carried,
 * so an unchecked candidate is dropped by what it changes ('quant=fp8'), which names it whatever
 * wins before; engine-stage candidates by id (they all change 'defaults'); a stage with every
 * candidate unchecked is left out.
 */
export function dropUnchecked(config: SessionConfig, plan: Plan, disabled: readonly string[]): SessionConfig {
  const off = new Set(disabled);
  const drop: string[] = [];
  const stagesOff = new Set<string>();
  for (const st of plan.stages) {
    const candidates = st.variants.filter((v) => v.status === 'planned');
    for (const v of candidates) if (off.has(v.variant.id)) drop.push(st.name === 'engine' ? v.variant.id : v.change);
    if (st.name !== 'engine' && candidates.length > 0 && candidates.every((v) => off.has(v.variant.id))) stagesOff.add(st.name);
  }
  return { ...config, drop: [...config.drop, ...new Set(drop)], stages: config.stages.filter((s) => !stagesOff.has(s)) };
}

export interface RealServicesOptions {
  /** The tuning flags given to `servelab`, by name, as `--auto` takes them (src/cli/auto-args.ts parses them). */
  flags: AutoFlagValues;
  settings: Settings;
  /** The session runner (runSession); tests pass one that records the config it is given. */
  run?: (config: SessionConfig, opts: SessionOptions) => Promise<unknown>;
}

export interface RealServices {
  services: Services;
  defaults: WorkbenchDefaults;
  /** The running session's promise (settles once its servers are stopped), or null. */
  activeSession(): Promise<unknown> | null;
}

function workbenchDefaults(flags: AutoFlagValues, settings: Settings): { defaults: WorkbenchDefaults; engines: EngineName[] } {
  const engines = checkCliFlags(flags, settings.all());
  const price = flags['gpu-hour-price'] ?? settings.get('gpu-hour-price');
  // Refused before the screens, in --auto's words: the Host screen cannot pick a GPU the catalog lacks.
  const gpu = flags.gpu as string | undefined;
  if (gpu !== undefined && !findGpu(gpu)) throw new UserError(`unknown GPU '${gpu}' for --gpu: use one of ${gpuNames().join(', ')}`);
  const defaults: WorkbenchDefaults = {
    gpuType: (flags.gpu as string | undefined) ?? 'H100',
    gpuCount: optionalNumberArg('--gpus', flags.gpus as string | undefined, RULES.simGpus) ?? 1,
    form: formDefaults(flags, settings),
    ...(price !== undefined ? { pricePerGpuHour: Number(price) } : {}),
    ...(flags['dummy-weights'] === true ? { dummyWeights: true } : {}),
  };
  return { defaults, engines };
}

export function realServices(opts: RealServicesOptions): RealServices {
  const flags = opts.flags;
  const { defaults, engines: asked } = workbenchDefaults(flags, opts.settings);
  let detected: HostInfo | undefined;
  let active: Promise<unknown> | null = null;
  const runsDir = (flags['runs-dir'] as string | undefined) ?? defaultRunsDir();

  async function plan(choices: Omit<Choices, 'disabled'>): Promise<PlannedSession> {
    const config = configFromChoices(flags, choices, opts.settings.all());
    const host = choices.host.simulated ? undefined : detected;
    const { plan, host: resolved } = await planSession(config, host ? { host } : {});
    const estHost = estimateHostFor(config, plan);
    const deps = realPlanDeps(config, resolved, config.runDir ?? join(config.runsDir, 'RUN'));
    const start =
      (disabled: readonly string[]): SessionStarter =>
      (onEvent, signal) => {
        const control = new SessionControl();
        const done = (opts.run ?? runSession)(dropUnchecked(config, plan, disabled), {
          onEvent,
          signal,
          control,
          ...(host ? { host } : {}),
        });
        active = done;
        return { done, skipVariant: (id) => control.skipVariant(id), stopAfterStage: () => control.stopAfterStage() };
      };
    const view = planView(
      plan,
      estHost,
      validationSeconds(plan, estHost, (v, s) => deps.predict(v, s)),
      { dummyWeights: config.dummyWeights === true },
    );
    return { view, start };
  }

  const services: Services = {
    async detectHost() {
      const sim = flags.sim === true;
      const llamaServer = flags['llama-server'] as string | undefined;
      const [found, engines] = await Promise.all([
        detectHost({ sim, gpu: defaults.gpuType, gpus: defaults.gpuCount }),
        detectEngines(llamaServer),
      ]);
      // A GGUF session on a host without a GPU runs llama.cpp on the CPU for real, as --auto does.
      const host = sim ? found : realHostFor(found, asked);
      detected = host;
      return hostView(host, engines, runsDir);
    },
    describeModel: modelView,
    recentModels() {
      // A local model file that is gone (a lab script's temporary GGUF, a moved folder) is no offer.
      const here = (m: string) => !(isAbsolute(m) || m.startsWith('./') || m.startsWith('../')) || existsSync(m);
      const recent = (opts.settings.get('recent-models') ?? []).filter(here);
      return [...new Set([...recent, ...builtinModelIds()])];
    },
    checkForm,
    plan,
    remember(choices) {
      try {
        opts.settings.addRecentModel(choices.form.model.trim());
      } catch {
        // A read-only config folder must not stop a run.
      }
    },
  };
  return { services, defaults, activeSession: () => active };
}
