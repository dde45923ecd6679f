// The OpenAI-compatible endpoints of the simulated server, shaped like vLLM's responses:
// streaming SSE chunks (role chunk, content chunks, finish chunk, usage chunk), non-streaming
// bodies, and vLLM-style 400/404 errors. Token convention shared with the bench client: one
// whitespace-separated word is one token, and each generated token is one word.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { countWords } from '../../bench/datasets/tokenizer.js';
import { Rng, mixSeed } from '../scheduler/rng.js';
import type { WallRunner } from '../scheduler/wall.js';
import { completionFormat, type CompletionKind } from './completion-format.js';
import { driftStart, type Drift } from '../imitation/drift.js';
import { slowFactor, type Faults } from '../imitation/faults.js';
import { wordBlocks } from '../scheduler/block-hash.js';
import { cachedUsage } from '../imitation/cache-report.js';
import type { GpuEngineName } from '../../core/variant.js';

export interface ApiContext {
  runner: WallRunner;
  servedModel: string;
  maxModelLen: number;
  seed: number;
  /** Greedy-output drift of this server's knobs (imitation/drift.ts); none by default. */
  drift?: Drift;
  /** Failures and slowness of this server's knobs (imitation/faults.ts); none by default. */
  faults?: Faults;
  /** The imitated engine: how usage reports prompt tokens served from the prefix cache. */
  engine: GpuEngineName;
}

/** Chance that a request without ignore_eos meets EOS before max_tokens; ShareGPT runs nearly always reach max_tokens. */
const EARLY_EOS_PROB = 0.1;
const VOCAB = [
  'the',
  'model',
  'serves',
  'tokens',
  'fast',
  'on',
  'a',
  'simulated',
  'GPU',
  'with',
  'batching',
  'and',
  'cache',
  'of',
  'keys',
  'values',
  'to',
  'answer',
  'every',
  'request',
];

