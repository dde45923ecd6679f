// Is a port really free? A bind test on the address the server will use (vLLM binds with
// SO_REUSEPORT, so a second vLLM would silently share a busy port: check before launch), plus a
// connect probe for listeners on other addresses of the same port.
//
//   isPortFree(port, host = '127.0.0.1') -> Promise<boolean>
//   assertPortFree(port, host) -> Promise<void>                 throws PortInUseError (a UserError)
//   findFreePort({ host, from, to, exclude }) -> Promise<number> throws UserError when none is free
//   waitPortClosed(port, host, timeoutMs) -> Promise<boolean>
import { dialAddress } from '../core/dial.js';
import net from 'node:net';
import { UserError } from '../core/errors.js';

/** The first port a tuning session (`--auto` and the workbench) tries for its servers. */
export const TUNE_PORT = 8100;
/** The first port a saved profile's run (replay, sweep, capacity) tries: apart from a session's range. */
export const PROFILE_PORT = 18000;

export const DEFAULT_HOST = '127.0.0.1';

export class PortInUseError extends UserError {
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use; pick another with --port or stop the process that holds it`);
    this.name = 'PortInUseError';
  }
}

function bindTest(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** True when something accepts connections on host:port. */
export function isListening(port: number, host: string = DEFAULT_HOST, timeoutMs = 1000): Promise<boolean> {
  const target = dialAddress(host);
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: target });
    const done = (v: boolean) => {
      sock.destroy();
      resolve(v);
    };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

export async function isPortFree(port: number, host: string = DEFAULT_HOST): Promise<boolean> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UserError(`port must be a whole number from 1 to 65535, got ${port}`);
  if (!(await bindTest(port, host))) return false;
  return !(await isListening(port, host));
}

export async function assertPortFree(port: number, host: string = DEFAULT_HOST): Promise<void> {
  if (!(await isPortFree(port, host))) throw new PortInUseError(port, host);
}

/** The first free port in [from, to], skipping `exclude` (ports already handed out this run). */
export async function findFreePort(opts: { host?: string; from?: number; to?: number; exclude?: Iterable<number> } = {}): Promise<number> {
  const host = opts.host ?? DEFAULT_HOST;
  const from = opts.from ?? TUNE_PORT;
  const to = opts.to ?? Math.min(from + 999, 65535);
  const skip = new Set(opts.exclude ?? []);
  for (let p = from; p <= to; p++) {
    if (skip.has(p)) continue;
    if (await isPortFree(p, host)) return p;
  }
  throw new UserError(`no free port on ${host} between ${from} and ${to}; choose another range with --port`);
}

/** Wait until nothing listens on host:port (a stopped server has really let go). */
export async function waitPortClosed(port: number, host: string = DEFAULT_HOST, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!(await isListening(port, host, 500))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
