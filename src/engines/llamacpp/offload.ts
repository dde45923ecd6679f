// llama.cpp on GPUs: the offload stage's candidates and the GPU memory a variant needs there.
// Flags and defaults from common/arg.cpp at 80fb11a (llama-server --help says the same):
//   -ngl N|auto|all   "max. number of layers to store in VRAM" (default auto)
//   -fit on|off       "whether to adjust unset arguments to fit in device memory" (default on),
//                     leaving a margin of 1024 MiB per device (common/common.h, fit_params_target)
//   -sm none|layer|row "none: use one GPU only; layer (default): split layers and KV across GPUs
//                     (pipelined); row: split weight across GPUs by rows (parallelized)"
//   -ts N0,N1,...     "fraction of the model to offload to each GPU, comma-separated list of
//                     proportions, e.g. 3,1"; unset, the split follows each GPU's free memory
//   -mg INDEX         "the GPU to use for the model (with split-mode = none), or for intermediate
//                     results and KV (with split-mode = row) (default: 0)"
// A negative layer count offloads every layer and the output (src/llama-model.cpp n_gpu_layers():
// n_layer + 1), so -ngl auto with -fit off is all of them. With -fit on llama-server places what
// fits itself, so only a variant that pins the layers (-fit off) is counted against the GPUs.
import type { Variant } from '../../core/variant.js';
import { LLAMACPP_TABLE } from './knobs.js';
import type { Candidate, EngineStageContext, PlanHost, PreflightResult } from '../kit/plan-types.js';
import { ggufFacts, kvBytesPerToken, type GgufFacts } from './gguf.js';

const MiB = 2 ** 20;
const gib = (b: number) => (b / 2 ** 30).toFixed(1);

/** The layers a variant keeps on the GPUs, of layers + 1 (the output layer counts as one). */
export function offloadedLayers(v: Variant, facts: GgufFacts): number {
  const n = v.knobs.gpuLayers;
  const all = facts.layers + 1;
  if (n === undefined || n === 'auto' || n === 'all') return all;
  const count = Number(n);
  return Number.isFinite(count) ? Math.min(Math.max(0, count), all) : all;
}

/** Each GPU's share of the model: -ts as given, else even (uniform GPUs split by free memory). */
function shares(v: Variant, gpus: number): number[] {
  if (v.knobs.splitMode === 'none' || gpus < 2) return [1];
  const ts = (v.knobs.tensorSplit ?? '')
    .split(/[,/]/)
    .filter((x) => x.trim() !== '')
    .map(Number)
    .filter((x) => Number.isFinite(x) && x >= 0);
  const parts = ts.length ? Array.from({ length: gpus }, (_, i) => ts[i] ?? 0) : Array(gpus).fill(1);
  const sum = parts.reduce((a, b) => a + b, 0) || 1;
  return parts.map((p) => p / sum);
}

export interface GpuNeed {
  /** Bytes on each GPU used, GPU 0 first. */
  perGpu: number[];
  weights: number;
  kv: number;
  layers: number;
}

/** What a variant puts on the GPUs: its offloaded share of the weights and of the KV cache, per GPU. */
export function gpuNeed(v: Variant, facts: GgufFacts, host: PlanHost, context: number): GpuNeed {
  const layers = offloadedLayers(v, facts);
  const k = v.knobs;
  const kType = k.kvCacheDtype && k.kvCacheDtype !== 'auto' ? k.kvCacheDtype : 'f16';
  const weights = (facts.weightBytes * layers) / (facts.layers + 1);
  const kv = (kvBytesPerToken(facts, kType, k.vCacheDtype ?? kType) * context * Math.min(layers, facts.layers)) / (facts.layers || 1);
  const s = shares(v, host.gpuCount);
  // Row split keeps the KV cache on the main GPU (-mg 0); layer split spreads it with the layers.
  const perGpu = s.map((share, i) => weights * share + (k.splitMode === 'row' ? (i === 0 ? kv : 0) : kv * share));
  return { perGpu, weights, kv, layers };
}

