// The run folder: plan, session state, and one file per finished variant, each written to a
// temporary name and renamed into place so a crash or Ctrl-C never leaves a half-written
// result. `--resume DIR` reads the finished results back and skips those variants.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { asStorageError, guardWrite, StorageError } from '../../core/storage.js';
import { basename, join } from 'node:path';
import { UserError } from '../../core/errors.js';
import type { VariantResult } from '../../core/events.js';

export const JOURNAL_VERSION = 1;

export type RunStatus = 'running' | 'interrupted' | 'finished' | 'failed';

export interface JournalEntry {
  seq: number;
  /** variantId@scenario#repeat: what makes a measurement reusable on resume. */
  key: string;
  role: 'tune' | 'validate';
  repeat: number;
  result: VariantResult;
}

export interface SessionState<C = unknown> {
  journal: number;
  status: RunStatus;
  config: C;
  startedAt: string;
  updatedAt: string;
  /** Signal name when interrupted. */
  signal?: string;
  profilePath?: string | null;
  reportPath?: string | null;
  exitCode?: number;
  /** Where the current variant was when the run stopped, for the record. */
  current?: { variantId: string; step: string } | null;
}

// Moved to the core (the settings file uses it too); re-exported for the run folder's callers.
import { writeFileAtomic } from '../../core/atomic-write.js';

export function resultKey(variantId: string, scenario: string, repeat: number): string {
  return `${variantId}@${scenario}#${repeat}`;
}

const slug = (s: string) =>
  s
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80) || 'x';

/** `./servelab-runs/2026-11-30T0734-Qwen3-14B-H100x1`, with -2, -3 ... if taken. */
export function defaultRunDir(base: string, model: string, gpuTag: string, now = new Date()): string {
  const date = now.toISOString().slice(0, 16).replace(/:/g, '');
  const stem = join(base, `${date}-${slug(basename(model))}-${slug(gpuTag)}`);
  let dir = stem;
  for (let i = 2; existsSync(dir); i++) dir = `${stem}-${i}`;
  return dir;
}

export class Journal<C = unknown> {
  private readonly byKey = new Map<string, JournalEntry>();
  private seq = 0;
  private state: SessionState<C>;

  private constructor(
    readonly dir: string,
    state: SessionState<C>,
  ) {
    this.state = state;
  }

  /** A fresh run folder. Refuses one that already holds a run (use open() to resume it). */
  static create<C>(dir: string, config: C): Journal<C> {
    if (existsSync(join(dir, 'session.json'))) {
      throw new UserError(`run folder ${dir} already holds a run; resume it with --resume ${dir} or choose another --run-dir`);
    }
    const now = new Date().toISOString();
    const j = new Journal<C>(dir, { journal: JOURNAL_VERSION, status: 'running', config, startedAt: now, updatedAt: now });
    // Nothing is measured yet: an unwritable run folder is bad input (exit 2).
    guardWrite(
      dir,
      'the run folder',
      () => {
        for (const sub of ['results', 'logs', 'bench']) mkdirSync(join(dir, sub), { recursive: true });
        j.saveState();
      },
      2,
    );
    return j;
  }

