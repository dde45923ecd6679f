// Helpers for the real llama.cpp end-to-end tests: the random-weight GGUF of the fixture, a port
// range of its own per test file, and the llama-server processes a run left behind (read from
// /proc by port, so a server that closed its socket but did not exit is caught too).
import { readdirSync, readFileSync } from 'node:fs';
import type { TuneEvent } from '../../src/core/events.js';
import { launchedPorts } from '../e2e/cli.js';

export { LLAMA_SERVER, LLAMA_SKIP, testGguf } from '../llamacpp-fixture.js';

/** A first port far from the other files' ranges (each variant takes the next free one). */
export const freshPort = () => String(21000 + Math.floor(Math.random() * 20000));

/** PIDs of llama-server processes serving one of these ports. */
export function llamaSurvivors(ports: readonly number[]): number[] {
  const want = new Set(ports.map(String));
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const i = argv.indexOf('--port');
    if (/llama-server$/.test(argv[0] ?? '') && i >= 0 && want.has(argv[i + 1] ?? '')) out.push(Number(name));
  }
  return out;
}

/** The llama-servers a run's events launched that still run. */
export const leftServers = (events: readonly TuneEvent[], stderr = '') =>
  llamaSurvivors([...launchedPorts(events), ...[...stderr.matchAll(/launching on port (\d+)/g)].map((m) => Number(m[1]))]);

/** The flags every test session shares: a tiny workload, short outputs, one validation scenario. */
export const SMALL = ['--scenario', 'random:32/8', '--num-prompts', '6', '--warmup', '1', '--ready-timeout', '90'];
