// The ShareGPT-like JSONL written once per process: every config parse writes (or re-reads and
// compares) the same file for the same prompt count and seed, which is most of the time of a test
// that parses hundreds of configs. The first call is the real writer; a later call with the same
// arguments returns the same path, whose file the first call left identical.
import type * as Jsonl from '../../../src/sim/predict/sharegpt-jsonl.js';

type Module = typeof Jsonl;

export function datasetWrittenOnce(real: Module): Module {
  const written = new Map<string, string>();
  const writeSharegptLikeJsonl: Module['writeSharegptLikeJsonl'] = (n, seed, dir = real.datasetDir()) => {
    const key = JSON.stringify([n, seed, dir]);
    let file = written.get(key);
    if (file === undefined) written.set(key, (file = real.writeSharegptLikeJsonl(n, seed, dir)));
    return file;
  };
  return { ...real, writeSharegptLikeJsonl };
}
