// The workbench form against the tuning config: its defaults (command line, then saved settings),
// its checks (the rules and wording of `servelab --auto`, tune/config/rules.ts), and the SessionConfig
// it stands for, built from the typed choices with the same builder as the flags (configFromFlags).
import { UserError } from '../../core/errors.js';
import type { Settings, SettingValues } from '../../core/settings.js';
import { configFromFlags, type AutoFlagValues } from '../../tune/request/from-flags.js';
import { parseSweepFlags } from '../../tune/request/sweep-flags.js';
import { isGgufPath } from '../../tune/request/llamacpp-args.js';
import type { SessionConfig } from '../../tune/config/config.js';
import { checkDataset, checkObjectiveSlo, RULES, type SessionObjective } from '../../tune/config/rules.js';
import { objectiveLabel } from '../../tune/decide/decide.js';
import { scaled, SHAREGPT_PROMPTS } from '../../tune/config/scenarios.js';
import { parseSlo } from '../../core/slo-rule.js';
import type { Choices, WorkloadForm } from './types.js';
import { capacityFlags } from '../../tune/request/capacity-flags.js';
import { qualityFlags } from '../../tune/request/quality-flags.js';
import { optionalNumberArg } from '../../core/number-arg.js';
import { validationDefault, validationFieldProblem, validationFlags } from './validation-form.js';
import { reuseFormDefaults, reuseScenarioFlag, reuseShapeProblem, SHAPE_DEFAULTS } from './reuse-form.js';

/** The form's defaults: the command line's flags first, then saved settings, then the house defaults. */
export function formDefaults(flags: AutoFlagValues, settings: Settings): WorkloadForm {
  const s = (k: string) => flags[k] as string | undefined;
  const recent = settings.get('recent-models') ?? [];
  const dataset = s('dataset-path') ?? settings.get('dataset-path');
  const scen = s('scenario')?.toLowerCase();
  const rnd = scen ? /^random[-:](\d+)[-/](\d+)$/.exec(scen) : null;
  return {
    model: s('model') ?? recent[0] ?? 'Qwen/Qwen3-14B',
    scenario: rnd ? 'random' : scen === 'sharegpt' || (!scen && dataset) ? 'sharegpt' : 'sharegpt-like',
    datasetPath: dataset ?? '',
    inputLen: rnd?.[1] ?? '1024',
    outputLen: rnd?.[2] ?? '128',
    numPrompts: s('num-prompts') ?? scaledPrompts(s('scale')) ?? '200',
    seed: '42',
    objective: (s('objective')?.trim().toLowerCase() ?? settings.get('objective') ?? 'total') as WorkloadForm['objective'],
    slo: s('slo') ?? settings.get('slo') ?? '',
    sweep: s('sweep') ?? '',
    validation: validationDefault(s('validation')),
    capacity: s('capacity') ?? '',
    quality: s('quality') ?? '',
    qualityFloor: s('quality-floor') ?? '',
    ...SHAPE_DEFAULTS,
    ...reuseFormDefaults(s('scenario')),
  };
}

/**
 * The tuning workload's size for a --scale given on the command line: what `--auto` runs with the
 * same flags (1000 x scale), so the two front ends measure the same session. A bad scale is
 * left to the form's rules (they say so when the plan is built).
 */
function scaledPrompts(scale: string | undefined): string | undefined {
  const n = Number(scale);
  return scale !== undefined && Number.isFinite(n) && n > 0 ? String(scaled(SHAREGPT_PROMPTS, n)) : undefined;
}

/** Problems that block the Model screen, one line each, in the wording `--auto` uses for the same rule. */
export function checkForm(f: WorkloadForm): string[] {
  const out: string[] = [];
  const rule = (check: () => unknown) => {
    try {
      check();
    } catch (e) {
      out.push((e as Error).message);
    }
  };
  if (!f.model.trim()) out.push('give a model id (e.g. Qwen/Qwen3-14B) or a local folder with config.json');
  rule(() => optionalNumberArg('prompts', f.numPrompts, RULES.numPrompts));
  rule(() => optionalNumberArg('seed', f.seed, RULES.scenarioSeed));
  if (f.scenario === 'random') {
    rule(() => optionalNumberArg('input tokens', f.inputLen, RULES.tokens));
    rule(() => optionalNumberArg('output tokens', f.outputLen, RULES.tokens));
  }
  const shapeProblem = reuseShapeProblem(f);
  if (shapeProblem) out.push(shapeProblem);
  const validationProblem = validationFieldProblem(f);
  if (validationProblem) out.push(validationProblem);
  if (f.scenario === 'sharegpt') {
    if (!f.datasetPath.trim()) out.push('the ShareGPT scenario needs the path of a ShareGPT JSON file');
    else rule(() => checkDataset(f.datasetPath.trim()));
  }
  let slos = 0;
  if (f.slo.trim()) rule(() => (slos = parseSlo(f.slo).length));
  // A bad SLO has said so already: the objective rules then take it as given.
  const sloGiven = slos > 0 || Boolean(f.slo.trim());
  if (f.objective !== 'frontier' && (!f.slo.trim() || slos > 0)) {
    const objective = f.objective;
    rule(() => checkObjectiveSlo(objective, slos));
  }
  // The sweep levels and "frontier needs an SLO": the rule --sweep and --objective frontier meet on the command line.
  rule(() => parseSweepFlags(f.sweep.trim() || undefined, false, f.objective, sloGiven));
  // --capacity and --quality N / --quality-floor: the flags' own checks (tune/request/capacity-flags.ts, tune/request/quality-flags.ts).
  rule(() => capacityFlags(formCapacityQuality(f)));
  rule(() => qualityFlags(formCapacityQuality(f)));
  return out;
}

