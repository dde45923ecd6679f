// The flags every command that launches a saved profile's server shares (replay, sweep, serve,
// capacity PROFILE): where it runs (--sim, --speed), consent to launch (--yes, --auto), the port,
// and the guard on a recorded command that is not an engine's (--allow-any-command). Each command
// adds its own; the help lines serve commands whose --help is built from the table (capacity).
import type { FlagTable } from './flags.js';

export const PROFILE_RUN_FLAGS = {
  sim: { kind: 'boolean', help: "run the profile's server on the simulated host" },
  speed: { kind: 'string' },
  yes: { kind: 'boolean', short: 'y', help: "run the profile's command without asking" },
  auto: { kind: 'boolean', help: 'headless; consent must come from --yes' },
  port: { kind: 'string' },
  'allow-any-command': { kind: 'boolean', help: "run a profile whose command is not one of the engines' launchers" },
} as const satisfies FlagTable;
