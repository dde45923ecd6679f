// llama.cpp observations in the calibration fit: the figures of llamacpp-estimate.ts for an
// observation's GGUF file (the variant's model), knobs and workload on this host's CPU, under the
// fit's corrections. src/sim/calibrated.ts sends llamacpp observations here.
import type { Corrections } from '../model/calibration/corrections.js';
import type { Figures } from '../model/calibration/observation.js';
import { hostCpuFacts, type CpuFacts } from '../model/cpu.js';
import { readGgufHeader } from '../model/gguf/read.js';
import { ggufFacts, llamacppEstimate, type GgufFacts } from '../model/llamacpp-estimate.js';
import type { Knobs } from '../core/variant.js';

const facts = new Map<string, GgufFacts>();
let cpu: CpuFacts | undefined;

/** The run an observation names, as far as llama.cpp's estimate reads it. */
export interface LlamacppRun {
  model: string;
  knobs: Knobs;
  workload: { numPrompts: number; inputLen?: number; outputLen?: number; maxConcurrency: number | null };
}

/** The estimate's figures; undefined for a workload without fixed lengths or a model that is not a readable GGUF. */
export function llamacppFigures(r: LlamacppRun, k: Corrections): Figures | undefined {
  const w = r.workload;
  if (w.inputLen === undefined || w.outputLen === undefined) return undefined;
  if (!facts.has(r.model)) {
    try {
      facts.set(r.model, ggufFacts(readGgufHeader(r.model)));
    } catch {
      return undefined; // not a GGUF here: the fit drops the observation and names it
    }
  }
  cpu ??= hostCpuFacts();
  const e = llamacppEstimate(
    facts.get(r.model)!,
    r.knobs,
    cpu,
    {
      numPrompts: w.numPrompts,
      inputLen: w.inputLen,
      outputLen: w.outputLen,
      ...(w.maxConcurrency ? { maxConcurrency: w.maxConcurrency } : {}),
    },
    k,
  );
  return { totalTokPerS: e.totalTokPerS, meanTtftMs: e.meanTtftMs, meanTpotMs: e.meanTpotMs };
}
