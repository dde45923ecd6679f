#!/usr/bin/env node
// servelab's entry: parse the sub-command, choose headless or the TUI once, and map errors to
// one-line messages with exit codes (2 bad input, 1 failure, 130 interrupt).
import { isUserError } from './core/errors.js';

type CommandMain = (argv: string[]) => Promise<number>;

/**
 * Sub-commands, each in its own module under src/commands/, loaded only when run, so `--help` and
 * each command pay for their own imports alone. Adding a command is one row here.
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ default: CommandMain }> }> = {
  bench: { summary: 'benchmark an OpenAI-compatible server like vllm bench serve', load: () => import('./commands/bench.js') },
  import: { summary: 'read vllm bench serve output (text or JSON) and print its metrics', load: () => import('./commands/import.js') },
  predict: { summary: "the model's prediction for one configuration (no launch)", load: () => import('./commands/predict.js') },
  calibrate: { summary: "fit the model's host corrections to this host's measured runs", load: () => import('./commands/calibrate.js') },
  'sim-serve': { summary: 'run the simulated engine (an OpenAI-compatible HTTP server)', load: () => import('./commands/sim-serve.js') },
  gpus: { summary: 'print the GPUs found on this host', load: () => import('./commands/gpus.js') },
  replay: { summary: 'replay a saved profile and give a regression verdict', load: () => import('./commands/replay.js') },
  sweep: { summary: "load sweep of a profile's server: frontier, SLO choice, chart", load: () => import('./commands/sweep.js') },
  capacity: { summary: 'the most load a server holds under an SLO (search, not a list)', load: () => import('./commands/capacity.js') },
  serve: { summary: "run a profile's winning server in the foreground", load: () => import('./commands/serve.js') },
  view: { summary: 'show a finished or interrupted run again from its journal', load: () => import('./commands/view.js') },
  export: { summary: 'export a profile as shell, docker, systemd, k8s or slurm', load: () => import('./commands/export.js') },
  profiles: { summary: 'list saved profiles', load: () => import('./commands/profiles.js') },
  config: { summary: 'get, set or list saved settings', load: () => import('./commands/config.js') },
  engines: { summary: 'build an engine servelab can build itself (llama.cpp)', load: () => import('./commands/engines.js') },
  'random-gguf': {
    summary: 'a random-weight GGUF for llama.cpp (meaningless text, real speed)',
    load: () => import('./commands/random-gguf.js'),
  },
  'trace-gen': {
    summary: 'a synthetic Mooncake-format trace: shared prefixes, sessions',
    load: () => import('./commands/trace-gen.js'),
  },
};

function usage(): string {
  const rows = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return [
    'Usage: servelab [--auto] [options]   tune in the TUI, or headless with --auto',
    '       servelab <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    'Run `servelab --auto --help` for the tuning flags,',
    "    `servelab <command> --help` for a command's.",
  ].join('\n');
}

const wantsHelp = (argv: string[]) => argv.includes('--help') || argv.includes('-h');

/** Servers a dead servelab left running are found before anything is launched (leftovers-at-start.ts). */
async function leftoverCheck(argv: string[], auto = argv.includes('--auto')): Promise<void> {
  const { checkLeftoversAtStart } = await import('./commands/leftovers-at-start.js');
  await checkLeftoversAtStart({ auto, yes: argv.includes('--yes') || argv.includes('-y') });
}

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  if (first === '--version' || first === '-V') {
    const { VERSION } = await import('./core/version.js');
    process.stdout.write(VERSION + '\n');
    return 0;
  }
  if (first && !first.startsWith('-')) {
    const cmd = COMMANDS[first];
    if (!cmd) {
      process.stderr.write(`servelab: unknown command '${first}'. Run 'servelab --help' for the list.\n`);
      return 2;
    }
    const launches = first === 'replay' || first === 'serve' || (first === 'capacity' && !rest.some((a) => a.startsWith('--base-url')));
    if (launches && !wantsHelp(rest)) await leftoverCheck(rest);
    return (await cmd.load()).default(rest);
  }
  // No sub-command: tuning. Headless is chosen here, once: --auto, --json, --dry-run, or no TTY.
  const headless = argv.includes('--auto') || argv.includes('--json') || argv.includes('--dry-run');
  if (headless && (argv.includes('--help') || argv.includes('-h'))) {
    // Answered here: the tuning core and the settings store are not loaded just to print help.
    const { AUTO_USAGE } = await import('./cli/usage.js');
    process.stdout.write(AUTO_USAGE + '\n');
    return 0;
  }
  if (!wantsHelp(argv) && !argv.includes('--dry-run')) await leftoverCheck(argv, headless);
  if (headless) return (await import('./commands/auto.js')).default(argv);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('servelab: the interactive workbench needs a terminal; use `servelab --auto ...` for headless runs.\n');
    return 2;
  }
  return (await import('./commands/tui.js')).default(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (isUserError(err)) {
      process.stderr.write(`servelab: ${err.message}\n`);
      process.exitCode = err.code;
    } else {
      process.stderr.write(`servelab: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    }
  },
);
