// Every command's flags are one kind of table, `{ name: FlagSpec }`, read by one of two dialects:
// - parseStrict: servelab's own flags, node:util parseArgs (short flags such as -h and -y,
//   repeated `list` flags); its errors read as node words them, one line.
// - parseFlags: the flags copied from `vllm bench serve` (bench, capacity, import): argparse
//   habits, so underscores read as dashes, a `list` takes every word up to the next flag
//   (`--goodput ttft:500 tpot:50`), `number` values are checked, and --help is built from the table.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UserError } from '../core/errors.js';

export type FlagKind = 'string' | 'number' | 'boolean' | 'list';

export interface FlagSpec {
  kind: FlagKind;
  /** One line for the generated --help (tables whose usage text is written out leave it out). */
  help?: string;
  /** Shown in --help as the value name. */
  metavar?: string;
  default?: string;
  /** The one-letter alias (strict dialect only), e.g. 'y' for --yes. */
  short?: string;
}

export type FlagTable = Readonly<Record<string, FlagSpec>>;

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
    const help = s.help ?? '';
    return left.length < 34 ? `${left.padEnd(34)}${help}${def}` : `${left}\n${' '.repeat(34)}${help}${def}`;
  });
  return [usage, '', 'Options:', ...rows, ...(footer ? ['', footer] : [])].join('\n') + '\n';
}

/**
 * node:util parseArgs's error as one line without its trailing period (the callers add where to
 * look next). Its texts span lines or speak of positionals; these are the ones a user meets:
 * `--gpus -1` or `--gpus --sim` ("argument is ambiguous": the next word starts with '-') and an
 * unknown flag when positionals are allowed ("To specify a positional argument starting with ...").
 */
export function parseArgsMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const ambiguous = /^Option '(-[^']*)' argument is ambiguous/.exec(text);
  if (ambiguous) {
    const flag = ambiguous[1]!;
    return `${flag} needs a value; to give one that starts with '-', write ${flag}=VALUE`;
  }
  return text
    .split('\n')[0]!
    .replace(/\. To specify a positional argument.*$/, '')
    .replace(/\.$/, '');
}

type NodeOptions = NonNullable<ParseArgsConfig['options']>;

/** The values the strict dialect gives for a table: booleans, strings, and string lists. */
export type FlagValues<T extends FlagTable> = {
  [K in keyof T]?: T[K] extends { kind: 'boolean' } ? boolean : T[K] extends { kind: 'list' } ? string[] : string;
};

function nodeOptions(table: FlagTable): NodeOptions {
  const out: NodeOptions = {};
  for (const [name, s] of Object.entries(table)) {
    out[name] = {
      type: s.kind === 'boolean' ? 'boolean' : 'string',
      ...(s.kind === 'list' ? { multiple: true } : {}),
      ...(s.short ? { short: s.short } : {}),
    };
  }
  return out;
}

/**
 * The strict dialect: node:util parseArgs over the table. A bad flag is one UserError whose text
 * is `hint` applied to node's message (each caller says where to look next).
 */
export function parseStrict<const T extends FlagTable>(
  argv: readonly string[],
  table: T,
  opts: { allowPositionals: boolean; hint: (message: string) => string },
): { values: FlagValues<T>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: nodeOptions(table),
      strict: true,
      allowPositionals: opts.allowPositionals,
    });
    return { values: values as FlagValues<T>, positionals };
  } catch (e) {
    throw new UserError(opts.hint(parseArgsMessage(e)));
  }
}
