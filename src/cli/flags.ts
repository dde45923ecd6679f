// A small argv parser for vLLM-style flags: `--flag value`, `--flag=value`, booleans, and
// argparse-style nargs='+' lists (`--goodput ttft:500 tpot:50`). Underscores in flag names are
// accepted as dashes, as vLLM's FlexibleArgumentParser does.
import { UserError } from '../core/errors.js';

export type FlagKind = 'string' | 'number' | 'boolean' | 'list';

export interface FlagSpec {
  kind: FlagKind;
  help: string;
  /** Shown in --help as the value name. */
  metavar?: string;
  default?: string;
}

export type ParsedArgs = Record<string, string | boolean | string[] | number | undefined>;

export function parseFlags(
  argv: readonly string[],
  specs: Record<string, FlagSpec>,
  command: string,
): { flags: ParsedArgs; positional: string[] } {
  const flags: ParsedArgs = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--') || a === '--') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = (eq < 0 ? a.slice(2) : a.slice(2, eq)).replaceAll('_', '-');
    const inline = eq < 0 ? undefined : a.slice(eq + 1);
    const spec = specs[name];
    if (!spec) throw new UserError(`${command}: unknown option --${name}. Run 'servelab ${command} --help' for the list.`);
    if (spec.kind === 'boolean') {
      if (inline !== undefined) throw new UserError(`${command}: --${name} takes no value`);
      flags[name] = true;
      continue;
    }
    if (spec.kind === 'list') {
      const values: string[] = inline !== undefined ? [inline] : [];
      while (i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) values.push(argv[++i]!);
      if (values.length === 0) throw new UserError(`${command}: --${name} needs at least one value`);
      flags[name] = [...((flags[name] as string[] | undefined) ?? []), ...values];
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new UserError(`${command}: --${name} needs a value`);
    if (spec.kind === 'number') {
      const x = value === 'inf' ? Infinity : Number(value);
      if (Number.isNaN(x) || value.trim() === '') throw new UserError(`${command}: --${name} must be a number, got '${value}'`);
      flags[name] = x;
    } else flags[name] = value;
  }
  return { flags, positional };
}

export function formatHelp(usage: string, specs: Record<string, FlagSpec>, footer = ''): string {
  const rows = Object.entries(specs).map(([name, s]) => {
    const left = `  --${name}${s.kind === 'boolean' ? '' : ` ${s.metavar ?? (s.kind === 'list' ? 'VALUE...' : s.kind === 'number' ? 'N' : 'VALUE')}`}`;
    const def = s.default !== undefined ? ` (default: ${s.default})` : '';
    return left.length < 34 ? `${left.padEnd(34)}${s.help}${def}` : `${left}\n${' '.repeat(34)}${s.help}${def}`;
  });
  return [usage, '', 'Options:', ...rows, ...(footer ? ['', footer] : [])].join('\n') + '\n';
}
