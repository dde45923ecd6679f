// What the measuring scripts share: reading their flags, and saying how busy the host was.
import os from 'node:os';

/** The value after flag `name` (e.g. '--pairs') on the command line, or `dflt`. */
export function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
}

/** The 1-, 5- and 15-minute load averages: "2.04 2.30 2.21". */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}
