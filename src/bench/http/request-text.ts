// The bytes of one benchmark request: the JSON body vLLM's bench sends for each backend, and the
// HTTP/1.1 head written with it in one write.
import type { ClientOptions, RequestSpec } from './request-shapes.js';

export function buildBody(
  spec: RequestSpec,
  o: Pick<ClientOptions, 'backend' | 'model' | 'ignoreEos' | 'temperature' | 'extraBody'>,
): Record<string, unknown> {
  const body: Record<string, unknown> =
    o.backend === 'openai-chat'
      ? {
          model: o.model,
          messages: spec.messages ?? [{ role: 'user', content: spec.prompt }],
          max_completion_tokens: spec.expectedOutputLen,
          stream: true,
          stream_options: { include_usage: true },
        }
      : {
          model: o.model,
          prompt: spec.prompt,
          repetition_penalty: 1.0,
          max_tokens: spec.expectedOutputLen,
          logprobs: null,
          stream: true,
          stream_options: { include_usage: true },
        };
  if (o.temperature !== undefined) body.temperature = o.temperature;
  if (o.ignoreEos) body.ignore_eos = true;
  if (o.extraBody) Object.assign(body, o.extraBody);
  return body;
}

/** The request head and body as one string: one write, so one segment on the wire. */
export function requestText(body: string, o: ClientOptions): string {
  const headers: Record<string, string> = {
    Host: o.url.host,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'x-request-id': o.requestId,
  };
  // A given header replaces a default of the same name in any case (as Node's setHeader did).
  const set = (k: string, v: string) => {
    for (const d of Object.keys(headers)) if (d.toLowerCase() === k.toLowerCase()) delete headers[d];
    headers[k] = v;
  };
  for (const [k, v] of Object.entries(o.headers)) set(k, v);
  if (o.apiKey) set('Authorization', `Bearer ${o.apiKey}`);
  let head = `POST ${o.url.pathname}${o.url.search} HTTP/1.1\r\n`;
  for (const [k, v] of Object.entries(headers)) {
    // Node's http client refused these too (ERR_INVALID_CHAR): a CR or LF would end the head early.
    if (/[\r\n]/.test(k) || /[\r\n]/.test(v))
      throw new Error(`invalid header ${JSON.stringify(k)}: names and values cannot hold line breaks`);
    head += `${k}: ${v}\r\n`;
  }
  return `${head}\r\n${body}`;
}
