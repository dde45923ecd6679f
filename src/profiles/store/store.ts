// Reading and writing profile files. Every load goes through the schema (errors name the file
// and the field); every write redacts secrets and is atomic (temp file, then rename).
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { UserError } from '../../core/errors.js';
import { VERSION } from '../../core/version.js';
import { PROFILE_SCHEMA_VERSION, ProfileSchema, type Profile, type ProfileInput, type ReplayRecord } from '../schema/profile.js';
import { redactArgv, redactEnv } from '../safety/redact.js';
import { isShippedDir } from './shipped.js';
import { checkProfileData } from '../safety/hostile.js';
import { asStorageError, guardWrite } from '../../core/storage.js';
import { getAdapter } from '../../engines/index.js';

/** A profile file that cannot be used; always bad input (exit 2). */
export class ProfileError extends UserError {
  constructor(message: string) {
    super(message, 2);
    this.name = 'ProfileError';
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || '(root)';
}

function issueMessage(issue: z.core.$ZodIssue): string {
  // zod 4 prefixes type errors with "Invalid input: "; the field name already says where.
  const m = issue.message.replace(/^Invalid input: /, '');
  const missing = /^expected (.+), received undefined$/.exec(m);
  return missing ? `missing (expected ${missing[1]})` : m;
}

/** Line and column (1-based) of a character offset. */
function lineCol(text: string, pos: number): { line: number; col: number } {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, col: pos - before.lastIndexOf('\n') };
}

function jsonErrorWhere(text: string, err: Error): string {
  const lc = /line (\d+) column (\d+)/.exec(err.message);
  if (lc) return `line ${lc[1]}, column ${lc[2]}`;
  const pos = /position (\d+)/.exec(err.message);
  if (pos) {
    const { line, col } = lineCol(text, Number(pos[1]));
    return `line ${line}, column ${col}`;
  }
  if (/end of (JSON )?input/i.test(err.message)) {
    const { line, col } = lineCol(text, text.length);
    return `line ${line}, column ${col} (unexpected end)`;
  }
  return 'unknown position';
}

