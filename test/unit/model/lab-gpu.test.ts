// The GPUStack lab's "H100" (model-lab/DIAGNOSIS.md section 7): the 5 held-out rows marked 'not
// reproducible as published' (Qwen3-32B vLLM TP1) are refused for MEMORY alone. They cannot start
// on the 80 GB H100 SXM the lab names by vLLM 0.11.0's accounting, every other row of the lab's H100
// pages can (the 12 Qwen3-235B vLLM rows since the sampler peak follows v0.11.0's FlashInfer
// sampler, src/model/kv-budget.ts), and the same 5 start once the GPU
// has an H100 NVL's 94 GB (the hypothesis model-lab/lab-gpu-hypotheses.ts prices; the rows stay on
// the SXM part). Resolving a server is enough: nothing is simulated.
import { describe, expect, it } from 'vitest';
import { HELD_OUT } from '../../../src/model/data/published.js';
import { isNotAsPublished } from '../../../src/model/data/not-as-published.js';
import { findGpu } from '../../../src/model/gpus.js';
import type { GpuSpec } from '../../../src/model/gpu-spec.js';
import { resolveOptions } from '../../../src/sim/scheduler/virtual.js';
import type { PublishedResult } from '../../../src/model/data/published-result.js';

const SXM = findGpu('H100')!;
/** Memory of an H100 NVL (nvidia-smi 95830 MiB; CUDA total estimated with SXM's gap), nothing else changed. */
const MEM_94GB: GpuSpec = { ...SXM, name: 'H100 with 94 GB', memMiB: 95830, cudaTotalMiB: 95830 - (81559 - Math.round(79.18 * 1024)) };

const labH100 = HELD_OUT.filter((r) => r.gpu === 'H100' && r.source.includes('gpustack/gpustack'));
const fits = (r: PublishedResult, gpu: GpuSpec) =>
  resolveOptions({ engine: r.engine, engineVersion: r.engineVersion, gpu, gpus: r.gpus, model: r.model, knobs: r.knobs }).fit.fits;

describe("the GPUStack lab's H100 rows", () => {
  it('the H100 name resolves to the 80 GB SXM part the lab names ("H100 SXM")', () => {
    expect(SXM.name).toBe('H100 SXM 80GB');
    expect(labH100.length).toBe(30);
  });

  it('exactly the not-as-published rows are refused on 80 GB, and every one of them starts with 94 GB', () => {
    const refused = labH100.filter((r) => !fits(r, SXM));
    expect(refused.length).toBe(5);
    for (const r of labH100)
      expect(isNotAsPublished(r.caveat), `${r.model} ${r.engine} ${JSON.stringify(r.knobs)}`).toBe(refused.includes(r));
    for (const r of refused) expect(fits(r, MEM_94GB), `${r.model} ${JSON.stringify(r.knobs)}`).toBe(true);
  });
});
