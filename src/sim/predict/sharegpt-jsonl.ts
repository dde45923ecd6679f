// The ShareGPT-shaped workload as a file `vllm bench serve --dataset-name custom` reads, so a run
// servelab made can be repeated with vLLM's own client: one {"prompt", "output_tokens"} per line
// (vllm/benchmarks/datasets.py CustomDataset), lengths from sharegptLike(n, seed).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharegptLike } from './workload.js';

// Common English words that are one token each (with their leading space) in the Llama-3 and
// Qwen tokenizers, so a prompt of N words is about N tokens there too; servelab's own
// no-tokenizer convention counts one word as one token exactly.
const WORDS =
  'the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part'.split(
    ' ',
  );

/**
 * `len` words for prompt number `seed`. Its first two words name the prompt (unique below 10,000
 * prompts), so no two prompts share a leading block: like ShareGPT's first turns, they offer a
 * prefix cache nothing (without them, prompts 100 apart were the same text).
 */
export function promptWords(len: number, seed: number): string {
  const out: string[] = [];
  const n = WORDS.length;
  for (let i = 0; i < len; i++) out.push(WORDS[i === 0 ? seed % n : i === 1 ? Math.floor(seed / n) % n : (i * 31 + seed * 7) % n]!);
  return out.join(' ');
}

/** The JSONL text: n ShareGPT-shaped prompts (lengths only matter), with their output lengths. */
export function sharegptLikeJsonl(n: number, seed: number): string {
  return (
    sharegptLike(n, seed)
      .map((r, i) => JSON.stringify({ prompt: promptWords(r.promptLen, i), output_tokens: r.outputLen }))
      .join('\n') + '\n'
  );
}

/** Where generated datasets live: $SERVELAB_DATA_DIR, else the user's cache folder. */
export function datasetDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SERVELAB_DATA_DIR ?? path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'servelab', 'datasets');
}

/** Write (or reuse, when identical) the ShareGPT-shaped JSONL for n prompts and a seed; returns its path. */
export function writeSharegptLikeJsonl(n: number, seed: number, dir = datasetDir()): string {
  const file = path.join(dir, `sharegpt-like-n${n}-s${seed}.jsonl`);
  const text = sharegptLikeJsonl(n, seed);
  let same = false;
  try {
    same = readFileSync(file, 'utf8') === text;
  } catch {
    same = false;
  }
  if (!same) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, text);
  }
  return file;
}
