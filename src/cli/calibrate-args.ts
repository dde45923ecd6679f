// `servelab calibrate`'s argv: run folders or profiles, and --out FILE. A loop of its own: two
// flags, and errors that name the command's --help as the other hand-read commands do.
import { UserError } from '../core/errors.js';

export const CALIBRATE_USAGE = 'usage: servelab calibrate RUN_DIR|PROFILE... --out FILE';

export interface CalibrateArgs {
  sources: string[];
  out: string;
}

export function parseCalibrateArgs(argv: string[]): CalibrateArgs | 'help' {
  const sources: string[] = [];
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i]!;
    if (t === '-h' || t === '--help') return 'help';
    if (t === '--out' || t.startsWith('--out=')) {
      out = t.includes('=') ? t.slice(6) : argv[++i];
      if (!out || out.startsWith('--')) throw new UserError('--out needs a file name (servelab calibrate --help)');
    } else if (t.startsWith('-')) throw new UserError(`unknown flag ${t} (servelab calibrate --help)`);
    else sources.push(t);
  }
  if (!sources.length) throw new UserError('give at least one run folder or profile (servelab calibrate --help)');
  if (!out) throw new UserError('--out FILE is required: where to write the calibration (servelab calibrate --help)');
  return { sources, out };
}
