// The candidates of each later stage: what the planner tries next from the carried winner, one
// kind of knob per stage. Enumerated values (attention backends, speculative methods) come from
// the engines' knob tables at the variant's engine version, so a new backend is one table row.
import { getAdapter, planningOf, stageOwner } from '../../engines/index.js';
import type { Candidate, EngineStageContext, PlanHost, StageOut } from '../../engines/kit/plan-types.js';
import type { ExpandContext } from './types.js';
import { scenarioLengths } from './deps.js';
import type { Knobs, KnobName, Variant } from '../../core/variant.js';
import { rowAt } from '../../engines/table.js';
import { resolveVersion } from '../../engines/data/versions.js';
import type { ModelInfo } from '../../model/models.js';
import type { StageName } from '../config/config.js';
import { crossNodeCandidates } from './cross-node.js';
import { cacheOffBackendNotes, cacheStage, parallelismCacheNotes } from './cache-stage.js';
import { rocmAttentionBackends, rocmStage } from './rocm-stage.js';

const BATCHED_TOKENS = [4096, 8192, 16384];
const RUNNING_SEQS = [512, 1024];

function quantization(w: Variant, ctx: ExpandContext, info: ModelInfo | undefined): StageOut {
  const { config, fp8Checkpoint } = ctx;
  const k = w.knobs;
  const c: Candidate[] = [];
  const servesBf16 = w.model === config.model && (info?.weightDtype ?? 'bf16') === 'bf16';
  if (servesBf16 && fp8Checkpoint) c.push({ model: fp8Checkpoint, knobs: {}, change: `checkpoint ${fp8Checkpoint}`, needs: [] });
  if (servesBf16 && !k.quantization) c.push({ knobs: { quantization: 'fp8' }, change: 'quant=fp8 (online)', needs: ['quantization'] });
  if (!k.kvCacheDtype || k.kvCacheDtype === 'auto') c.push({ knobs: { kvCacheDtype: 'fp8' }, change: 'kv=fp8', needs: ['kvCacheDtype'] });
  if (!c.length) return { candidates: c, skipped: 'the carried winner already serves FP8 weights and an FP8 KV cache', notes: [] };
  return { candidates: c, notes: [] };
}

function parallelism(w: Variant, ctx: ExpandContext, info: ModelInfo | undefined): StageOut {
  const host = ctx.host;
  const k = w.knobs;
  if (host.gpuCount < 2) return { candidates: [], skipped: 'single GPU: there is no parallelism to choose', notes: [] };
  const tp = k.tp ?? 1;
  const c: Candidate[] = [];
  const moe = !!info?.moe;
  if (moe && !(k.ep && k.ep > 1) && tp > 1) c.push({ knobs: { ep: tp }, change: `tp${tp}+ep${tp}`, needs: ['ep'] });
  if ((moe || !!info?.mla) && !k.dpAttention && tp > 1) {
    c.push({ knobs: { dp: tp, dpAttention: true }, change: `tp${tp}+dp-attention`, needs: ['dp', 'dpAttention'] });
  }
  // DP replicas: halve the TP group down to one GPU, one replica per group; preflight prunes
  // the ones whose weights no longer fit.
  for (let t = tp / 2; t >= 1; t /= 2) {
    if (!Number.isInteger(t) || host.gpuCount % t !== 0) break;
    const knobs: Knobs = { tp: t > 1 ? t : undefined, dp: host.gpuCount / t, ep: undefined, dpAttention: undefined };
    c.push({ knobs, change: `tp${t} x dp${host.gpuCount / t} replicas`, needs: ['dp'] });
  }
  // Across the nodes of a cluster: TP inside a node x PP (or EP) across nodes (cross-node.ts).
  const cross = crossNodeCandidates(k, w.engine, host, info);
  c.push(...cross.candidates);
  if (!c.length) return { candidates: c, skipped: `nothing to try beyond tp${tp} on ${host.gpuCount} GPUs`, notes: cross.notes };
  return { candidates: c, notes: [...cross.notes, ...parallelismCacheNotes(c, ctx)] };
}

function batching(w: Variant): StageOut {
  const k = w.knobs;
  const c: Candidate[] = [];
  for (const n of BATCHED_TOKENS)
    if (k.maxBatchedTokens !== n) c.push({ knobs: { maxBatchedTokens: n }, change: `mbt=${n}`, needs: ['maxBatchedTokens'] });
  for (const n of RUNNING_SEQS)
    if (k.maxRunningSeqs !== n) c.push({ knobs: { maxRunningSeqs: n }, change: `seqs=${n}`, needs: ['maxRunningSeqs'] });
  // vLLM >= 0.17 --performance-mode is a candidate of this stage, not a stage of its own: what
  // throughput mode changes first is the batch limits themselves (it doubles the *defaulted*
  // max_num_batched_tokens / max_num_seqs, explicit ones are left alone: arg_utils.py), so it
  // competes with the explicit limits above from the same carried winner, and a later stage
  // would only ever see it on top of limits that cancel its main effect. Values from the table.
  const perf = rowAt(w.engine, 'performanceMode', resolveVersion(w.engine, w.engineVersion).table);
  for (const m of perf?.candidates ?? [])
    if (k.performanceMode !== m) c.push({ knobs: { performanceMode: m }, change: `perf=${m}`, needs: ['performanceMode'] });
  return { candidates: c, notes: [] };
}

