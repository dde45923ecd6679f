import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { assertPortFree, findFreePort, isPortFree, PortInUseError, waitPortClosed } from '../../../src/host/ports.js';
import { freeTestPort } from '../../helpers/ports.js';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function listen(port: number, host: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(port, host, () => {
      servers.push(s);
      resolve(s);
    });
  });
}

describe('ports', () => {
  it('a port we hold is busy, and free again once released', async () => {
    const port = await freeTestPort();
    expect(await isPortFree(port)).toBe(true);
    const s = await listen(port, '127.0.0.1');
    expect(await isPortFree(port)).toBe(false);
    await expect(assertPortFree(port)).rejects.toThrow(PortInUseError);
    await expect(assertPortFree(port)).rejects.toThrow(`port ${port} on 127.0.0.1 is already in use; pick another with --port`);
    await new Promise((r) => s.close(r));
    servers.splice(servers.indexOf(s), 1);
    expect(await waitPortClosed(port, '127.0.0.1', 2000)).toBe(true);
    expect(await isPortFree(port)).toBe(true);
  });

  it('a listener on all interfaces makes the loopback port busy too', async () => {
    const port = await freeTestPort();
    await listen(port, '0.0.0.0');
    expect(await isPortFree(port, '127.0.0.1')).toBe(false);
  });

  it('findFreePort skips busy and excluded ports', async () => {
    const base = await freeTestPort();
    await listen(base, '127.0.0.1');
    const next = await findFreePort({ from: base, exclude: [base + 1] });
    expect(next).toBeGreaterThanOrEqual(base + 2);
  });

  it('no free port in the range, and a bad port, are one-line errors', async () => {
    const port = await freeTestPort();
    await listen(port, '127.0.0.1');
    await expect(findFreePort({ from: port, to: port })).rejects.toThrow(`no free port on 127.0.0.1 between ${port} and ${port}`);
    await expect(isPortFree(70000)).rejects.toThrow(/from 1 to 65535/);
  });
});
