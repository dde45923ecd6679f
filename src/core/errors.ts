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