/** The layers the GPUs hold whole at this context: weights and KV per layer against their memory. */
export function layersThatFit(facts: GgufFacts, host: PlanHost, context: number): number {
  const perLayer = facts.weightBytes / (facts.layers + 1) + (kvBytesPerToken(facts) * context) / (facts.layers || 1);
  const capacity = host.gpuMemMiB * MiB * host.gpuCount;
  return Math.min(facts.layers + 1, Math.floor(capacity / perLayer));
}

/** A variant with its layers pinned (-fit off) that the GPUs cannot hold: pruned with the count. */
export function gpuMemoryCheck(v: Variant, host: PlanHost, context: number | undefined): PreflightResult['failure'] {
  if (host.gpuCount < 1 || v.knobs.fit !== false || !context) return undefined;
  const facts = ggufFacts(v.model);
  if (!facts) return undefined;
  const need = gpuNeed(v, facts, host, context);
  const cap = host.gpuMemMiB * MiB;
  const worst = need.perGpu.reduce((a, b) => Math.max(a, b), 0);
  if (worst <= cap) return undefined;
  return {
    kind: 'oom',
    reason: `${need.layers} of ${facts.layers + 1} layers on the GPU need ${gib(need.weights)} GiB of weights and ${gib(need.kv)} GiB of KV cache (${context} tokens): ${gib(worst)} GiB on one ${host.gpuName} of ${gib(cap)} GiB`,
    hint: 'offload fewer layers (-ngl N), split across more GPUs (-sm layer, -ts), or leave -fit on so that llama-server places what fits',
  };
}

/** -ts even and -ts lighter on the main GPU, for n GPUs. */
function splits(n: number): [ts: string, what: string][] {
  const even = Array(n).fill(1).join(',');
  const light = [2, ...Array(n - 1).fill(3)].join(',');
  return [
    [even, 'even'],
    [light, 'main GPU lighter'],
  ];
}

/** The offload stage on a GPU host: all layers with -fit off, -fit off alone, as many layers as fit, split modes and splits. */
export function offloadCandidates(
  w: Variant,
  ctx: EngineStageContext,
  context: number | undefined,
): { candidates: Candidate[]; notes: string[] } {
  const k = w.knobs;
  const host = ctx.host;
  const c: Candidate[] = [];
  const notes: string[] = [];
  if (k.gpuLayers !== 'all') c.push({ knobs: { gpuLayers: 'all', fit: false }, change: 'ngl=all (fit off)', needs: ['gpuLayers', 'fit'] });
  if (k.fit !== false && k.gpuLayers === undefined) c.push({ knobs: { fit: false }, change: 'fit off', needs: ['fit'] });
  const facts = ggufFacts(w.model);
  if (facts && context) {
    const fit = layersThatFit(facts, host, context);
    if (fit > 0 && fit <= facts.layers) {
      c.push({ knobs: { gpuLayers: String(fit), fit: false }, change: `ngl=${fit} (fit off)`, needs: ['gpuLayers', 'fit'] });
      notes.push(
        `${fit} of ${facts.layers + 1} layers fit the GPUs at ${context} tokens of context (weights and f16 KV per layer); the rest run on the CPU.`,
      );
    }
  }
  if (host.gpuCount > 1) {
    for (const m of LLAMACPP_TABLE.rowAt('splitMode')?.candidates ?? [])
      if (m !== (k.splitMode ?? 'layer')) c.push({ knobs: { splitMode: m }, change: `split=${m}`, needs: ['splitMode'] });
    if (k.splitMode !== 'none')
      for (const [ts, what] of splits(host.gpuCount))
        if (ts !== k.tensorSplit) c.push({ knobs: { tensorSplit: ts }, change: `ts=${ts} (${what})`, needs: ['tensorSplit'] });
    notes.push(
      'Unset, -ts follows each GPU free memory at launch; the main GPU (-mg 0) also holds intermediate results, and with -sm row the KV cache.',
    );
  }
  return { candidates: c, notes };
}
