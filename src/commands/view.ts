// `servelab view RUN_DIR`: show a finished or interrupted run again from its events.jsonl, through
// the same projection the TUI and --auto use. --auto prints the summary text, --json the view;
// without either (on a terminal) the Results screen opens. A run whose stream has no
// session-finished is shown as interrupted, with everything it measured.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import { parseViewArgs } from '../cli/view-args.js';
import { projectSession } from '../core/view.js';
import { type SessionView } from '../core/session-view.js';
import { readRunEvents } from '../core/view-read.js';
import { summaryText } from '../cli/text.js';

/** The GPU-hour price the run was configured with, for the $/Mtok column. */
function runPrice(runDir: string): number | undefined {
  try {
    const state = JSON.parse(readFileSync(join(runDir, 'session.json'), 'utf8')) as { config?: { gpuHourPrice?: unknown } };
    const p = state.config?.gpuHourPrice;
    return typeof p === 'number' ? p : undefined;
  } catch {
    return undefined;
  }
}

export function viewOfRun(runDir: string): SessionView {
  if (!existsSync(runDir)) throw new UserError(`no such run folder: ${runDir}`);
  return projectSession(readRunEvents(runDir), { ended: true });
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseViewArgs(argv);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new UserError("view: give one run folder, e.g. 'servelab view servelab-runs/2026-01-01T1200-Qwen3-14B-H100x1'");
  const runDir = positionals[0]!;
  const view = viewOfRun(runDir);
  if (values.json) {
    process.stdout.write(JSON.stringify(view, null, 2) + '\n');
    return 0;
  }
  const price = runPrice(runDir);
  if (values.auto || !process.stdin.isTTY || !process.stdout.isTTY) {
    process.stdout.write(summaryText(view, price !== undefined ? { gpuHourPrice: price } : {}) + '\n');
    return 0;
  }
  // React is a CommonJS package: a dynamic import('react') gives { default: React } once bundled
  // (dist/), so createElement comes from its default export; under tsx both shapes work.
  const [{ mount }, { ViewScreen }, React] = await Promise.all([
    import('../tui/mount.js'),
    import('../screens/ViewScreen.js'),
    import('react').then((m) => m.default),
  ]);
  await mount(React.createElement(ViewScreen, { view, ...(price !== undefined ? { price } : {}) })).waitUntilExit();
  return 0;
}
