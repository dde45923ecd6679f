// Consent before running a profile's command: a profile is executable content. `--yes` gives
// it up front; without a terminal (or in --auto) there is nobody to ask, so --yes is required.
import { createInterface } from 'node:readline/promises';
import { UserError } from '../core/errors.js';

export async function askConsent(opts: { yes: boolean; auto: boolean; what: string }): Promise<boolean> {
  if (opts.yes) return true;
  if (opts.auto || !process.stdin.isTTY || !process.stderr.isTTY) {
    throw new UserError(`${opts.what} needs consent: pass --yes to run the command shown (required with --auto or without a terminal)`);
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question('Run this command? [y/N] ');
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
