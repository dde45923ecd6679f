// llama.cpp's stages: what the planner tries next from a carried llama-server winner, one kind of
// knob per stage (tune/config/config.ts LLAMACPP_STAGES). The defaults each stage moves away from are
// llama-server's own at 80fb11a (tools/server/README.md, generated from common/arg.cpp): -np -1
// (auto: 4 slots, unified KV), -c 0 (the model's trained context), -b 2048, -ub 512, -fa auto,
// -ctk/-ctv f16, -t -1 (auto), -ngl auto, --fit on, -sm layer (the offload stage: offload.ts). The GPU engines' stages are not
// llama.cpp's, and llama.cpp's are not theirs: such a stage is skipped with the reason.
import { basename } from 'node:path';
import type { Variant } from '../../core/variant.js';
import { LLAMACPP_TABLE } from './knobs.js';
import type { Candidate, EngineStageContext as ExpandContext, StageOut } from '../kit/plan-types.js';
import { ggufFacts, ggufLabel, quantizedGgufs } from './gguf.js';
import { offloadCandidates } from './offload.js';
import { llamaContext } from './preflight.js';

/** The slots llama-server runs when -np is not given (-np -1 = auto, tools/server/README.md). */
export const LLAMA_DEFAULT_SLOTS = 4;
const SLOTS = [1, 2, 8, 16, 32];
const UNIFIED_SLOTS = [8, 16];
/** -b / -ub pairs: the default -b with a smaller and a larger -ub, and smaller and larger -b. */
const BATCHES: [b: number, ub: number][] = [
  [2048, 128],
  [2048, 256],
  [2048, 1024],
  [512, 512],
  [1024, 512],
  [4096, 512],
  [4096, 1024],
];
const KV_TYPES = ['q8_0', 'q4_0'];

const out = (candidates: Candidate[], notes: string[] = [], skipped?: string): StageOut => ({
  candidates,
  notes,
  ...(skipped ? { skipped } : {}),
});

/** Tokens one request of the tuning workload may hold (prompt + output), with room for the chat template. */
export function contextPerRequest(ctx: ExpandContext): number {
  const longest = Math.max(256, ...ctx.requestLengths().map((r) => r.promptLen + r.outputLen));
  return Math.ceil((longest * 1.1 + 64) / 256) * 256;
}

function quantization(w: Variant, ctx: ExpandContext): StageOut {
  const llama = ctx.session.llamacpp;
  const given = llama?.gguf ?? [];
  const made = quantizedGgufs(given, ctx.session.runDir ?? `${ctx.session.runsDir}/RUN`);
  const files = [...given, ...made.map((q) => q.path)].filter((f) => f !== w.model);
  if (!files.length)
    return out([], [], `one GGUF file (${ggufLabel(w.model)}), already quantized: give the others to compare with --gguf FILE`);
  const notes = made.length
    ? [
        `llama-quantize makes ${made.map((q) => q.type).join(' and ')} from ${basename(made[0]!.from)} in the run folder before their launch.`,
      ]
    : [];
  notes.push('A smaller weight type trades accuracy for speed; servelab does not measure accuracy: check it on your own evaluation.');
  return out(
    files.map((f) => ({ model: f, knobs: {}, change: `gguf ${made.find((q) => q.path === f)?.type ?? ggufLabel(f)}`, needs: [] })),
    notes,
  );
}

function offload(w: Variant, ctx: ExpandContext): StageOut {
  if (ctx.host.gpuCount < 1) return out([], [], 'no GPU: llama.cpp runs every layer on the CPU');
  const o = offloadCandidates(w, ctx, llamaContext(w, ggufFacts(w.model)));
  return out(o.candidates, o.notes);
}

function slots(w: Variant, ctx: ExpandContext): StageOut {
  const per = contextPerRequest(ctx);
  const now = w.knobs.maxRunningSeqs ?? LLAMA_DEFAULT_SLOTS;
  const c: Candidate[] = [];
  // Split KV (one buffer per slot, the default when -np is given): each slot holds a whole request.
  for (const n of SLOTS) {
    if (n === now && w.knobs.ctxSize === n * per) continue;
    c.push({
      knobs: { maxRunningSeqs: n, ctxSize: n * per, kvUnified: undefined, ctxPerSlot: undefined },
      change: `slots=${n} ctx=${n * per}`,
      needs: ['maxRunningSeqs', 'ctxSize'],
    });
  }
  // Unified KV: the slots share one pool half the size, each slot still allowed a whole request.
  for (const n of UNIFIED_SLOTS) {
    const total = Math.max(per, (n * per) / 2);
    c.push({
      knobs: { maxRunningSeqs: n, ctxSize: total, kvUnified: true, ctxPerSlot: per },
      change: `slots=${n} unified ctx=${total}`,
      needs: ['maxRunningSeqs', 'ctxSize', 'kvUnified', 'ctxPerSlot'],
    });
  }
  const notes = [
    `Each slot is given ${per} tokens: the tuning workload's longest request (prompt + output) with 10% and 64 tokens to spare.`,
  ];
  return out(c, notes);
}

