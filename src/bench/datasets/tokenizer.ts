// Token counting: a real tokenizer.json (via @huggingface/tokenizers, loaded lazily so importing
// src/bench stays cheap), a GGUF model's own vocabulary made into one (gguf/hf-tokenizer.ts),
// or the approximation shared with the simulator: ONE whitespace-separated word = ONE token.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../core/errors.js';
import { hfTokenizerJson } from '../../gguf/hf-tokenizer.js';
import { readGgufHeader } from '../../gguf/read.js';

export interface TokenCounter {
  mode: 'exact' | 'approximate';
  /** Tokenizer file, when exact. */
  path?: string;
  /** Token count of text; `special` adds BOS etc. as HF's tokenizer(text) does. */
  count(text: string, special?: boolean): number;
  /** Exact mode only. */
  encode?(text: string, special: boolean): number[];
  decode?(ids: number[]): string;
  /** Ids the random dataset may use: the vocabulary minus special/added tokens (vLLM main). */
  sampleIds?: number[];
  /** tokenizer.num_special_tokens_to_add() */
  numSpecial: number;
}

/** One word = one token; the simulator counts prompt tokens the same way. */
export function countWords(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

export const approximateCounter: TokenCounter = {
  mode: 'approximate',
  count: (text) => countWords(text),
  numSpecial: 0,
};

/** Hugging Face hub cache root, honouring HF_HUB_CACHE and HF_HOME. */
export function hfHubCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HF_HUB_CACHE) return env.HF_HUB_CACHE;
  if (env.HF_HOME) return path.join(env.HF_HOME, 'hub');
  return path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'huggingface', 'hub');
}

/**
 * Find tokenizer.json for `tokenizer` (a file, a folder holding one, or a model id looked up in
 * the HF cache). Returns undefined when nothing is found. A path that does not exist is a user
 * error only when it clearly is a path (starts with . or / or ends with .json).
 */
export function findTokenizerFile(tokenizer: string | undefined, strict = true, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!tokenizer) return undefined;
  if (existsSync(tokenizer)) {
    if (statSync(tokenizer).isDirectory()) {
      const f = path.join(tokenizer, 'tokenizer.json');
      return existsSync(f) ? f : undefined;
    }
    return tokenizer;
  }
  if (tokenizer.startsWith('.') || tokenizer.startsWith('/') || tokenizer.endsWith('.json')) {
    if (!strict) return undefined;
    throw new UserError(
      `tokenizer not found: ${tokenizer} (give a tokenizer.json file, a folder holding one, or a model id in the Hugging Face cache)`,
    );
  }
  const repo = path.join(hfHubCache(env), `models--${tokenizer.replaceAll('/', '--')}`);
  const snaps = path.join(repo, 'snapshots');
  if (!existsSync(snaps)) return undefined;
  const candidates: string[] = [];
  const refMain = path.join(repo, 'refs', 'main');
  if (existsSync(refMain)) candidates.push(readFileSync(refMain, 'utf8').trim());
  candidates.push(...readdirSync(snaps));
  for (const rev of candidates) {
    const f = path.join(snaps, rev, 'tokenizer.json');
    if (existsSync(f)) return f;
  }
  return undefined;
}

const cache = new Map<string, Promise<TokenCounter>>();

/** Load a tokenizer.json (and tokenizer_config.json beside it, when present). */
export function loadTokenizer(file: string): Promise<TokenCounter> {
  let p = cache.get(file);
  if (!p) {
    p = loadTokenizerUncached(file);
    cache.set(file, p);
    p.catch(() => cache.delete(file));
  }
  return p;
}

function sampleableIds(tok: {
  get_vocab(withAdded?: boolean): Map<string, number>;
  get_added_tokens_decoder(): Map<number, unknown>;
}): number[] {
  const added = tok.get_added_tokens_decoder();
  const ids = [...new Set(tok.get_vocab(true).values())].filter((id) => !added.has(id));
  return ids.sort((a, b) => a - b);
}

/** A GGUF model's own vocabulary (llama.cpp), as tokenizer.json (gguf/hf-tokenizer.ts). */
function ggufTokenizer(file: string): unknown {
  try {
    return hfTokenizerJson(readGgufHeader(file));
  } catch (e) {
    throw new UserError(`cannot use ${file} as a tokenizer: ${(e as Error).message}`);
  }
}

async function loadTokenizerUncached(file: string): Promise<TokenCounter> {
  let json: unknown;
  let cfg: unknown = {};
  if (file.endsWith('.gguf')) json = ggufTokenizer(file);
  else {
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new UserError(`cannot read tokenizer ${file}: ${(e as Error).message}`);
    }
    const cfgFile = path.join(path.dirname(file), 'tokenizer_config.json');
    if (existsSync(cfgFile)) cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
  }
  const { Tokenizer } = await import('@huggingface/tokenizers');
  let tok: InstanceType<typeof Tokenizer>;
  try {
    tok = new Tokenizer(json as object, cfg as object);
  } catch (e) {
    throw new UserError(`cannot load tokenizer ${file}: ${(e as Error).message}`);
  }
  const encode = (text: string, special: boolean) => tok.encode(text, { add_special_tokens: special }).ids;
  const numSpecial = encode('', true).length - encode('', false).length;
  return {
    mode: 'exact',
    path: file,
    count: (text, special = true) => encode(text, special).length,
    encode,
    decode: (ids) => (ids.length ? tok.decode(ids) : ''),
    sampleIds: sampleableIds(tok),
    numSpecial,
  };
}

/**
 * The counter for a run: the tokenizer named (file, folder or cached model id), else the
 * model id's cached tokenizer, else the approximation.
 */
export async function resolveTokenCounter(tokenizer: string | undefined, model: string | undefined): Promise<TokenCounter> {
  const file = findTokenizerFile(tokenizer) ?? (tokenizer ? undefined : findTokenizerFile(model, false));
  return file ? loadTokenizer(file) : approximateCounter;
}
