// How a command is shown and written into scripts: POSIX shell quoting, one implementation for
// the screens, the headless text, reports and exports (so what is shown is what a shell runs).

/** POSIX shell quoting: bare when safe, otherwise single quotes. */
export function shellQuote(arg: string): string {
  if (arg === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The command line a user would type: env assignments, then the quoted argv. */
export function formatCommand(argv: readonly string[], env: Record<string, string> = {}): string {
  const assigns = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  return [...assigns, ...argv.map(shellQuote)].join(' ');
}