/**
 * FlashAttention-3 kernels are built for Hopper (SM90) only (Dao-AILab/flash-attention README,
 * "FlashAttention-3 ... H100/H800"). An unknown compute capability is given the benefit of the
 * doubt, an AMD host (no compute capability at all) is not Hopper.
 */
const hopper = (host: ExpandContext['host']) =>
  host.vendor !== 'amd' && (host.computeCap === undefined || (host.computeCap >= 9 && host.computeCap < 10));
const gpuText = (host: ExpandContext['host']) => (host.vendor === 'amd' ? `${host.gpuName} (AMD)` : String(host.computeCap));

function attention(w: Variant, ctx: ExpandContext): StageOut {
  const notes: string[] = [];
  // An AMD host tries ROCm's own backends (the engine's ROCm rows), not the NVIDIA kernels.
  const amd = rocmAttentionBackends(w, ctx);
  let backends = (amd ?? ctx.deps.engineInfo(w.engine).attentionBackends).filter((b) => b !== w.knobs.attentionBackend);
  if (!amd && getAdapter(w.engine).hopperOnlyBackends?.includes('fa3') && !hopper(ctx.host) && backends.includes('fa3')) {
    backends = backends.filter((b) => b !== 'fa3');
    notes.push(`fa3 is not tried: FlashAttention-3 runs on Hopper (compute capability 9.0) only, this GPU is ${gpuText(ctx.host)}`);
  }
  if (!backends.length) return { candidates: [], skipped: `${w.engine} offers no attention backend to choose`, notes };
  notes.push(...cacheOffBackendNotes(w, backends, ctx));
  return {
    candidates: backends.map((b) => ({ knobs: { attentionBackend: b }, change: `attn=${b}`, needs: ['attentionBackend'] as KnobName[] })),
    notes,
  };
}

function compile(w: Variant): StageOut {
  const k = w.knobs;
  const c: Candidate[] = [];
  // vLLM compiles by default, so its candidate is compile off (CUDA graphs kept: see the vLLM
  // knob table); the others compile only when asked.
  if (getAdapter(w.engine).compilesByDefault) {
    if (k.torchCompile !== false) c.push({ knobs: { torchCompile: false }, change: 'torch.compile off', needs: ['torchCompile'] });
  } else if (!k.torchCompile) c.push({ knobs: { torchCompile: true }, change: 'torch.compile on', needs: ['torchCompile'] });
  if (k.cudaGraph !== false) c.push({ knobs: { cudaGraph: false }, change: 'CUDA graphs off (eager)', needs: ['cudaGraph'] });
  return { candidates: c, notes: [] };
}

function speculative(w: Variant, info: ModelInfo | undefined): StageOut {
  if (w.knobs.speculative) return { candidates: [], skipped: 'the carried winner already decodes speculatively', notes: [] };
  const notes = ['Speculative decoding is a latency knob: it cuts TPOT at low load and can collapse throughput at high concurrency.'];
  const c: Candidate[] = [];
  if ((info?.mtpLayers ?? 0) > 0) {
    c.push({
      knobs: { speculative: { method: 'mtp', numSteps: 1, topk: 1, draftTokens: 2 } },
      change: 'spec=mtp (1 step)',
      needs: ['speculative'],
    });
  }
  c.push({ knobs: { speculative: { method: 'ngram', numSteps: 3, draftTokens: 4 } }, change: 'spec=ngram', needs: ['speculative'] });
  // Only methods the engine's table lists at this version (vLLM 0.11 has no draft models, ...).
  const methods = rowAt(w.engine, 'speculative.method', resolveVersion(w.engine, w.engineVersion).table)?.values ?? {};
  return { candidates: c.filter((x) => !!methods[x.knobs.speculative!.method]), notes };
}

/** What an engine's own stages are expanded with (EngineAdapter.planning), from the planner's context. */
export function engineStageContext(ctx: ExpandContext): EngineStageContext {
  return { session: ctx.config, host: ctx.host, requestLengths: () => scenarioLengths(ctx.config.scenario) };
}

export function stageCandidates(stage: StageName, w: Variant, ctx: ExpandContext): StageOut {
  // Every engine has a cache stage: its own candidates come from src/engines (cache-stage.ts).
  if (stage === 'cache') return cacheStage(w, ctx);
  if (stage === 'rocm') return rocmStage(w, ctx);
  const own = planningOf(w.engine);
  if (own) return own.stageCandidates(stage, w, engineStageContext(ctx));
  const owner = stageOwner(stage);
  if (owner) return { candidates: [], skipped: `a ${owner.label} stage: the carried winner is ${w.engine}`, notes: [] };
  const info = ctx.deps.model(ctx.config.model);
  switch (stage) {
    case 'engine':
      // Expanded by engineStage(); listed here for completeness.
      return { candidates: [], notes: [] };
    case 'quantization':
      return quantization(w, ctx, info);
    case 'parallelism':
      return parallelism(w, ctx, info);
    case 'batching':
      return batching(w);
    case 'attention':
      return attention(w, ctx);
    case 'compile':
      return compile(w);
    case 'speculative':
      return speculative(w, info);
    default:
      return { candidates: [], notes: [] };
  }
}
