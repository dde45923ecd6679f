// Wizard state: which screen is shown and what the user chose on each. A pure reducer; lists
// that come from the core (GPU types, recent models, plan rows) arrive in the action payloads.
// The widgets' reducers do the editing: the focused field is a text field (widgets/text-field),
// the plan a checklist (widgets/checklist), the results pages a pager (widgets/paged-table).
import { SESSION_OBJECTIVES } from '../../tune/config/rules.js';
import { SCENARIOS, type WorkloadForm } from '../services/types.js';
import { VALIDATION_HINT } from '../services/validation-form.js';
import { shapeFieldOf } from '../services/reuse-form.js';
import { checklistReducer, type ChecklistState } from '../widgets/checklist/state.js';
import { pageStep } from '../widgets/paged-table/state.js';
import { textFieldReducer, type TextFieldAction, type TextFieldState } from '../widgets/text-field/state.js';

export type ScreenId = 'host' | 'model' | 'plan' | 'run' | 'results' | 'save';

export type FieldKey = keyof WorkloadForm;
export interface FieldSpec {
  key: FieldKey;
  label: string;
  kind: 'text' | 'number' | 'choice';
  choices?: readonly string[];
  /** Shown dimmed while the field is empty: what goes there. */
  hint?: string;
}

export const FIELDS: readonly FieldSpec[] = [
  { key: 'model', label: 'Model', kind: 'text' },
  { key: 'scenario', label: 'Scenario', kind: 'choice', choices: SCENARIOS },
  { key: 'datasetPath', label: 'ShareGPT path', kind: 'text', hint: 'path of a ShareGPT JSON file' },
  { key: 'inputLen', label: 'Input tokens', kind: 'number' },
  { key: 'outputLen', label: 'Output tokens', kind: 'number' },
  { key: 'prefixShape', label: 'Prefix shape', kind: 'text', hint: 'PREFIX/SUFFIX/PREFIXES/OUT, e.g. 256/256/10/128' },
  { key: 'turnsShape', label: 'Conversations', kind: 'text', hint: 'USERS/TURNS[/SYSTEM/IN/OUT], e.g. 8/6' },
  { key: 'tracePath', label: 'Trace file', kind: 'text', hint: 'path of a Mooncake JSONL (servelab trace-gen)' },
  { key: 'numPrompts', label: 'Prompts', kind: 'number' },
  { key: 'seed', label: 'Seed', kind: 'number' },
  { key: 'objective', label: 'Objective', kind: 'choice', choices: SESSION_OBJECTIVES },
  { key: 'slo', label: 'SLOs', kind: 'text', hint: 'none (e.g. ttft:p99<2000,tpot:mean<100)' },
  { key: 'sweep', label: 'Sweep', kind: 'text', hint: 'e.g. concurrency:1,8,32,128 (frontier: 1,4,16,64,256)' },
  { key: 'validation', label: 'Validation', kind: 'text', hint: VALIDATION_HINT },
  { key: 'capacity', label: 'Capacity SLO', kind: 'text', hint: "none (e.g. ttft:p99<2000: the winner's most users)" },
  { key: 'quality', label: 'Quality', kind: 'number', hint: 'none (e.g. 8 greedy prompts)' },
  { key: 'qualityFloor', label: 'Quality floor', kind: 'text', hint: 'none (e.g. 0.9 exact match to win)' },
];

export interface WizardState {
  screen: ScreenId;
  host: { gpuType: string; gpuCount: number };
  form: WorkloadForm;
  focus: number;
  /** The cursor in the focused text field; null = at the end (where a newly focused field puts it). */
  cursor: number | null;
  recentIndex: number;
  plan: ChecklistState;
  /** Dummy weights for the tuning launches (--dummy-weights), flipped on the Plan screen. */
  dummyWeights: boolean;
  resultsPage: number;
}

export type WizardAction =
  | { type: 'go'; screen: ScreenId }
  | { type: 'gpu-step'; types: readonly string[]; dir: 1 | -1 }
  | { type: 'count-step'; dir: 1 | -1; max: number }
  | { type: 'field-step'; dir: 1 | -1 }
  | { type: 'choice-step'; dir: 1 | -1 }
  /** A readline edit of the focused text field. */
  | { type: 'edit'; edit: TextFieldAction }
  | { type: 'type'; text: string }
  | { type: 'backspace' }
  | { type: 'set-field'; key: FieldKey; value: string }
  | { type: 'recent'; models: readonly string[] }
  | { type: 'plan-move'; dir: 1 | -1; rows: number }
  | { type: 'plan-toggle'; ids: readonly string[] }
  | { type: 'dummy-weights' }
  | { type: 'results-page'; dir: 1 | -1; pages: number };

