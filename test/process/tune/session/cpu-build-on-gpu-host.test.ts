// A CPU build of llama-server on a host with GPUs: the session says so once, before its plan, since
// the offload stage's variants would all run on the CPU. The real binary answers --list-devices;
// the host's GPU is a planned one (no GPU here).
import { describe, expect, it } from 'vitest';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import type { TuneEvent } from '../../../../src/core/events.js';
import type { HostInfo } from '../../../../src/host/gpus.js';
import { availableEngines } from '../../../../src/tune/session/open.js';
import { LLAMA_SERVER, LLAMA_SKIP, testGguf } from '../../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../../helpers/skip.js';

const h100 = { index: 0, uuid: 'GPU-0', name: 'NVIDIA H100 80GB HBM3', memTotalMiB: 81559 };

describe.skipIf(LLAMA_SKIP !== undefined)(`llama.cpp's CPU build on a GPU host${skipNote(LLAMA_SKIP)}`, () => {
  it('warns once that the found llama-server cannot offload; not on a CPU host', async () => {
    const config = parseAutoArgs(['--model', testGguf(), '--llama-server', LLAMA_SERVER!]).config!;
    const run = async (gpus: HostInfo['gpus']) => {
      const events: TuneEvent[] = [];
      const host = { simulated: false, gpus, cpu: { threads: 2, memAvailMiB: 1e4 } } as unknown as HostInfo;
      const r = await availableEngines(config, host, (e) => events.push(e));
      return { engines: r.engines, warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])) };
    };
    const gpu = await run([h100]);
    expect(gpu.engines).toEqual(['llamacpp']);
    expect(gpu.warnings.filter((w) => /CPU build/.test(w))).toEqual([
      'llamacpp on a GPU host: CPU build, no GPU offload (`servelab engines build llamacpp` builds with CUDA or HIP where nvcc or hipcc is found)',
    ]);
    expect((await run([])).warnings.filter((w) => /CPU build/.test(w))).toEqual([]);
  });
});
