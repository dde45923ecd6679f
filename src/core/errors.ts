// One error type for bad input: the CLI prints its message as one line and exits with `code`.
export class UserError extends Error {
  constructor(
    message: string,
    readonly code: number = 2,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}

/**
 * node:util parseArgs's error as one line without its trailing period (the callers add where to
 * look next). Its texts span lines or speak of positionals; these are the ones a user meets:
 * `--gpus -1` or `--gpus --sim` ("argument is ambiguous": the next word starts with '-') and an
 * unknown flag when positionals are allowed ("To specify a positional argument starting with ...").
 */
export function parseArgsMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const ambiguous = /^Option '(-[^']*)' argument is ambiguous/.exec(text);
  if (ambiguous) {
    const flag = ambiguous[1]!;
    return `${flag} needs a value; to give one that starts with '-', write ${flag}=VALUE`;
  }
  return text
    .split('\n')[0]!
    .replace(/\. To specify a positional argument.*$/, '')
    .replace(/\.$/, '');
}