function hashText(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function apiError(res: ServerResponse, status: number, message: string, type = 'BadRequestError'): void {
  sendJson(res, status, { object: 'error', message, type, param: null, code: status });
}

export async function readBody(req: IncomingMessage, limit = 64 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > limit) throw new Error('request body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
      .join(' ');
  return '';
}

interface Parsed {
  promptText: string;
  promptLen: number;
  maxTokens: number;
  stream: boolean;
  includeUsage: boolean;
  ignoreEos: boolean;
  seed: number | undefined;
  /** temperature 0: the text depends on the prompt alone (a request seed changes nothing). */
  greedy: boolean;
}

function parseRequest(kind: 'chat' | 'completion', body: Record<string, unknown>, ctx: ApiContext): Parsed | string {
  let promptText = '';
  let promptLen: number;
  if (kind === 'chat') {
    if (!Array.isArray(body.messages)) return "'messages' must be a list of messages";
    promptText = body.messages.map((m) => contentText((m as { content?: unknown })?.content)).join('\n');
    promptLen = Math.max(1, countWords(promptText));
  } else {
    const p = body.prompt;
    if (typeof p === 'string') promptText = p;
    else if (Array.isArray(p) && p.every((x) => typeof x === 'number')) promptText = p.join(' ');
    else if (Array.isArray(p) && typeof p[0] === 'string') promptText = p[0];
    else if (Array.isArray(p) && Array.isArray(p[0])) promptText = (p[0] as unknown[]).join(' ');
    else return "'prompt' must be a string, a list of strings or a list of token ids";
    promptLen = Math.max(1, countWords(promptText));
  }
  const rawMax = body.max_completion_tokens ?? body.max_tokens;
  if (rawMax !== undefined && rawMax !== null && (!Number.isInteger(rawMax) || (rawMax as number) < 1))
    return `max_tokens must be at least 1, got ${String(rawMax)}.`;
  const maxTokens = (rawMax as number | undefined) ?? Math.max(1, ctx.maxModelLen - promptLen);
  if (promptLen + maxTokens > ctx.maxModelLen)
    return `This model's maximum context length is ${ctx.maxModelLen} tokens. However, you requested ${promptLen + maxTokens} tokens (${promptLen} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`;
  if (body.n !== undefined && body.n !== 1) return 'the simulator serves n=1 only';
  const so = body.stream_options as { include_usage?: unknown } | undefined;
  return {
    promptText,
    promptLen,
    maxTokens,
    stream: body.stream === true,
    includeUsage: so?.include_usage === true,
    ignoreEos: body.ignore_eos === true,
    seed: typeof body.seed === 'number' ? body.seed : undefined,
    greedy: body.temperature === 0,
  };
}

let idCounter = 0;
// Which requests fail: a fixed sequence, so a seeded run fails the same share every time.
const faultRng = new Rng(0x5eed);

async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  try {
    const parsed = JSON.parse(await readBody(req)) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function handleCompletion(kind: CompletionKind, req: IncomingMessage, res: ServerResponse, ctx: ApiContext): Promise<void> {
  const body = await readJsonObject(req);
  if (!body) return apiError(res, 400, 'Invalid JSON body');
  if (body.model !== undefined && body.model !== ctx.servedModel)
    return apiError(res, 404, `The model \`${String(body.model)}\` does not exist.`, 'NotFoundError');
  const p = parseRequest(kind, body, ctx);
  if (typeof p === 'string') return apiError(res, 400, p);
  // The test hook's failures (SERVELAB_SIM_FAULTS): a server error, as any engine may answer.
  if (ctx.faults && ctx.faults.failShare > 0 && faultRng.next() < ctx.faults.failShare)
    return apiError(res, 500, 'simulated fault (SERVELAB_SIM_FAULTS)', 'InternalServerError');
  generate(kind, p, res, ctx);
}

/** Submit the request to the runner and write its tokens as they are generated. */
function generate(kind: CompletionKind, p: Parsed, res: ServerResponse, ctx: ApiContext): void {
  // Deterministic per request content and seed, whatever the arrival order.
  const rng = new Rng(mixSeed(ctx.seed ^ (p.greedy ? 0 : (p.seed ?? 0)), hashText(p.promptText) ^ p.maxTokens));
  let target = p.maxTokens;
  if (!p.ignoreEos && rng.next() < EARLY_EOS_PROB) target = rng.int(1, p.maxTokens);
  // From the drift's first token on, each word is another one (never the undrifted word).
  const drift = ctx.drift;
  const from = drift ? driftStart(drift, new Rng(mixSeed(hashText(drift.key), hashText(p.promptText))).next()) : Infinity;
  const shift = drift ? 1 + (hashText(drift.key) % (VOCAB.length - 1)) : 0;
  const wordAt = (i: number) => VOCAB[(rng.int(0, VOCAB.length - 1) + i + (i >= from ? shift : 0)) % VOCAB.length]!;
  // The whole reply is drawn up front (the same words, in order, as drawing them step by step), so
  // the request's token blocks are known for the prefix cache: a later turn that sends this reply
  // back finds its blocks cached, as on an engine that caches generated tokens' KV.
  const reply = Array.from({ length: target }, (_, i) => wordAt(i));

  const id = `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-sim${(++idCounter).toString(16).padStart(8, '0')}`;
  const fmt = completionFormat(kind, id, Math.floor(Date.now() / 1000), ctx.servedModel);
  const finishReason = target >= p.maxTokens ? 'length' : 'stop';
  let generated = 0;
  const words: string[] = [];
  const nextText = (n: number) => {
    let t = '';
    for (let i = 0; i < n; i++) {
      const w = reply[generated + i]!;
      t += generated + i === 0 ? w : ` ${w}`;
      if (!p.stream) words.push(w);
    }
    return t;
  };
  let cached = 0;
  const usage = () => ({
    prompt_tokens: p.promptLen,
    total_tokens: p.promptLen + generated,
    completion_tokens: generated,
    ...cachedUsage(ctx.engine, cached),
  });

  let runId = 0;
  let finished = false;
  if (p.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  }
  res.on('close', () => {
    if (!finished) ctx.runner.cancel(runId);
  });
  // The faults hook's slowness: the scheduler decodes k tokens for each one the client sees.
  const k = ctx.faults ? slowFactor(ctx.faults, p.promptLen) : 1;
  let work = 0;
  runId = ctx.runner.submit(
    {
      promptLen: p.promptLen,
      maxTokens: Math.ceil(p.maxTokens * k),
      outputTarget: Math.ceil(target * k),
      blocks: wordBlocks(p.promptText, reply),
    },
    {
      onTokens(steps, first, done, cachedTokens) {
        cached = cachedTokens;
        work += steps;
        // The first step shows one token (its TTFT is the modelled one); the last shows what is left.
        const due = Math.max(first ? 1 : 0, Math.floor(work / k) - generated);
        const n = done ? target - generated : Math.min(target - generated, due);
        if (n <= 0 && !done) return;
        const text = nextText(n);
        generated += n;
        if (done) finished = true;
        if (p.stream) {
          // One write per step per stream: the step's tokens, the finish and usage chunks together.
          // vLLM sends the role chunk with the first output, not on arrival (it would fake the TTFT).
          const out = (first && kind === 'chat' ? fmt.role() : '') + fmt.step(text, done ? finishReason : null);
          if (done) res.end(out + fmt.end(p.includeUsage ? usage() : undefined));
          else res.write(out);
        } else if (done) {
          sendJson(res, 200, fmt.body(words.join(' '), finishReason, usage()));
        }
      },
    },
  );
}
