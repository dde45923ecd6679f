// `servelab --auto` and the workbench's argv: the --auto flag table parsed strictly, then handed to
// the one request builder (src/tune/request/from-flags.ts) that the workbench's form uses too.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import type { SettingValues } from '../core/settings.js';
import type { SessionConfig } from '../tune/config/config.js';
import { configFromFlags, type AutoFlagValues } from '../tune/request/from-flags.js';
import { AUTO_FLAGS } from './auto-flags.js';
import { parseStrict } from './flags.js';

export interface AutoOptions {
  help: boolean;
  dryRun: boolean;
  json: boolean;
  /** Run folder to resume (config comes from its journal). */
  resume?: string;
  /** Undefined only for --help and --resume. */
  config?: SessionConfig;
}

/** The flags that go with --resume: how to show the run, never what it runs. */
const RESUME_FLAGS = new Set(['auto', 'help', 'resume', 'dry-run', 'json']);

export function parseAutoArgs(argv: readonly string[], settings: SettingValues = {}): AutoOptions {
  const { values, positionals } = parseStrict(argv, AUTO_FLAGS, {
    allowPositionals: true,
    hint: (m) => `${m}; run 'servelab --auto --help' for the flags`,
  }) as { values: AutoFlagValues; positionals: string[] };
  const help = values.help === true;
  const dryRun = values['dry-run'] === true;
  const json = values.json === true;
  if (help) return { help, dryRun, json };
  if (positionals.length) throw new UserError(`unexpected argument '${positionals[0]}'; run 'servelab --auto --help' for the flags`);
  const resume = values.resume as string | undefined;
  if (resume !== undefined) {
    // The journal's settings are the run's: a flag that would change them is refused, not ignored.
    const changes = Object.keys(values).find((k) => !RESUME_FLAGS.has(k));
    if (changes)
      throw new UserError(`--resume continues a run with its recorded settings: drop --${changes} (or start a new run without --resume)`);
    const dir = resolve(resume);
    if (!existsSync(dir)) throw new UserError(`--resume ${resume}: no such folder`);
    return { help, dryRun, json, resume: dir };
  }
  return { help, dryRun, json, config: configFromFlags(values, settings) };
}

/** The workbench's argv: the --auto flags, no positionals (checked before the settings store is opened). */
export function parseTuiFlags(argv: readonly string[]): AutoFlagValues {
  const hint = (m: string) => `${m}; the workbench takes the same flags as 'servelab --auto --help'`;
  return parseStrict(argv, AUTO_FLAGS, { allowPositionals: false, hint }).values as AutoFlagValues;
}