/** Parse and validate a profile's text. `file` names it in errors. Throws ProfileError. */
export function parseProfile(text: string, file: string): Profile {
  const name = `profile ${file}`;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const err = e as Error;
    const detail = err.message.replace(/^(Unexpected|Expected)/, (m) => m).split(/\s+in JSON| \(line|, "/)[0];
    throw new ProfileError(`${name}: malformed JSON at ${jsonErrorWhere(text, err)}: ${detail}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProfileError(`${name}: expected a JSON object (a servelab profile)`);
  }
  const version = (raw as { schema?: unknown }).schema;
  if (typeof version === 'number' && Number.isInteger(version) && version > PROFILE_SCHEMA_VERSION) {
    throw new ProfileError(
      `${name}: written for profile schema ${version}; this servelab (${VERSION}) reads schema ${PROFILE_SCHEMA_VERSION}. Upgrade servelab to one that reads schema ${version}.`,
    );
  }
  if (version !== PROFILE_SCHEMA_VERSION) {
    throw new ProfileError(
      `${name}: schema: expected ${PROFILE_SCHEMA_VERSION}, got ${JSON.stringify(version) ?? 'nothing'} (is this a servelab profile?)`,
    );
  }
  const parsed = ProfileSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const more = parsed.error.issues.length - 1;
    throw new ProfileError(
      `${name}: ${formatPath(first.path)}: ${issueMessage(first)}${more > 0 ? ` (and ${more} more problem${more > 1 ? 's' : ''})` : ''}`,
    );
  }
  const profile = parsed.data;
  checkProfileData(profile, file);
  // A profile written without its files: rebuild them from the variant (they are a pure function of it).
  if (!profile.files.length) profile.files = engineFiles(profile);
  return profile;
}

/** Read and validate a profile file. Throws ProfileError (exit 2) for a missing or bad file. */
export function loadProfile(file: string): Profile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ProfileError(
      code === 'ENOENT' ? `profile ${file}: no such file` : `profile ${file}: cannot read (${code ?? (e as Error).message})`,
    );
  }
  return parseProfile(text, file);
}

/**
 * Build a validated profile from what a session knows: fills the schema version, servelab
 * version and creation time, and strips secrets from every env and argv it holds.
 * Throws ProfileError if the input does not fit the schema (a programming error upstream).
 */
export function buildProfile(
  input: Omit<ProfileInput, 'schema' | 'servelabVersion' | 'createdAt'> & Partial<Pick<ProfileInput, 'servelabVersion' | 'createdAt'>>,
): Profile {
  const parsed = ProfileSchema.safeParse({
    servelabVersion: VERSION,
    createdAt: new Date().toISOString(),
    ...input,
    schema: PROFILE_SCHEMA_VERSION,
  });
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ProfileError(`profile: ${formatPath(first.path)}: ${issueMessage(first)}`);
  }
  const profile = parsed.data;
  if (!input.files) profile.files = engineFiles(profile);
  return redactProfile(profile);
}

/**
 * The files a recorded command reads, rebuilt from the variant: TensorRT-LLM's YAML is a pure
 * function of the knobs, so the profile carries it and does not depend on a run folder.
 */
export function engineFiles(p: Pick<Profile, 'variant' | 'engineArgv'>): Profile['files'] {
  return getAdapter(p.variant.engine).commandFiles?.(p.variant, p.engineArgv) ?? [];
}

/** A copy of the profile with secrets removed from every env and argv (top level and stage results). */
export function redactProfile(p: Profile): Profile {
  const out: Profile = structuredClone(p);
  out.env = redactEnv(out.env).env;
  out.argv = redactArgv(out.argv).argv;
  out.engineArgv = redactArgv(out.engineArgv).argv;
  // The variant's env knob is replayed as it is, so its secrets go too.
  if (out.variant.knobs.env) out.variant.knobs.env = redactEnv(out.variant.knobs.env).env;
  for (const stage of out.stages) {
    for (const r of stage.results) {
      if (r.env) r.env = redactEnv(r.env).env;
      r.argv = redactArgv(r.argv).argv;
      if (r.engineArgv) r.engineArgv = redactArgv(r.engineArgv).argv;
    }
  }
  return out;
}

function gpuSlug(name: string): string {
  const cleaned = name.replace(/\b(NVIDIA|Tesla|GeForce|Quadro)\b/gi, '').trim();
  const model = /\b([A-Z]+\d+[A-Z]?)\b/.exec(cleaned);
  const slug = (model ? model[1]! : cleaned).replace(/[^A-Za-z0-9.]+/g, '-').replace(/^-+|-+$/g, '');
  return slug || 'gpu';
}

/** `<model-basename>-<gpu>x<n>.json`, e.g. `Qwen3-14B-H100x1.json`. */
export function profileFileName(p: Pick<Profile, 'model' | 'host'>): string {
  const model = basename(p.model.replace(/\/+$/, '')).replace(/[^A-Za-z0-9._-]+/g, '-') || 'model';
  // A host without a GPU (llama.cpp on the CPU): `<model>-cpu.json`.
  return p.host.gpuCount ? `${model}-${gpuSlug(p.host.gpuName)}x${p.host.gpuCount}.json` : `${model}-cpu.json`;
}

function writeAtomic(file: string, content: string): void {
  guardWrite(file, 'the profile', () => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomic(file, content);
  });
}

export function serializeProfile(p: Profile): string {
  return JSON.stringify(p, null, 2) + '\n';
}

/**
 * Two profiles record the same run: the same session (or the same study) written again. A
 * session's createdAt is its own millisecond; a study's is its publication date.
 */
export function sameRun(a: Profile, b: Profile): boolean {
  return (
    a.source === b.source &&
    a.createdAt === b.createdAt &&
    a.model === b.model &&
    a.variant.id === b.variant.id &&
    a.host.gpuName === b.host.gpuName &&
    a.host.gpuCount === b.host.gpuCount
  );
}

/** The profile in `file` when it is a readable profile, else null. */
function readIfProfile(file: string): Profile | null {
  try {
    return loadProfile(file);
  } catch {
    return null;
  }
}

/** `YYYYmmdd-HHMM` (UTC) of an ISO time; of now when it does not parse. */
function stampOf(iso: string): string {
  const t = Date.parse(iso);
  const d = Number.isNaN(t) ? new Date() : new Date(t);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}-${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
}

/** The report that sits beside a profile file. */
export function reportPathFor(file: string): string {
  return file.replace(/\.json$/, '') + '.md';
}

/**
 * Validate, redact and write the profile into `dir`; returns the path it was written to, which
 * callers must use (and print) rather than recompute. An existing file is only replaced when it
 * records the same run (its replay history is kept); otherwise the profile goes to
 * `<name>-<YYYYmmdd-HHMM>.json`, then `<name>-<YYYYmmdd-HHMM>-2.json`, ... A name is taken when
 * either the profile or its report (`.md`) exists, so the caller's report never lands on
 * someone else's either. Shipped profiles and earlier sessions are never overwritten.
 */
export function saveProfile(profile: Profile, dir: string): string {
  const parsed = ProfileSchema.safeParse(profile);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new ProfileError(`profile: ${formatPath(first.path)}: ${issueMessage(first)}`);
  }
  const p = redactProfile(parsed.data);
  // Only study profiles (regenerated by their script) belong in the shipped folder.
  if (p.source !== 'study' && isShippedDir(dir)) {
    throw new UserError(`refusing to save a profile into servelab's own ${dir}: it holds the shipped study profiles; use --out DIR`, 2);
  }
  guardWrite(dir, 'the profile folder', () => mkdirSync(dir, { recursive: true }));
  const base = profileFileName(p).replace(/\.json$/, '');
  const stamp = stampOf(p.createdAt);
  for (let n = 0; n < 1000; n++) {
    const stem = n === 0 ? base : n === 1 ? `${base}-${stamp}` : `${base}-${stamp}-${n}`;
    const file = join(dir, `${stem}.json`);
    const existing = existsSync(file) ? readIfProfile(file) : null;
    if (existing && sameRun(existing, p)) {
      // The same run saved again: replace it in place, never dropping its replay history.
      const known = new Set(p.replays.map((r) => r.at));
      p.replays = [...existing.replays.filter((r) => !known.has(r.at)), ...p.replays];
      writeAtomic(file, serializeProfile(p));
      return file;
    }
    if (existsSync(file) || existsSync(reportPathFor(file))) continue;
    // Claim the name first (exclusive create), so two sessions saving at once never share it.
    try {
      closeSync(openSync(file, 'wx'));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw asStorageError(e, file, 'the profile') ?? e;
    }
    try {
      writeAtomic(file, serializeProfile(p));
    } catch (e) {
      rmSync(file, { force: true });
      throw e;
    }
    return file;
  }
  throw new ProfileError(`profile: no free file name for ${base} in ${dir}; move some profiles away`);
}

/**
 * Append one replay record to the profile file's history. Re-reads the file so a concurrent
 * edit is not lost, and rewrites only `replays`: the recorded numbers are never touched.
 */
export function appendReplay(file: string, record: ReplayRecord): Profile {
  const current = loadProfile(file);
  current.replays = [...current.replays, record];
  writeAtomic(file, serializeProfile(current));
  return current;
}

export { writeAtomic };
