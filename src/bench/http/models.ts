// What the server says about itself: GET /v1/models (vLLM uses the first model when --model is
// not given) and servelab's simulator's GET /sim/info (its clock speed).
import http from 'node:http';
import https from 'node:https';
import { UserError } from '../../core/errors.js';

export function fetchModelIds(baseUrl: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<string[]> {
  const url = new URL(baseUrl.replace(/\/+$/, '') + '/v1/models');
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(url, { headers, timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        try {
          const data = (JSON.parse(text) as { data?: { id?: unknown }[] }).data ?? [];
          resolve(data.map((m) => m.id).filter((id): id is string => typeof id === 'string'));
        } catch {
          reject(new UserError(`${url.href} did not return a model list (HTTP ${res.statusCode}); pass --model`, 1));
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new UserError(
          `cannot reach the server at ${url.origin}: ${e.code ?? e.message}. Is it running? Check --base-url or --host/--port.`,
          1,
        ),
      ),
    );
  });
}

/**
 * The clock speed of a servelab simulator at `baseUrl` (GET /sim/info), or undefined when the
 * server is not one (any error, non-200, or no `simulated: true`).
 */
export function fetchSimSpeed(baseUrl: string, timeoutMs = 3000): Promise<number | undefined> {
  const url = new URL(baseUrl.replace(/\/+$/, '') + '/sim/info');
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = mod.get(url, { timeout: timeoutMs }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (text.length < 100_000) text += d;
      });
      res.on('end', () => {
        try {
          const info = JSON.parse(text) as { simulated?: unknown; speed?: unknown };
          resolve(
            res.statusCode === 200 && info.simulated === true && typeof info.speed === 'number' && info.speed > 0 ? info.speed : undefined,
          );
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}
