// The user's own folders (XDG Base Directory spec): state (the ledger of launched servers), data
// (saved profiles and run folders) and cache (engines servelab builds, such as llama.cpp). Never inside a servelab clone: the shipped profiles/
// folder is reference data that `npm test` lists.
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

function base(envName: string, fallback: string[]): string {
  const v = process.env[envName];
  // The spec says a relative path is invalid and must be ignored.
  if (v && isAbsolute(v)) return v;
  return join(homedir(), ...fallback);
}

/** $XDG_STATE_HOME/servelab, else ~/.local/state/servelab. */
export function stateDir(): string {
  return join(base('XDG_STATE_HOME', ['.local', 'state']), 'servelab');
}

/** $XDG_DATA_HOME/servelab, else ~/.local/share/servelab: where profiles and runs go by default. */
export function dataDir(): string {
  return join(base('XDG_DATA_HOME', ['.local', 'share']), 'servelab');
}

/** Parent of run folders when --runs-dir is not given. */
export function defaultRunsDir(): string {
  return join(dataDir(), 'runs');
}

/** $XDG_CACHE_HOME/servelab, else ~/.cache/servelab: what can be rebuilt (engine builds). */
export function cacheDir(): string {
  return join(base('XDG_CACHE_HOME', ['.cache']), 'servelab');
}
