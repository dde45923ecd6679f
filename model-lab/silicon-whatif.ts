// `--set NAME=VALUE,...` of silicon-check.ts: fitted constants (src/model/fitted.ts) changed for one
// run, copied where the engine table took them at load (as model-lab/fit.ts does), so a what-if
// needs no edit of the model.
import { ENGINE_EFFICIENCY, HARDWARE } from '../src/model/efficiency.js';
import { FITTED, type FittedConstants } from '../src/model/fitted.js';
import { GPU_ENGINES } from '../src/core/variant.js';

export function applyWhatIf(spec: string): void {
  for (const kv of spec.split(',')) {
    const [k, v] = kv.split('=');
    if (!(k! in FITTED)) throw new Error(`--set: no fitted constant '${k}' (src/model/fitted.ts)`);
    (FITTED as unknown as Record<string, number>)[k!] = Number(v);
  }
  const f: FittedConstants = FITTED;
  for (const e of GPU_ENGINES) {
    const x = ENGINE_EFFICIENCY[e];
    x.moeEff = f.moeEff;
    x.stepOverheadS = f.stepOverheadS;
    x.moeLayerOverheadS = f.moeLayerOverheadS;
    x.perSeqOverheadS = f.perSeqOverheadS;
  }
  ENGINE_EFFICIENCY.vllm.frontEndPerRequestS = f.vllmFrontEndPerRequestS;
  HARDWARE.marlinFp8DenseGemmPenalty = f.marlinFp8DenseGemmPenalty;
  HARDWARE.fp8GemmEff = f.fp8GemmEff;
}
