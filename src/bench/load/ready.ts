// Before measuring: is anything listening, and (optionally) does the server answer yet?
import net from 'node:net';
import { UserError } from '../../core/errors.js';
import { sleep } from './async.js';
import { nowS } from '../http/client.js';
import type { RawOutput } from '../http/request-shapes.js';

/** Fail fast with one clear line when nothing listens at the URL. */
export function checkReachable(url: URL, timeoutMs = 5000): Promise<void> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    const fail = (why: string) => {
      sock.destroy();
      reject(new UserError(`cannot reach the server at ${url.origin}: ${why}. Is it running? Check --base-url or --host/--port.`, 1));
    };
    sock.setTimeout(timeoutMs, () => fail(`no answer in ${timeoutMs / 1000} s`));
    sock.once('connect', () => {
      sock.destroy();
      resolve();
    });
    sock.once('error', (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
  });
}

/** vLLM's ready check: send a test request until it succeeds or `timeoutSec` passes. */
export async function readyCheck(timeoutSec: number, probe: () => Promise<RawOutput>, signal?: AbortSignal): Promise<void> {
  const deadline = nowS() + timeoutSec;
  let wait = 0.25;
  let last = '';
  while (!signal?.aborted) {
    const r = await probe();
    if (r.success) return;
    last = r.error;
    const left = deadline - nowS();
    if (left <= 0) break;
    await sleep(Math.min(wait, left) * 1000, signal);
    wait = Math.min(wait * 2, 5);
  }
  if (signal?.aborted) return;
  throw new UserError(`the server did not answer a test request within ${timeoutSec} s (--ready-check-timeout-sec): ${last}`, 1);
}
