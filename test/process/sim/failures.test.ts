import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import { reapAll, spawnSim } from '../../helpers/sim/helpers.js';

afterEach(reapAll);

describe('sim-serve start-up failures', () => {
  it.each([
    ['vllm', /OSError: \[Errno 98\] Address already in use/],
    ['sglang', /\[Errno 98\] error while attempting to bind on address \('127\.0\.0\.1', \d+\): address already in use/],
    ['trtllm', /RuntimeError: Failed to bind socket to 127\.0\.0\.1:\d+: \[Errno 98\] Address already in use/],
  ])('a busy port fails with the %s text', async (engine, re) => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const p = spawnSim(['--engine', engine, '--model', 'Qwen/Qwen3-14B', '--port', String(port), '--load-time', '60']);
      const exit = await p.exited;
      expect(exit.code).toBe(1);
      expect(p.stderr()).toMatch(re);
    } finally {
      blocker.close();
    }
  });
});
