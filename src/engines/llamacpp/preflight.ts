// What keeps a llama-server variant from starting, checked before its launch so the plan prunes
// it with the reason (the GPU engines' rules are src/engines/preflight.ts):
// - a quantized V cache with flash attention off: llama-server 80fb11a refuses to start with
//   "quantized V cache requires flash_attn to be enabled" (captured from the binary; part A's
//   failure rule llamacpp-quantized-v-no-fa names the same text);
// - a context the host's memory cannot hold (CPU host): KV bytes per token from the GGUF header
//   (gguf.ts) x the context, plus the weights, against the memory available. At launch
//   the binary would fail with "failed to allocate buffer for kv cache" (llamacpp-kv-alloc).
// - on a GPU host, a variant that pins its layers (-fit off) and whose share of weights and KV
//   cache one GPU cannot hold (offload.ts, gpuMemoryCheck). With -fit on (the default)
//   llama-server fits what it can to the GPUs and keeps the rest in host memory.
import type { Variant } from '../../core/variant.js';
import { ggufFacts, kvBytesPerToken, type GgufFacts } from './gguf.js';
import type { PlanHost, PreflightResult } from '../kit/plan-types.js';
import { gpuMemoryCheck } from './offload.js';

const GiB = 2 ** 30;
const gib = (b: number) => (b / GiB).toFixed(b < GiB ? 2 : 1);
const QUANTIZED = /^(q|iq)/i;

/** The binary's own words (80fb11a, captured by running it with -ctv q8_0 -fa off). */
export const QUANTIZED_V_NEEDS_FA = 'quantized V cache requires flash_attn to be enabled';

/** The context llama-server allocates for these knobs: -c as given, else the model's trained context (-c 0). */
export function llamaContext(v: Variant, facts: GgufFacts | null): number | undefined {
  const k = v.knobs;
  if (k.ctxSize !== undefined) return k.ctxSize;
  if (k.maxModelLen !== undefined) return k.maxModelLen * (k.maxRunningSeqs ?? 1);
  return facts?.ctxTrain;
}

function memoryCheck(v: Variant, facts: GgufFacts, host: PlanHost): PreflightResult['failure'] {
  if (host.gpuCount > 0 || !host.cpu) return undefined;
  const ctx = llamaContext(v, facts);
  if (!ctx) return undefined;
  const kType = v.knobs.kvCacheDtype && v.knobs.kvCacheDtype !== 'auto' ? v.knobs.kvCacheDtype : 'f16';
  const perToken = kvBytesPerToken(facts, kType, v.knobs.vCacheDtype ?? kType);
  const kv = perToken * ctx;
  const avail = host.cpu.memAvailMiB * 2 ** 20;
  if (kv + facts.weightBytes <= avail) return undefined;
  return {
    kind: 'oom',
    reason: `a context of ${ctx} tokens needs ${gib(kv)} GiB of KV cache (${Math.round(perToken)} bytes per token: ${facts.layers} layers x ${facts.kvHeads} KV heads x ${facts.keyDim}+${facts.valueDim} dims, ${kType}) plus ${gib(facts.weightBytes)} GiB of weights; this host has ${gib(avail)} GiB free`,
    hint: 'give fewer slots or a smaller context per slot (-c), or a quantized KV cache (-ctk/-ctv q8_0 with -fa on)',
  };
}

export function llamacppPreflight(v: Variant, host: PlanHost): PreflightResult {
  const k = v.knobs;
  const vType = k.vCacheDtype ?? k.kvCacheDtype;
  if (vType && QUANTIZED.test(vType) && k.flashAttn === 'off') {
    return {
      failure: {
        kind: 'unsupported',
        reason: `${QUANTIZED_V_NEEDS_FA} (llama-server refuses -ctv ${vType} with -fa off)`,
        hint: 'keep flash attention on (or auto) with a quantized V cache',
      },
      warnings: [],
    };
  }
  const facts = ggufFacts(v.model);
  // A file llama-quantize makes at run time is read then; its source's shapes are the same.
  const failure = facts ? (memoryCheck(v, facts, host) ?? gpuMemoryCheck(v, host, llamaContext(v, facts))) : undefined;
  return failure ? { failure, warnings: [] } : { warnings: [] };
}
