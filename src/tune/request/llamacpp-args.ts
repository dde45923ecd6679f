// The --auto flags that bring llama.cpp into a session: --model FILE.gguf (llama.cpp alone),
// --gguf FILE (repeatable: the GGUF files llama.cpp serves, beside the GPU engines on a GPU host),
// --draft-model FILE.gguf and --llama-server PATH. Which engines run by default follows from
// them: a GGUF model is llama.cpp's alone; a GGUF beside a checkpoint adds llama.cpp to the GPU
// engines; neither leaves the GPU engines as before.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UserError } from '../../core/errors.js';
import { GPU_ENGINES, isGpuEngine, type EngineName } from '../../core/variant.js';
import type { SessionConfig } from '../config/config.js';
import type { LlamaCppConfig } from '../../engines/kit/plan-types.js';

export const isGgufPath = (p: string) => /\.gguf$/i.test(p);

function ggufFile(flag: string, text: string): string {
  const p = resolve(text);
  if (!isGgufPath(p)) throw new UserError(`${flag} ${text}: not a .gguf file (llama.cpp serves GGUF files)`);
  if (!existsSync(p) || !statSync(p).isFile()) throw new UserError(`${flag} ${text}: no such file`);
  return p;
}

export interface LlamaFlagsOut {
  /** The model as the session names it (a GGUF path resolved). */
  model: string;
  engines: EngineName[];
  llamacpp?: LlamaCppConfig;
}

/**
 * `asked`: --engines as parsed (undefined when not given); `saved`: the saved default engines.
 * Refuses a llama.cpp session without a GGUF and a GPU engine asked to serve a GGUF file.
 */
export function llamaFlags(
  values: Record<string, unknown>,
  model: string,
  asked: EngineName[] | undefined,
  saved: EngineName[] | undefined,
): LlamaFlagsOut {
  const str = (k: string) => values[k] as string | undefined;
  const listed = ((values.gguf as string[] | undefined) ?? []).map((g) => ggufFile('--gguf', g));
  const ggufModel = isGgufPath(model);
  const name = ggufModel ? ggufFile('--model', model) : model;
  const gguf = [...new Set([...(ggufModel ? [name] : []), ...listed])];
  const defaults: EngineName[] = ggufModel
    ? ['llamacpp']
    : gguf.length
      ? [...GPU_ENGINES, 'llamacpp']
      : (saved?.filter(isGpuEngine) ?? [...GPU_ENGINES]);
  const engines = asked ?? (defaults.length ? defaults : [...GPU_ENGINES]);
  const gpuAsked = engines.filter(isGpuEngine);
  if (ggufModel && gpuAsked.length) {
    throw new UserError(
      `--model ${model} is a GGUF file, which only llama.cpp serves here; give ${gpuAsked[0]} the checkpoint with --model ID and the GGUF with --gguf FILE`,
    );
  }
  const wantsLlama = !engines.every(isGpuEngine);
  if (wantsLlama && !gguf.length)
    throw new UserError('llama.cpp serves GGUF files: give --model FILE.gguf, or --gguf FILE beside the checkpoint');
  const stray = ['draft-model', 'llama-server'].find((k) => str(k) !== undefined);
  if (!wantsLlama && (stray || listed.length)) throw new UserError(`--${stray ?? 'gguf'} is llama.cpp's; add llamacpp to --engines`);
  if (!wantsLlama) return { model: name, engines };
  const draft = str('draft-model');
  const server = str('llama-server');
  if (server !== undefined && !existsSync(resolve(server))) throw new UserError(`--llama-server ${server}: no such file`);
  return {
    model: name,
    engines,
    llamacpp: { gguf, ...(draft ? { draftModel: ggufFile('--draft-model', draft) } : {}), ...(server ? { server: resolve(server) } : {}) },
  };
}

/** llama.cpp alone, no --validation: its slots are sized for the tuning workload, so validation repeats that one. */
export function llamaValidation(config: SessionConfig): void {
  if (config.llamacpp && !config.engines.some(isGpuEngine)) config.validation = [config.scenario];
}
