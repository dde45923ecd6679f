// Host corrections: a small declared set of multipliers on the model's fitted constants, per
// engine and GPU, that a host's own measurements can move. 1.0 everywhere is the model
// as fitted (fitted.ts): every prior is centred there, with a stated spread in log space. A set
// holds one host-level value per correction and optional per-engine factors on top, so an engine
// measured once borrows what the host's other engines showed. Engines are plain strings, so an
// engine outside vLLM/SGLang/TensorRT-LLM (llama.cpp on a CPU catalog entry) can join later.
import { z } from 'zod';

/** The corrections a fit may move, in the order the fit's parameter vector holds them. */
export const FIT_KEYS = ['gemm', 'bandwidth', 'hostOverhead', 'prefill', 'comm', 'frontEnd', 'contention'] as const;
export type FitKey = (typeof FIT_KEYS)[number];

/**
 * `attention` is not in the fit: a truth file (sim-serve --truth) may set it, so a simulated host
 * can differ from the model in a way the declared set cannot express, as a real host does.
 */
export type CorrectionKey = FitKey | 'attention';
export const CORRECTION_KEYS: readonly CorrectionKey[] = [...FIT_KEYS, 'attention'];

/** Multipliers; > 1 is faster for rates (gemm, bandwidth, comm, attention), slower for costs (hostOverhead, prefill, frontEnd). */
export type Corrections = Record<CorrectionKey, number>;

export const NEUTRAL: Corrections = {
  gemm: 1,
  bandwidth: 1,
  hostOverhead: 1,
  prefill: 1,
  comm: 1,
  frontEnd: 1,
  contention: 1,
  attention: 1,
};

export interface CorrectionPrior {
  /** What the multiplier scales (../correct-server.ts). */
  scales: string;
  /** Prior standard deviation of ln(correction) for the host-level value. */
  sigma: number;
  /** Why that spread. */
  source: string;
  /** Only these engines' predictions read it (the fit skips its derivative for the others); absent: every engine. */
  engines?: readonly string[];
}

/**
 * Priors: ln(correction) ~ N(0, sigma^2) at host level; a per-engine factor ~ N(0, (sigma x
 * ENGINE_SHARE)^2) on top. The spreads are hand-set from the model's documented errors, not fitted.
 */
export const PRIORS: Record<FitKey, CorrectionPrior> = {
  gemm: {
    scales: 'GEMM FLOP/s (dense, MoE and draft GEMMs)',
    sigma: 0.2,
    source:
      'hand-set: the fitted serving GEMM fraction is 0.434 on Hopper and 0.763 on Ampere (fitted.ts) and the held-out median error is 26.5% (docs/calibration.md)',
  },
  bandwidth: {
    scales: 'HBM bandwidth (weight streaming and KV-cache reads)',
    sigma: 0.15,
    source: 'hand-set: fitted weight-streaming fraction 0.762 (Hopper) vs 0.95 (Ampere), fitted.ts',
  },
  hostOverhead: {
    scales: 'per-step host and launch overheads (scheduling, per-sequence work, per-layer launches)',
    sigma: 0.5,
    source:
      "hand-set: host work depends on the host's CPU, which no training row names; the per-request front end fits 5-17 ms across the published pages (model-lab/DIAGNOSIS.md section 6)",
  },
  prefill: {
    scales: 'time of every step that carries prefill tokens',
    sigma: 0.2,
    source: 'hand-set: the same order as the per-case prefill step factor of FlashInfer on Hopper (1.5, efficiency.ts BACKEND_EFFICIENCY)',
  },
  comm: {
    scales: 'tensor-parallel link bandwidth (collectives, pipeline hand-offs)',
    sigma: 0.3,
    source: 'hand-set: the GLM-4.6 8xH100 rows match a PCIe-class link, not NVLink (model-lab/DIAGNOSIS.md section 9)',
  },
  frontEnd: {
    scales: "the API server's serial per-request and per-token preprocessing",
    sigma: 0.5,
    source:
      'hand-set: the fitted 9.91 ms (fitted.ts vllmFrontEndPerRequestS) against 5-17 ms per published page (model-lab/DIAGNOSIS.md section 6)',
  },
  contention: {
    scales: 'the slowdown of llama.cpp CPU graphs per thread beyond the cores other processes leave free (llamacpp-estimate.ts contention)',
    sigma: 1,
    source:
      'hand-set wide: on the shared 2-core VM the -t 2 / -t 1 time ratio ranged 1x-30x between runs minutes apart (llamacpp-estimate.ts LLAMACPP_EFFICIENCY.contention)',
    engines: ['llamacpp'],
  },
};

/** Per-engine factors get this share of the host-level spread: engines on one host share its hardware (hand-set). */
export const ENGINE_SHARE = 0.5;

/** Host-level corrections and per-engine factors on top (absent keys are 1). */
export interface CorrectionSet {
  /** GPU catalog name the set was measured on (gpus.ts); absent in a truth file that applies to any GPU. */
  gpu?: string;
  host: Partial<Corrections>;
  engines: Record<string, Partial<Corrections>>;
}

export const EMPTY_SET: CorrectionSet = { host: {}, engines: {} };

/** The multipliers for one engine: host value times that engine's factor, 1 where unset. */
export function correctionsFor(set: CorrectionSet, engine: string): Corrections {
  const e = set.engines[engine] ?? {};
  const out = { ...NEUTRAL };
  for (const k of CORRECTION_KEYS) out[k] = (set.host[k] ?? 1) * (e[k] ?? 1);
  return out;
}

/** True when every multiplier of the engine is exactly 1 (the model as fitted). */
export function isNeutral(k: Corrections): boolean {
  return CORRECTION_KEYS.every((key) => k[key] === 1);
}

const factor = z.number().positive().finite();
const partial = z.strictObject(
  Object.fromEntries(CORRECTION_KEYS.map((k) => [k, factor.optional()])) as Record<CorrectionKey, z.ZodOptional<typeof factor>>,
);

export const CorrectionSetSchema = z.object({
  gpu: z.string().min(1).optional(),
  host: partial.default({}),
  engines: z.record(z.string().min(1), partial).default({}),
});

/** Read a correction set from parsed JSON; throws Error with the field it got wrong. */
export function parseCorrectionSet(json: unknown): CorrectionSet {
  const r = CorrectionSetSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`${i.path.join('.') || 'top level'}: ${i.message}`);
  }
  return r.data as CorrectionSet;
}

/** One line per non-neutral multiplier, e.g. 'host gemm x0.85, sglang hostOverhead x1.40'. */
export function describeSet(set: CorrectionSet): string {
  const parts: string[] = [];
  const add = (who: string, c: Partial<Corrections>) => {
    for (const k of CORRECTION_KEYS) if (c[k] !== undefined && c[k] !== 1) parts.push(`${who} ${k} x${c[k]!.toFixed(3)}`);
  };
  add('host', set.host);
  for (const [e, c] of Object.entries(set.engines)) add(e, c);
  return parts.length ? parts.join(', ') : 'none (the model as fitted)';
}
