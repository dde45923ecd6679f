// The Model screen's facts for a GGUF file (llama.cpp's model): read from the file's own header,
// not from a config.json or the built-in catalog. The shapes come from the planner's reading
// (ggufFacts, src/engines/llamacpp/gguf.ts); heads and parameters from the header's metadata and tensors; a
// file `servelab random-gguf` wrote says so, since its outputs are meaningless.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { plain } from '../../gguf/format.js';
import { readGgufHeader } from '../../gguf/read.js';
import { RANDOM_NOTE } from '../../gguf/random.js';
import { ggufFacts } from '../../engines/llamacpp/gguf.js';
import type { ModelView } from './types.js';

export function ggufModelView(id: string): ModelView {
  const file = resolve(id);
  if (!existsSync(file)) return { id, known: false, weights: [], note: `${id}: no such GGUF file` };
  const facts = ggufFacts(file);
  let header;
  try {
    header = readGgufHeader(file);
  } catch (e) {
    return { id, known: false, weights: [], note: `${id} is not a readable GGUF file: ${(e as Error).message}` };
  }
  if (!facts) return { id, known: false, weights: [], note: `${id} is not a readable GGUF file` };
  const meta = (k: string) => plain(header.metadata.get(k));
  const heads = Number(meta(`${facts.arch}.attention.head_count`)) || undefined;
  const params = header.tensors.reduce((s, t) => s + t.dims.reduce((a, b) => a * b, 1), 0);
  const random = meta('servelab.random_weights') === true;
  return {
    id,
    known: true,
    // Short enough for an 80-column terminal.
    note: random ? `GGUF · ${RANDOM_NOTE}` : 'GGUF file, served by llama.cpp',
    architecture: facts.arch,
    paramsB: params / 1e9,
    ...(heads ? { heads } : {}),
    kvHeads: facts.kvHeads,
    layers: facts.layers,
    ...(facts.ctxTrain ? { contextLen: facts.ctxTrain } : {}),
    checkpointDtype: `GGUF ${facts.weightType}`,
    weights: [{ dtype: facts.weightType, bytes: facts.weightBytes }],
  };
}
