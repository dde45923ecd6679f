// llama.cpp observations in the calibration fit: the figures of llamacpp-estimate.ts for an
// observation's GGUF file (the variant's model), knobs and workload on this host's CPU, under the
// fit's corrections. src/sim/predict/calibrated.ts sends llamacpp observations here. The CPU facts,
// the host's load included, are read once, when the first observation is predicted (session
// start), unless a caller that measured them earlier sets them (useLlamacppCpu).
import { existsSync } from 'node:fs';
import type { Corrections } from '../../model/calibration/corrections.js';
import type { Figures } from '../../model/calibration/observation.js';
import { hostCpuFacts } from '../../host/cpu.js';
import type { CpuFacts, CpuLoad } from '../../model/cpu.js';
import { readGgufHeader } from '../../gguf/read.js';
import { ggufFacts, llamacppEstimate, type GgufFacts } from '../../model/llamacpp-estimate.js';
import type { Knobs } from '../../core/variant.js';

const facts = new Map<string, GgufFacts>();
/** Files whose facts were derived before they existed: read from the file itself once it is there. */
const derived = new Set<string>();
let cpu: CpuFacts | undefined;

/**
 * Facts for a GGUF file that does not exist yet: one the quantization stage's llama-quantize will
 * make (the planner derives them from its source, src/tune/plan/llamacpp-predict.ts). A file that
 * exists is read instead.
 */
export function planGgufFacts(model: string, f: GgufFacts): void {
  if (facts.has(model)) return;
  facts.set(model, f);
  derived.add(model);
}

/** Predict on these CPU facts from now on (a script that read the host's load before it launched anything). */
export function useLlamacppCpu(facts: CpuFacts): void {
  cpu = facts;
}

/** The run an observation names, as far as llama.cpp's estimate reads it. */
export interface LlamacppRun {
  model: string;
  knobs: Knobs;
  workload: { numPrompts: number; inputLen?: number; outputLen?: number; maxConcurrency: number | null };
  /** The host's load this variant was launched under, where it was read (else the session-start facts stand). */
  cpuLoad?: CpuLoad;
}

/** The estimate's figures; undefined for a workload without fixed lengths or a model that is not a readable GGUF. */
export function llamacppFigures(r: LlamacppRun, k: Corrections): Figures | undefined {
  const w = r.workload;
  if (w.inputLen === undefined || w.outputLen === undefined) return undefined;
  if (derived.has(r.model) && existsSync(r.model)) {
    derived.delete(r.model);
    facts.delete(r.model);
  }
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
    r.cpuLoad
      ? { ...cpu, busyCores: Math.min(cpu.cores, Math.max(0, r.cpuLoad.busyCores)), loadAvg1: Math.max(0, r.cpuLoad.loadAvg1) }
      : cpu,
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