/** The form's capacity and quality fields as the flags they stand for ('' = not given). */
function formCapacityQuality(f: WorkloadForm): Record<string, string> {
  const given = (k: string, v: string) => (v.trim() ? { [k]: v.trim() } : {});
  return { ...given('capacity', f.capacity), ...given('quality', f.quality), ...given('quality-floor', f.qualityFloor) };
}

/** Flags the form owns: its value replaces any the command line gave. */
const FORM_OWNED = [
  'model',
  'scenario',
  'num-prompts',
  'dataset-path',
  'objective',
  'slo',
  'sweep',
  'validation',
  'sim',
  'gpu',
  'gpus',
  'dummy-weights',
  'capacity',
  'quality',
  'quality-floor',
] as const;

/**
 * The command line's flags that no screen asks for, checked by --auto's rules before the screens
 * open (only quitting could fix them there). The form's own values are left to the form: a fixed
 * known model and a random workload stand in for them (no dataset file is written). Returns the
 * engines the session will ask for.
 */
export function checkCliFlags(cli: AutoFlagValues, settings: SettingValues = {}): SessionConfig['engines'] {
  const values: AutoFlagValues = { ...cli };
  for (const k of FORM_OWNED) delete values[k];
  // The form starts from these three flags: checked here as --auto checks them (--quality-eval needs --quality).
  for (const k of ['capacity', 'quality', 'quality-floor']) if (cli[k] !== undefined) values[k] = cli[k];
  // A GGUF model (llama.cpp) stands in for itself: llama.cpp's flags need one, and it runs without the simulator.
  const gguf = typeof cli.model === 'string' && isGgufPath(cli.model);
  // The engines it names (llama.cpp's for a GGUF): they decide whether a host without a GPU is a real host.
  return configFromFlags(
    { ...values, model: gguf ? cli.model : 'Qwen/Qwen3-14B', ...(gguf ? {} : { sim: true }), scenario: 'random:1/1', validation: 'none' },
    settings,
  ).engines;
}

/**
 * The SessionConfig for the screens' choices: the command line's other flags, the form's values
 * in place of the ones it owns, through the same builder (and rules) as `servelab --auto`.
 */
export function configFromChoices(cli: AutoFlagValues, c: Omit<Choices, 'disabled'>, settings: SettingValues = {}): SessionConfig {
  const problems = checkForm(c.form);
  if (problems.length) throw new UserError(problems[0]!);
  const f = c.form;
  const values: AutoFlagValues = { ...cli };
  for (const k of FORM_OWNED) delete values[k];
  Object.assign(values, { model: f.model.trim(), 'num-prompts': f.numPrompts, objective: f.objective });
  if (c.host.simulated) Object.assign(values, { sim: true, gpu: c.host.gpuType, gpus: String(c.host.gpuCount) });
  const reuse = reuseScenarioFlag(f);
  // A multi-turn shape sizes itself (conversations per user): the Prompts field is hidden for it.
  if (f.scenario === 'multi-turn') delete values['num-prompts'];
  if (reuse) values.scenario = reuse;
  else if (f.scenario === 'random') values.scenario = `random:${f.inputLen}/${f.outputLen}`;
  else if (f.scenario === 'sharegpt') Object.assign(values, { scenario: 'sharegpt', 'dataset-path': f.datasetPath.trim() });
  else values.scenario = 'sharegpt-like';
  if (f.slo.trim()) values.slo = f.slo.trim();
  // The Plan screen's dummy-weights key stands for --dummy-weights (the flag's value until pressed).
  if (c.dummyWeights ?? cli['dummy-weights'] === true) values['dummy-weights'] = true;
  if (f.sweep.trim()) values.sweep = f.sweep.trim();
  Object.assign(values, formCapacityQuality(f));
  Object.assign(values, validationFlags(f.validation, cli.scale));
  return configFromFlags(values, settings, { scenarioSeed: Number(f.seed) });
}

/** The objective in the Results title. */
export function formObjectiveLabel(o: SessionObjective): string {
  return o === 'frontier' ? 'frontier: most tok/s/GPU within the SLO' : objectiveLabel(o);
}
