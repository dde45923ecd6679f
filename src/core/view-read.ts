// Reading a run's events.jsonl back into events for the projection (`servelab view RUN_DIR`).
// The journal appends best effort: a crash can cut the last line, which is skipped. Streams
// written before the events carried verdicts are brought to the current shape.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from './errors.js';
import type { TuneEvent } from './events.js';

type Loose = Record<string, unknown> & { type?: unknown };

/** One parsed line as a current event, or null when it is not one. */
function upgrade(raw: Loose): TuneEvent | null {
  if (typeof raw.type !== 'string') return null;
  if (raw.type === 'stage-finished') {
    // Older streams carried only the winner and gain: no reference, no per-row gains.
    return { carriedId: null, referenceId: null, baselineId: null, gains: {}, why: '', ...raw } as unknown as TuneEvent;
  }
  if (raw.type === 'validation-finished' && !Array.isArray(raw.rows)) {
    return { type: 'validation-finished', rows: Array.isArray(raw.table) ? raw.table : [] } as TuneEvent;
  }
  return raw as unknown as TuneEvent;
}

/** The events of a run folder, in order. Throws a UserError when the folder has none. */
export function readRunEvents(runDir: string): TuneEvent[] {
  const file = join(runDir, 'events.jsonl');
  if (!existsSync(file)) {
    throw new UserError(
      existsSync(runDir)
        ? `${runDir} has no events.jsonl: not a servelab run folder (runs are under servelab-runs/, or the --runs-dir you gave)`
        : `no such run folder: ${runDir}`,
    );
  }
  const events: TuneEvent[] = [];
  let unreadable = 0;
  const lines = readFileSync(file, 'utf8').split('\n');
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      const e = upgrade(JSON.parse(line) as Loose);
      if (e) events.push(e);
    } catch {
      // A line cut by a crash: the rest of the stream still stands.
      unreadable++;
    }
  }
  // Nothing but unreadable lines is not a cut journal: say so rather than show an empty run.
  if (!events.length && unreadable) {
    const first = lines.findIndex((l) => l.trim()) + 1;
    throw new UserError(
      `${file} holds no readable event (line ${first} is not JSON): not a servelab run journal, or one cut before its first event`,
    );
  }
  return events;
}