export function initialWizard(init: {
  gpuType: string;
  gpuCount: number;
  form: WorkloadForm;
  screen?: ScreenId;
  dummyWeights?: boolean;
}): WizardState {
  return {
    screen: init.screen ?? 'host',
    host: { gpuType: init.gpuType, gpuCount: init.gpuCount },
    form: init.form,
    focus: 0,
    cursor: null,
    recentIndex: -1,
    plan: { focus: 0, disabled: [] },
    dummyWeights: init.dummyWeights ?? false,
    resultsPage: 0,
  };
}

const GPU_COUNTS = [1, 2, 4, 8];

function cycle<T>(list: readonly T[], current: T, dir: 1 | -1): T {
  const i = list.indexOf(current);
  return list[(i + dir + list.length) % list.length]!;
}

/**
 * Fields that apply: the ShareGPT path only for the ShareGPT scenario, lengths only for random, a
 * reuse workload's shape only for it; multi-turn counts conversations in its shape, not prompts.
 */
export function visibleFields(form: WorkloadForm): FieldSpec[] {
  const shape = shapeFieldOf(form.scenario);
  return FIELDS.filter((f) => {
    if (f.key === 'datasetPath') return form.scenario === 'sharegpt';
    if (f.key === 'inputLen' || f.key === 'outputLen') return form.scenario === 'random';
    if (f.key === 'prefixShape' || f.key === 'turnsShape' || f.key === 'tracePath') return f.key === shape;
    if (f.key === 'numPrompts') return form.scenario !== 'multi-turn';
    return true;
  });
}

export function focusedField(s: WizardState): FieldSpec {
  const fields = visibleFields(s.form);
  return fields[Math.min(s.focus, fields.length - 1)]!;
}

/** What a field keeps of typed text: digits in a number field, no control characters anywhere. */
function accepted(text: string, spec: FieldSpec): string {
  return spec.kind === 'number' ? text.replace(/[^0-9]/g, '') : text.replace(/[\x00-\x1f\x7f]/g, '');
}

/** The focused field as a text field, with the cursor where the user left it. */
export function focusedText(s: WizardState): TextFieldState {
  const value = String(s.form[focusedField(s).key]);
  return { value, cursor: s.cursor ?? [...value].length };
}

function edit(s: WizardState, a: TextFieldAction): WizardState {
  const spec = focusedField(s);
  if (spec.kind === 'choice') return s;
  const action = a.type === 'insert' ? { ...a, text: accepted(a.text, spec) } : a;
  const next = textFieldReducer(focusedText(s), action);
  return { ...s, cursor: next.cursor, form: { ...s.form, [spec.key]: next.value } };
}

export function wizardReducer(s: WizardState, a: WizardAction): WizardState {
  switch (a.type) {
    case 'go':
      return { ...s, screen: a.screen };
    case 'gpu-step':
      return a.types.length
        ? { ...s, host: { ...s.host, gpuType: cycle(a.types, a.types.includes(s.host.gpuType) ? s.host.gpuType : a.types[0]!, a.dir) } }
        : s;
    case 'count-step': {
      const allowed = GPU_COUNTS.filter((n) => n <= a.max);
      const i = allowed.indexOf(s.host.gpuCount);
      const next = allowed[Math.min(allowed.length - 1, Math.max(0, (i < 0 ? 0 : i) + a.dir))] ?? 1;
      return { ...s, host: { ...s.host, gpuCount: next } };
    }
    case 'field-step': {
      const n = visibleFields(s.form).length;
      return { ...s, cursor: null, focus: (Math.min(s.focus, n - 1) + a.dir + n) % n };
    }
    case 'choice-step': {
      const spec = focusedField(s);
      if (spec.kind !== 'choice' || !spec.choices) return s;
      const form = { ...s.form, [spec.key]: cycle(spec.choices, s.form[spec.key] as string, a.dir) } as WorkloadForm;
      // Keep focus on the same field even when the set of visible fields changes.
      const focus = visibleFields(form).findIndex((f) => f.key === spec.key);
      return { ...s, form, focus };
    }
    case 'edit':
      return edit(s, a.edit);
    case 'type':
      return edit(s, { type: 'insert', text: a.text });
    case 'backspace':
      return edit(s, { type: 'delete-back' });
    case 'set-field':
      return { ...s, cursor: null, form: { ...s.form, [a.key]: a.value } };
    case 'recent': {
      if (a.models.length === 0) return s;
      const recentIndex = (s.recentIndex + 1) % a.models.length;
      return { ...s, recentIndex, focus: 0, cursor: null, form: { ...s.form, model: a.models[recentIndex]! } };
    }
    case 'plan-move':
      return { ...s, plan: checklistReducer(s.plan, { type: 'move', dir: a.dir, total: a.rows }) };
    case 'plan-toggle':
      return { ...s, plan: checklistReducer(s.plan, { type: 'toggle', ids: a.ids }) };
    case 'dummy-weights':
      return { ...s, dummyWeights: !s.dummyWeights };
    case 'results-page':
      return { ...s, resultsPage: pageStep(s.resultsPage, a.dir, a.pages) };
  }
}
