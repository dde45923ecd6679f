// The flags every command that launches a saved profile's server shares (replay, sweep, serve):
// where it runs (--sim, --speed), consent to launch (--yes, --auto), the port, and the guard on a
// recorded command that is not an engine's (--allow-any-command). Each command adds its own.
export const PROFILE_RUN_FLAGS = {
  sim: { type: 'boolean' },
  speed: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  auto: { type: 'boolean' },
  port: { type: 'string' },
  'allow-any-command': { type: 'boolean' },
} as const;
