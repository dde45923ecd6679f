// The head's rendezvous port under Slurm: SGLang's --dist-init-addr HEAD:P binds P ... P+5 and
// P+13 on the head (engine audit S29), and from v0.5.13 on the load collector at P+6, so that
// whole set stays clear of the ports in use.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Variant } from '../../../../src/core/variant.js';
import { headDistPort } from '../../../../src/tune/run/slurm/start.js';

const v = (engine: Variant['engine']): Variant => ({ id: 'v', engine, model: 'm', knobs: {} });

async function bindable(port: number): Promise<boolean> {
  const srv = net.createServer();
  const ok = await new Promise<boolean>((r) => {
    srv.once('error', () => r(false));
    srv.listen(port, '127.0.0.1', () => r(true));
  });
  if (ok) await new Promise<void>((r) => srv.close(() => r()));
  return ok;
}

/**
 * A base port whose next port is free too: the vLLM case expects the first port after the base,
 * and other test files' servers take ports on this machine at the same time.
 */
async function freeBase(): Promise<number> {
  for (;;) {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const p = Math.min((srv.address() as net.AddressInfo).port, 60000);
    await new Promise<void>((r) => srv.close(() => r()));
    if (await bindable(p + 1)) return p;
  }
}

describe('headDistPort', () => {
  it('SGLang: skips a port whose P..P+6 / P+13 set meets a used port, and reserves the set', async () => {
    const port = await freeBase();
    const used = new Set([port, port + 1 + 13]);
    const p = await headDistPort(v('sglang'), '127.0.0.1', port, used);
    // port+1 would put its handshake on port+14, which is taken.
    expect(p).toBeGreaterThan(port + 1);
    for (const x of [p, p + 5, p + 6, p + 13]) expect(used.has(x)).toBe(true);
  });

  it('SGLang: a used port at P+6 (v0.5.13 load collector) moves the head port on', async () => {
    const port = await freeBase();
    const used = new Set([port, port + 1 + 6]);
    const p = await headDistPort(v('sglang'), '127.0.0.1', port, used);
    expect(p).toBeGreaterThan(port + 1);
  });

  it('vLLM: one port, the first free one after the server port', async () => {
    const port = await freeBase();
    const used = new Set([port, port + 14]);
    const p = await headDistPort(v('vllm'), '127.0.0.1', port, used);
    expect(p).toBe(port + 1);
    expect(used.has(p)).toBe(true);
  });
});
