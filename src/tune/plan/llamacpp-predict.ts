// The planner's prior for llama.cpp variants: llama.cpp's own closed-form estimate
// (src/model/llamacpp-estimate.ts, through src/sim/predict/llamacpp-calibrated.ts, the same figures the
// session's calibration fits) with neutral corrections, on this host's CPU. Its efficiencies are
// hand-set priors, not fitted: the session's calibration moves them as variants are measured
// (docs/calibration.md). A file the quantization stage will make does not exist at plan time: its
// facts are the source file's with the quantized tensors' bytes at the target type's block size
// (GGML_TYPES: Q8_0 34 bytes per 32 values, Q4_0 18), every other tensor as it is. llama-quantize
// keeps some tensors at other types (norms in F32, an output matrix at Q6_K for Q4_0): an
// approximation the calibration corrects, like the efficiencies.
import type { Predicted } from '../../core/predicted.js';
import type { Scenario } from '../../core/scenario.js';
import type { Variant } from '../../core/variant.js';
import { GGML_TYPES } from '../../gguf/format.js';
import { readGgufHeader } from '../../gguf/read.js';
import { ggufFacts } from '../../model/llamacpp-estimate.js';
import { NEUTRAL } from '../../model/calibration/corrections.js';
import { llamacppFigures, planGgufFacts } from '../../sim/predict/llamacpp-calibrated.js';
import type { SessionConfig } from '../config/config.js';
import { scenarioRequests } from '../../sim/predict/workload.js';
import { quantizedGgufs } from '../../engines/llamacpp/gguf.js';
import { existsSync } from 'node:fs';

/** Register the derived facts of each file llama-quantize will make for this session. */
const planned = new Set<string>();

function planQuantized(config: SessionConfig, runDir: string): void {
  for (const q of quantizedGgufs(config.llamacpp?.gguf ?? [], runDir)) {
    // Once per file: every prediction of the plan comes here.
    if (planned.has(q.path) || existsSync(q.path)) continue;
    planned.add(q.path);
    try {
      const h = readGgufHeader(q.from);
      // 2-D weight matrices are what llama-quantize converts; 1-D norms and biases stay F32.
      const quantized = h.tensors.map((t) => (t.dims.length >= 2 ? { ...t, type: GGML_TYPES[q.type]![0] } : t));
      planGgufFacts(q.path, ggufFacts({ ...h, tensors: quantized }));
    } catch {
      // An unreadable source has no prior; the session says so where it reads the file.
    }
  }
}

/** The prior for a llama.cpp variant on `scenario`, or undefined (not a readable GGUF, or no lengths). */
export function llamacppPrior(variant: Variant, scenario: Scenario, config: SessionConfig, runDir: string): Predicted | undefined {
  planQuantized(config, runDir);
  const lengths = scenarioRequests(scenario, scenario.seed);
  if (!lengths.length) return undefined;
  const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  const f = llamacppFigures(
    {
      model: variant.model,
      knobs: variant.knobs,
      workload: {
        numPrompts: scenario.numPrompts,
        inputLen: mean(lengths.map((l) => l.promptLen)),
        outputLen: mean(lengths.map((l) => l.outputLen)),
        maxConcurrency: scenario.maxConcurrency ?? null,
      },
    },
    NEUTRAL,
  );
  return f ? { totalTokPerS: f.totalTokPerS, meanTtftMs: f.meanTtftMs, meanTpotMs: f.meanTpotMs } : undefined;
}
