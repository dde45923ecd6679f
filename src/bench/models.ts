// GET /v1/models: vLLM uses the first served model when --model is not given.
import http from 'node:http';
import https from 'node:https';
import { UserError } from '../core/errors.js';

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
      reject(new UserError(`cannot reach the server at ${url.origin}: ${e.code ?? e.message}. Is it running? Check --base-url or --host/--port.`, 1)),
    );
  });
}
