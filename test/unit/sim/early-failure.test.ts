// A start that fails before binding (unknown model) ends with the engine's text and exit, in
// process: it once threw a ReferenceError because the stop touched state made only after binding.
import { describe, expect, it } from 'vitest';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';
import { startSimServer } from '../../../src/sim/server/server.js';
import type { LogLine } from '../../../src/sim/imitation/engine-style.js';

describe('startSimServer early failure', () => {
  it('an unknown model prints the engine text and ends with its exit code', async () => {
    const lines: LogLine[] = [];
    const s = startSimServer(parseSimArgs(['--engine', 'vllm', '--model', 'nope/nope', '--gpu', 'H100', '--port', '0']), (l) =>
      lines.push(l),
    );
    expect(await s.done).toEqual({ code: 1 });
    expect(lines.map((l) => l.text).join('\n')).toContain("Invalid repository ID or local directory specified: 'nope/nope'");
    expect(s.port()).toBe(0);
  });
});
