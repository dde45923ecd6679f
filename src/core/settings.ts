// Settings the user repeats (engines, ports, dataset path, price, SLOs), persisted as JSON in the
// user's config folder (src/core/settings-file.ts). SERVELAB_CONFIG_DIR moves the store (tests
// never touch the real one). Keys are the flag names of `servelab --auto`, so a saved setting is
// a default flag.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from './errors.js';
import { parseNumberArg } from './number-arg.js';
import { isObjective, OBJECTIVES, parseObjective, type Objective } from './objective.js';
import { defaultSettingsDir, readSettingsFile, settingsPath, writeSettingsFile } from './settings-file.js';
import { parseSlo } from './slo-rule.js';
import { ENGINES, type EngineName } from './variant.js';

export interface SettingValues {
  engines?: EngineName[];
  port?: number;
  'dataset-path'?: string;
  'gpu-hour-price'?: number;
  slo?: string;
  objective?: string;
  margin?: number;
  out?: string;
  'ready-timeout'?: number;
  'profiles-dir'?: string;
  'recent-models'?: string[];
}

export type SettingKey = keyof SettingValues;

interface SettingDef {
  help: string;
  /** Parse and check the text a user types; throws UserError with what to type instead. */
  parse(text: string): unknown;
  /** Kept by servelab itself (shown by list, not set by hand). */
  internal?: boolean;
}

export function parseEngines(text: string): EngineName[] {
  const list = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!list.length) throw new UserError(`engines: give one or more of ${ENGINES.join(', ')}, comma-separated`);
  for (const e of list) {
    if (!(ENGINES as readonly string[]).includes(e)) throw new UserError(`unknown engine '${e}': use ${ENGINES.join(', ')}`);
  }
  return [...new Set(list)] as EngineName[];
}

/**
 * A saved stage objective, in the config key's words. `frontier` is refused: it makes the session
 * a load sweep that needs --slo (src/tune/request/from-flags.ts), a choice for one run, not a default.
 */
function parseSavedObjective(text: string): Objective {
  if (isObjective(text)) return parseObjective(text);
  const frontier =
    text.trim().toLowerCase() === 'frontier'
      ? ' (frontier runs a load sweep: pass --objective frontier --slo ... to servelab --auto; it is not saved)'
      : '';
  throw new UserError(`objective: use one of ${OBJECTIVES.join(', ')}, got '${text}'${frontier}`);
}

export const SETTINGS: Record<SettingKey, SettingDef> = {
  engines: { help: 'engines to try, comma-separated (vllm,sglang,trtllm)', parse: parseEngines },
  port: { help: 'first port for launched servers', parse: (t) => parseNumberArg('port', t, { integer: true, min: 1024, max: 65535 }) },
  'dataset-path': {
    help: 'ShareGPT JSON used for the ShareGPT scenario',
    parse: (t) => {
      const p = resolve(t);
      if (!existsSync(p)) throw new UserError(`dataset-path: ${t}: no such file`);
      return p;
    },
  },
  'gpu-hour-price': { help: 'price of one GPU-hour in $, for $ per million tokens', parse: (t) => parseNumberArg('gpu-hour-price', t) },
  slo: {
    help: 'SLO filters, e.g. "ttft:p99<2000,tpot:mean<100"',
    parse: (t) => {
      parseSlo(t, 'slo');
      return t.trim();
    },
  },
  objective: { help: 'total | output | request | goodput', parse: parseSavedObjective },
  margin: { help: 'noise margin in % a challenger must beat the winner by', parse: (t) => parseNumberArg('margin', t, { max: 100 }) },
  out: { help: 'folder that receives profiles/ and reports', parse: (t) => resolve(t) },
  'ready-timeout': {
    help: 'seconds to wait for a real engine to become ready',
    parse: (t) => parseNumberArg('ready-timeout', t, { min: 1 }),
  },
  'profiles-dir': { help: "the user's profile folder (servelab profiles lists it)", parse: (t) => resolve(t) },
  'recent-models': {
    help: 'models used recently (kept by servelab)',
    parse: (t) =>
      t
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    internal: true,
  },
};

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

function unknownKey(key: string): UserError {
  return new UserError(`unknown setting '${key}': use one of ${Object.keys(SETTINGS).join(', ')}`);
}

export interface Settings {
  /** Where the settings file lives. */
  readonly path: string;
  get<K extends SettingKey>(key: K): SettingValues[K];
  /** Parse the user's text for `key`, store it and return the stored value. */
  set(key: string, text: string): unknown;
  unset(key: string): void;
  all(): SettingValues;
  addRecentModel(model: string, keep?: number): void;
}

export function openSettings(dir = process.env.SERVELAB_CONFIG_DIR): Settings {
  const path = settingsPath(dir || defaultSettingsDir());
  // Read on every call, as conf did: a value another servelab process saved is seen at once.
  const read = () => readSettingsFile(path) as SettingValues;
  const update = (change: (data: SettingValues) => void) => {
    const data = read();
    change(data);
    writeSettingsFile(path, data as Record<string, unknown>);
  };
  return {
    path,
    get: (key) => read()[key],
    set(key, text) {
      if (!isSettingKey(key)) throw unknownKey(key);
      const value = SETTINGS[key].parse(text);
      update((d) => ((d as Record<string, unknown>)[key] = value));
      return value;
    },
    unset(key) {
      if (!isSettingKey(key)) throw unknownKey(key);
      update((d) => delete d[key]);
    },
    all: () => ({ ...read() }),
    addRecentModel(model, keep = 10) {
      update((d) => {
        const list = (d['recent-models'] ?? []).filter((m) => m !== model);
        d['recent-models'] = [model, ...list].slice(0, keep);
      });
    },
  };
}
