// Every servelab start that may launch servers (tuning, TUI or --auto; replay; serve) first looks
// in the ledger for servers a dead servelab left running (they would hold the GPUs' memory and
// make the first variant fail). Headless tuning stops them at once, reported on stderr; with a
// terminal the user is asked first; `--yes` answers yes. Exited ones only lose their entry.
import { createInterface } from 'node:readline/promises';
import { describeLeftover, findLeftovers, stopLeftover } from '../host/leftovers.js';

export async function checkLeftoversAtStart(opts: { auto: boolean; yes: boolean }): Promise<void> {
  let found;
  try {
    found = findLeftovers();
  } catch {
    return; // an unreadable state folder must not block a run
  }
  if (!found.length) return;
  const err = (s: string) => process.stderr.write(`servelab: ${s}\n`);
  const running = found.filter((l) => l.state === 'running');
  for (const l of found.filter((x) => x.state !== 'running')) await stopLeftover(l);
  if (!running.length) return;
  err(`${running.length} server(s) left running by a servelab that is gone:`);
  for (const l of running) process.stderr.write(`  ${describeLeftover(l)}\n`);
  let stop = opts.yes || opts.auto || !process.stdin.isTTY;
  if (!stop) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      stop = !/^n(o)?$/i.test((await rl.question('Stop them now? [Y/n] ')).trim());
    } finally {
      rl.close();
    }
  }
  if (!stop) {
    err('left running; `servelab gpus --yes` stops them');
    return;
  }
  for (const l of running) err(await stopLeftover(l));
}