function batchSize(w: Variant): StageOut {
  const b0 = w.knobs.maxBatchedTokens ?? 2048;
  const ub0 = w.knobs.ubatch ?? 512;
  const c: Candidate[] = [];
  for (const [b, ub] of BATCHES) {
    // llama-server caps -ub at -b (common/arg.cpp): a larger one would be the capped server.
    if (ub > b || (b === b0 && ub === ub0)) continue;
    c.push({ knobs: { maxBatchedTokens: b, ubatch: ub }, change: `b=${b} ub=${ub}`, needs: ['maxBatchedTokens', 'ubatch'] });
  }
  return out(c);
}

function kvCache(w: Variant): StageOut {
  const k = w.knobs;
  const fa = k.flashAttn ?? 'auto';
  const c: Candidate[] = [];
  for (const v of LLAMACPP_TABLE.rowAt('flashAttn')?.candidates ?? ['on', 'off'])
    if (v !== fa) c.push({ knobs: { flashAttn: v }, change: `fa=${v}`, needs: ['flashAttn'] });
  for (const t of KV_TYPES) if (t !== k.kvCacheDtype) c.push({ knobs: { kvCacheDtype: t }, change: `kv=${t}`, needs: ['kvCacheDtype'] });
  // The same cache with flash attention off cannot start (preflight says why): shown, not launched.
  if (fa !== 'off')
    c.push({ knobs: { kvCacheDtype: 'q8_0', flashAttn: 'off' }, change: 'kv=q8_0 fa=off', needs: ['kvCacheDtype', 'flashAttn'] });
  return out(c, ['A quantized KV cache holds more context in the same memory; its accuracy cost is not measured by servelab.']);
}

function threads(w: Variant, ctx: ExpandContext): StageOut {
  const n = ctx.host.cpu?.threads;
  if (!n) return out([], [], 'the host reports no CPU count');
  const counts = [...new Set([1, Math.floor(n / 2), n])].filter((t) => t >= 1);
  const c: Candidate[] = [];
  for (const t of counts) if (t !== w.knobs.threads) c.push({ knobs: { threads: t }, change: `threads=${t}`, needs: ['threads'] });
  for (const t of counts)
    if (t !== w.knobs.threadsBatch) c.push({ knobs: { threadsBatch: t }, change: `threads-batch=${t}`, needs: ['threadsBatch'] });
  return out(c, [`This host gives servelab ${n} CPU thread(s); llama-server's -t -1 picks its own count.`]);
}

function speculative(w: Variant, ctx: ExpandContext): StageOut {
  if (w.knobs.speculative) return out([], [], 'the carried winner already decodes speculatively');
  const draft = ctx.session.llamacpp?.draftModel;
  if (!draft) return out([], [], 'no draft model: give a small GGUF of the same vocabulary with --draft-model FILE.gguf');
  const c = [8, 16].map((n) => ({
    knobs: { speculative: { method: 'draft' as const, draftModel: draft, draftTokens: n } },
    change: `draft ${basename(draft)} n=${n}`,
    needs: ['speculative' as const],
  }));
  return out(c, ['Speculative decoding is a latency knob: it cuts TPOT at low load and can cost throughput at high concurrency.']);
}

const LLAMA_STAGE: Partial<Record<string, (w: Variant, ctx: ExpandContext) => StageOut>> = {
  quantization,
  offload,
  slots,
  'batch-size': batchSize,
  'kv-cache': kvCache,
  threads,
  speculative,
};

/** A stage for a llama.cpp winner: its own candidates, or skipped when the stage is a GPU engine's. */
export function llamaStageCandidates(stage: string, w: Variant, ctx: ExpandContext): StageOut {
  const f = LLAMA_STAGE[stage];
  if (!f)
    return out(
      [],
      [],
      `a stage of the GPU engines: llama.cpp (the carried winner) has its own (offload, slots, batch-size, kv-cache, threads)`,
    );
  return f(w, ctx);
}

/** The stages only llama.cpp runs: a GPU engine's winner skips them. */
export const LLAMA_ONLY_STAGES = ['offload', 'slots', 'batch-size', 'kv-cache', 'threads'] as const;
