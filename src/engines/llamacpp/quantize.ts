// The GGUF a llama.cpp variant serves, made before its launch when the planner named it as one
// llama-quantize writes into the run folder (quantizedGgufs, gguf.ts). A file that
// is there (a resume, a second variant on it) is used as it is. llama-quantize is the one next to
// the llama-server launched, else the one on PATH, else servelab's build (`servelab engines
// build llamacpp` builds both). Usage, 80fb11a's tools/quantize: `llama-quantize model-f32.gguf
// [model-quant.gguf] type [nthreads]`.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import type { Failure } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import { findOnPath } from '../../core/which.js';
import { findLlamaServer } from './detect.js';
import { llamaCppPaths } from '../../host/llamacpp-build.js';
import type { LlamaCppConfig } from '../kit/plan-types.js';
import { quantizedGgufs } from './gguf.js';

/** llama-quantize beside the server, on PATH, or in servelab's build; undefined when none. */
export function findLlamaQuantize(server?: string): string | undefined {
  const found = findLlamaServer(server);
  const beside = found ? join(dirname(found.path), 'llama-quantize') : undefined;
  if (beside && existsSync(beside)) return beside;
  return findOnPath('llama-quantize') ?? (existsSync(llamaCppPaths().quantize) ? llamaCppPaths().quantize : undefined);
}

export interface QuantizeOutcome {
  /** Seconds llama-quantize ran (0 when the file was there). */
  seconds: number;
  failure?: Failure;
}

/** Make the variant's GGUF when the plan names it as a quantized one and it is not there yet. */
export async function ensureGguf(
  variant: Variant,
  llama: LlamaCppConfig | undefined,
  runDir: string,
  signal?: AbortSignal,
): Promise<QuantizeOutcome> {
  if (!llama || existsSync(variant.model)) return { seconds: 0 };
  const target = quantizedGgufs(llama.gguf, runDir).find((q) => q.path === variant.model);
  if (!target) return { seconds: 0, failure: { kind: 'crash', reason: `the GGUF file ${variant.model} does not exist` } };
  const exe = findLlamaQuantize(llama.server);
  if (!exe) {
    return {
      seconds: 0,
      failure: {
        kind: 'unsupported',
        reason: 'llama-quantize is not here to make the quantized GGUF',
        hint: 'run `servelab engines build llamacpp` (it builds llama-quantize beside llama-server), or give the files with --gguf',
      },
    };
  }
  mkdirSync(dirname(target.path), { recursive: true });
  const partial = `${target.path}.part`;
  const t0 = Date.now();
  const r = await execa(exe, [target.from, partial, target.type, String(availableParallelism())], {
    reject: false,
    all: true,
    ...(signal ? { cancelSignal: signal } : {}),
  });
  const seconds = (Date.now() - t0) / 1000;
  if (r.exitCode !== 0 || !existsSync(partial)) {
    const tail = String(r.all ?? '')
      .trim()
      .split('\n')
      .slice(-4);
    return {
      seconds,
      failure: { kind: 'crash', reason: `llama-quantize ${target.type} failed (exit ${r.exitCode ?? 'killed'})`, evidence: tail },
    };
  }
  renameSync(partial, target.path);
  return { seconds };
}
