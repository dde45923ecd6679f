// The installed engine's own flag list, for a release whose facts servelab could not read: one
// newer than every knob table, or a table marked `readAt` (read at neighbouring releases, see
// data/versions.ts). Detection runs the engine's help once per session, before anything is
// launched; every command built afterwards (argv.ts finishSpec) is checked against it, and a
// flag the engine does not list is refused with one line naming the flag and the release. The
// help text is the source for that session and is kept in the run folder (writeEngineHelp).
//
//   helpCheckReason(engine, version) -> why the help must be read, or undefined
//   captureEngineHelp(engine, version, opts) -> Promise<InstalledHelp>  (never throws)
//   assertFlagsListed(engine, argv)  throws UserError for an unlisted flag
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../../core/errors.js';
import { ENGINE_LABEL, type EngineName } from '../../core/variant.js';
import { compareVersions, KNOWN_VERSIONS } from '../data/versions.js';

/**
 * Each engine's full help (vLLM groups its flags; --help=all prints every group). llama.cpp is
 * not here: its table is read from the binary's own --help already (scripts/llamacpp-flags.ts).
 */
type HelpEngine = 'vllm' | 'sglang' | 'trtllm';
export const HELP_ARGV: Readonly<Record<HelpEngine, readonly string[]>> = {
  vllm: ['vllm', 'serve', '--help=all'],
  sglang: ['python3', '-m', 'sglang.launch_server', '--help'],
  trtllm: ['trtllm-serve', 'serve', '--help'],
};

/** Leading argv words that are not flags: `vllm serve MODEL`, `python3 -m sglang.launch_server`, `trtllm-serve MODEL`. */
const COMMAND_WORDS: Readonly<Record<HelpEngine, number>> = { vllm: 3, sglang: 3, trtllm: 2 };
const hasHelp = (e: EngineName): e is HelpEngine => e in HELP_ARGV;

export interface InstalledHelp {
  engine: EngineName;
  version: string;
  /** Why the help was read (helpCheckReason). */
  why: string;
  /** The help text as the engine printed it, or undefined when it could not be run. */
  text?: string;
  /** Flags the text lists (long and short spellings). */
  flags: ReadonlySet<string>;
  /** Set when the help could not be run: then nothing is checked and the plan says so. */
  error?: string;
}

/** Why the installed release's help must be read, or undefined when a table holds for it. */
export function helpCheckReason(engine: EngineName, version: string | undefined): string | undefined {
  if (!hasHelp(engine)) return undefined;
  const clean = version?.trim().replace(/\+.*$/, '');
  if (!clean || !/^v?\d/.test(clean)) return undefined;
  const known = KNOWN_VERSIONS[engine];
  const newest = known.at(-1)!;
  if (compareVersions(clean, newest.version) > 0)
    return `${ENGINE_LABEL[engine]} ${version} is newer than every release servelab has read (newest: ${newest.version})`;
  const exact = known.find((k) => compareVersions(k.version, clean) === 0);
  if (exact?.readAt) return `servelab's ${exact.version} table was read at ${exact.readAt}`;
  return undefined;
}

/** Every flag a help text names: `--max-num-seqs`, `-tp`, `--no-enable-prefix-caching`, `--tp_size`. */
export function parseHelpFlags(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:^|[\s[,(|{])(--?[A-Za-z][\w-]*(?:\.[\w-]+)*)/g)) out.add(m[1]!.replace(/[.,]+$/, ''));
  return out;
}

let installed = new Map<EngineName, InstalledHelp>();

/** Record a help for this process's session (detect does it; tests may too). */
export function rememberEngineHelp(h: InstalledHelp): void {
  installed.set(h.engine, h);
}

/** Forget every recorded help (a new session in the same process, tests). */
export function forgetEngineHelp(): void {
  installed = new Map();
}

export interface CaptureOptions {
  runtime?: 'native' | 'docker';
  image?: string;
  /** SGLang: the interpreter of its environment. */
  python?: string;
  timeoutMs?: number;
}

/** Run the engine's help once and record it. A help that cannot be run is recorded with its error. */
export async function captureEngineHelp(
  engine: EngineName,
  version: string,
  why: string,
  opts: CaptureOptions = {},
): Promise<InstalledHelp> {
  const cached = installed.get(engine);
  if (cached && cached.version === version) return cached;
  if (!hasHelp(engine)) throw new Error(`help-check: no help command for ${engine}`);
  const [exe, ...rest] = HELP_ARGV[engine];
  const cmd = engine === 'sglang' && opts.python ? opts.python : exe!;
  const [file, args] =
    opts.runtime === 'docker' && opts.image ? ['docker', ['run', '--rm', '--entrypoint', exe!, opts.image, ...rest]] : [cmd, rest];
  const r = await execa(file, args, { reject: false, timeout: opts.timeoutMs ?? 60_000, all: true });
  const text = String(r.all ?? '');
  const flags = parseHelpFlags(text);
  const failed = r.exitCode !== 0 && flags.size < 3;
  const error = failed
    ? `\`${[exe, ...rest].join(' ')}\` failed (${r.timedOut ? 'timed out' : `exit ${r.exitCode}`}): ${text.trim().split('\n').at(-1) ?? ''}`
    : undefined;
  const help: InstalledHelp = { engine, version, why, flags, ...(failed ? { error } : { text }) };
  rememberEngineHelp(help);
  return help;
}

/** Is `flag` in the help? `--x.key` (vLLM's dotted JSON argument) counts when `--x` is listed. */
function listed(flags: ReadonlySet<string>, flag: string): boolean {
  const name = flag.split('=')[0]!;
  return flags.has(name) || (name.includes('.') && flags.has(name.split('.')[0]!));
}

/** The first flag of an engine argv that the recorded help does not list, or undefined. */
export function unlistedFlag(engine: EngineName, argv: readonly string[]): string | undefined {
  const h = installed.get(engine);
  if (!h || h.error || !hasHelp(engine)) return undefined;
  return argv.slice(COMMAND_WORDS[engine]).find((tok) => tok.startsWith('-') && !/^-\d/.test(tok) && !listed(h.flags, tok));
}

/** Refuse a command with a flag the installed engine does not list (one line, exit 2). */
export function assertFlagsListed(engine: EngineName, argv: readonly string[]): void {
  const bad = unlistedFlag(engine, argv);
  if (bad === undefined) return;
  const h = installed.get(engine)!;
  const cmd = hasHelp(engine) ? HELP_ARGV[engine].join(' ') : '--help';
  throw new UserError(
    `${ENGINE_LABEL[engine]} ${h.version} does not list ${bad.split('=')[0]} in its own help (\`${cmd}\`): servelab will not launch a plan that uses it`,
  );
}

/** Keep each recorded help text in the run folder: `<runDir>/engine-help/<engine>-<version>.txt`. */
export function writeEngineHelp(runDir: string): string[] {
  const out: string[] = [];
  for (const h of installed.values()) {
    if (!h.text) continue;
    const dir = path.join(runDir, 'engine-help');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${h.engine}-${h.version.replace(/[^\w.+-]/g, '_')}.txt`);
    writeFileSync(file, `# ${hasHelp(h.engine) ? HELP_ARGV[h.engine].join(' ') : 'help'} (${h.why})\n${h.text}\n`);
    out.push(file);
  }
  return out;
}
