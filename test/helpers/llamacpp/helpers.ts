// Helpers for the real llama.cpp end-to-end tests: the random-weight GGUF of the fixture, a port
// range of its own per test file, and the llama-server processes a run left behind (read from
// /proc by port, so a server that closed its socket but did not exit is caught too).
import type { TuneEvent } from '../../../src/core/events.js';
import { launchedPorts, survivors } from '../e2e/cli.js';
import { testPort } from '../ports.js';

export { LLAMA_SERVER, LLAMA_SKIP, testGguf } from '../llamacpp-fixture.js';

/** A first port far from the other files' ranges (each variant takes the next free one). */
export const freshPort = () => String(testPort());

/** PIDs of llama-server processes serving one of these ports. */
export function llamaSurvivors(ports: readonly number[]): number[] {
  return survivors(ports, (argv) => /llama-server$/.test(argv[0] ?? ''));
}

/** The llama-servers a run's events launched that still run. */
export const leftServers = (events: readonly TuneEvent[], stderr = '') =>
  llamaSurvivors([...launchedPorts(events), ...[...stderr.matchAll(/launching on port (\d+)/g)].map((m) => Number(m[1]))]);

/** The flags every test session shares: a tiny workload, short outputs, one validation scenario. */
export const SMALL = ['--scenario', 'random:32/8', '--num-prompts', '6', '--warmup', '1', '--ready-timeout', '90'];
