// A profile is executable content: whoever opens one is asked to run its argv. These checks
// decide what may run (only the engines' own launchers, without a shell) and how a command is
// shown to the user and written into scripts.
import { basename } from 'node:path';
import { UserError } from '../../core/errors.js';
import { refusedEnv } from './env-policy.js';
import { ENGINES } from '../../core/variant.js';
import { getAdapter } from '../../engines/index.js';

// Quoting lives in the core (screens and headless text use it too); re-exported here.
import { shellQuote } from '../../core/shell-quote.js';

/** Official container images of the engines, by repository (no tag). */
export const ENGINE_IMAGES: readonly string[] = ENGINES.flatMap((e) => getAdapter(e).image ?? []);

export type LauncherKind = 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'docker' | 'sim';

/**
 * Which known launcher an argv is, or null. Known: `vllm serve`, `python3 -m sglang.launch_server`,
 * `trtllm-serve`, `llama-server`, `docker run <official engine image>`, and servelab's own `sim-serve`.
 */
export function launcherOf(argv: readonly string[]): LauncherKind | null {
  const [exe, a1, a2] = argv;
  if (!exe) return null;
  const name = basename(exe);
  const engine = ENGINES.find((e) => getAdapter(e).launches?.(name, a1, a2));
  if (engine) return engine;
  if (name === 'docker' && a1 === 'run' && dockerImageOf(argv) !== null) return 'docker';
  if ((name === 'servelab' || name === 'servelab.js') && a1 === 'sim-serve') return 'sim';
  if (/^node(\.exe)?$/.test(name) && a1 && /(^|\/)(bin\/servelab\.js|src\/cli\.tsx|dist\/cli\.js)$/.test(a1) && a2 === 'sim-serve')
    return 'sim';
  if (name === 'npx' && a1 === 'servelab' && a2 === 'sim-serve') return 'sim';
  return null;
}

/** The official engine image a `docker run` argv starts, or null when it starts anything else. */
export function dockerImageOf(argv: readonly string[]): string | null {
  const images = ENGINE_IMAGES;
  for (const a of argv.slice(2)) {
    const repo = a.replace(/@sha256:[0-9a-f]+$/, '').replace(/:[^/:]+$/, '');
    if (images.includes(repo)) return a;
  }
  return null;
}

/**
 * Refuse to run a profile's command unless it is one of the engines' launchers and its env
 * cannot redirect what runs. `allowAny` (--allow-any-command) lifts both rules.
 */
export function checkRunnable(
  argv: readonly string[],
  env: Record<string, string>,
  file: string,
  allowAny = false,
  allowEnv: readonly string[] = [],
): LauncherKind | null {
  if (allowAny) return launcherOf(argv);
  const kind = launcherOf(argv);
  if (!kind) {
    const shown = argv.slice(0, 3).map(shellQuote).join(' ') || '(empty)';
    throw new UserError(
      `profile ${file}: refusing to run '${shown}': not a known engine launcher (vllm serve, python3 -m sglang.launch_server, trtllm-serve, docker run <engine image>, servelab sim-serve); pass --allow-any-command if you trust this file`,
    );
  }
  const bad = refusedEnv(env, allowEnv);
  if (bad.length) {
    const [first] = bad;
    throw new UserError(
      `profile ${file}: refusing to run with env ${bad.map((b) => b.key).join(', ')} (${first!.key} ${first!.why}); remove it, or pass ${bad.map((b) => `--allow-env ${b.key}`).join(' ')} if you trust this file`,
    );
  }
  return kind;
}