  /** An existing run folder, with its finished results loaded. Throws UserError (exit 2) when it is not one. */
  static open<C>(dir: string): Journal<C> {
    const file = join(dir, 'session.json');
    if (!existsSync(file)) throw new UserError(`--resume ${dir}: not a servelab run folder (no session.json)`);
    let state: SessionState<C>;
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as SessionState<C>;
    } catch (e) {
      throw new UserError(`--resume ${dir}: session.json is not valid JSON (${(e as Error).message})`);
    }
    if (state.journal !== JOURNAL_VERSION || !state.config) {
      throw new UserError(
        `--resume ${dir}: session.json has journal version ${String(state.journal)}; this servelab reads ${JOURNAL_VERSION}`,
      );
    }
    for (const sub of ['results', 'logs', 'bench']) mkdirSync(join(dir, sub), { recursive: true });
    const j = new Journal<C>(dir, state);
    j.load();
    return j;
  }

  private load(): void {
    const resultsDir = join(this.dir, 'results');
    const files = readdirSync(resultsDir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    for (const f of files) {
      // Only renamed, complete files end in .json; a parse failure means someone edited it.
      let entry: JournalEntry;
      try {
        entry = JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as JournalEntry;
      } catch {
        continue;
      }
      if (!entry || typeof entry.key !== 'string' || !entry.result) continue;
      this.byKey.set(entry.key, entry);
      this.seq = Math.max(this.seq, entry.seq);
    }
  }

  get config(): C {
    return this.state.config;
  }

  get status(): SessionState<C> {
    return this.state;
  }

  entries(): JournalEntry[] {
    return [...this.byKey.values()].sort((a, b) => a.seq - b.seq);
  }

  /** `scenario` is the scenario's key (name and size), so a resized scenario is measured anew. */
  find(variantId: string, scenario: string, repeat: number): JournalEntry | undefined {
    return this.byKey.get(resultKey(variantId, scenario, repeat));
  }

  /** Append one finished measurement; on disk before this returns. */
  record(role: JournalEntry['role'], repeat: number, result: VariantResult, scenarioKey: string = result.scenario): JournalEntry {
    const key = resultKey(result.variantId, scenarioKey, repeat);
    const entry: JournalEntry = { seq: ++this.seq, key, role, repeat, result };
    const name = `${String(entry.seq).padStart(4, '0')}-${slug(result.stage)}-${slug(key)}.json`;
    const file = join(this.dir, 'results', name);
    this.guard(file, 'the journal entry', () => writeFileAtomic(file, JSON.stringify(entry, null, 2) + '\n'));
    this.byKey.set(key, entry);
    return entry;
  }

  /**
   * Append one event to events.jsonl, the run as the screens saw it (for replay). Best effort and
   * append-only: a crash can cut the last line, which readers skip; results/ is the record.
   */
  appendEvent(event: unknown): void {
    try {
      appendFileSync(join(this.dir, 'events.jsonl'), JSON.stringify(event) + '\n');
    } catch {
      // The journal's results matter; a lost event line does not.
    }
  }

  writeJson(name: string, value: unknown): string {
    const file = join(this.dir, name);
    this.guard(file, 'the run file', () => writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n'));
    return file;
  }

  /** A run file writeJson wrote; undefined when it is absent or not JSON. */
  readJson(name: string): unknown {
    try {
      return JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  update(patch: Partial<SessionState<C>>): void {
    this.state = { ...this.state, ...patch, updatedAt: new Date().toISOString() };
    // After a storage failure the state is best effort: the first error is the one to report.
    if (this.failed) {
      try {
        this.saveState();
      } catch {
        // still failing
      }
      return;
    }
    this.guard(join(this.dir, 'session.json'), 'the run state', () => this.saveState());
  }

  private failed: StorageError | undefined;

  /** A write whose storage failure becomes one error naming the path and what is already safe. */
  private guard(path: string, what: string, write: () => void): void {
    try {
      write();
    } catch (e) {
      const se = asStorageError(e, path, what);
      if (!se) throw e;
      throw this.storageFailure(se);
    }
  }

  /** `e` completed with what the journal already holds intact (for a failure outside the journal too). */
  storageFailure(e: StorageError): StorageError {
    if (this.failed) return this.failed;
    const n = this.byKey.size;
    const kept = `${n} finished measurement(s) journalled in ${join(this.dir, 'results')} are intact; after freeing space continue with --resume ${this.dir}`;
    this.failed = new StorageError(e.path, e.errno, `${e.message}. ${kept}`, e.code);
    return this.failed;
  }

  private saveState(): void {
    writeFileAtomic(join(this.dir, 'session.json'), JSON.stringify(this.state, null, 2) + '\n');
  }

  logsDir(): string {
    return join(this.dir, 'logs');
  }

  benchFile(variantId: string, scenario: string, repeat: number): string {
    return join(this.dir, 'bench', `${slug(variantId)}-${slug(scenario)}-r${repeat}.json`);
  }
}
