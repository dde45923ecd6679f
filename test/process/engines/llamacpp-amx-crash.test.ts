// llama.cpp#20824 by name: llama-server 80fb11a repacking a quantized GGUF for the CPU's AMX
// kernels dies by SIGSEGV (SIGILL on a second VM) in its warm-up decode and prints nothing about it. The log lines below
// were captured from the real binary on this machine (Xeon with AMX_INT8; `llama-quantize m.gguf
// q8.gguf q8_0` of a random-gguf qwen3 512x8, then `llama-server -m q8.gguf --port P -c 2048`:
// exit status 139). The real-process case launches the same crash where the CPU has AMX and the
// llama-server carries AMX kernels; servelab's own build compiles them out there, and serves.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/core/variant.js';
import { AMX_REPACK_ISSUE } from '../../../src/engines/llamacpp/failure-rules.js';
import { engineLaunchHooks } from '../../../src/engines/launch-hooks.js';
import { cpuOnlyHost } from '../../../src/host/cpu.js';
import { builtWithoutAmx } from '../../../src/host/llamacpp-build.js';
import { launchServer } from '../../../src/host/process.js';
import type { ReadyResult } from '../../../src/host/server-handle.js';
import { failureContext } from '../../../src/tune/run/server-start.js';
import { LLAMA_QUANTIZE, LLAMA_SERVER, LLAMA_SKIP, testGguf } from '../../helpers/llamacpp-fixture.js';
import { freeTestPort } from '../../helpers/ports.js';
import { llamacpp } from '../../../src/engines/llamacpp/adapter.js';

const CAPTURED = [
  '0.00.016.750 W srv  llama_server: -----------------',
  "0.00.018.064 I srv    load_model: loading model 'q8.gguf'",
  '0.01.361.160 I cmn          init: llama threadpool init, n_threads = 2',
];
const SEGV = { code: null, signal: 'SIGSEGV' };

describe('llama.cpp#20824: SIGSEGV repacking quantized weights for AMX', () => {
  it('names the bug, cites the issue and says to pass --no-repack', () => {
    const f = llamacpp.classifyFailure(CAPTURED, SEGV, { amxRepacked: 'Q8_0' });
    expect(f.kind).toBe('unsupported');
    expect(f.reason).toMatch(
      /^llama\.cpp#20824: llama-server crashed \(SIGSEGV\) repacking Q8_0 weights for this CPU's AMX kernels; pass --no-repack/,
    );
    expect(f.reason).toContain(AMX_REPACK_ISSUE);
    expect(AMX_REPACK_ISSUE).toBe('https://github.com/ggml-org/llama.cpp/issues/20824');
    expect(f.evidence).toEqual(CAPTURED);
    // The same launch on a second AMX VM: the same lines, then SIGILL at an AMX instruction (tilezero).
    const ill = llamacpp.classifyFailure(CAPTURED, { code: null, signal: 'SIGILL' }, { amxRepacked: 'Q8_0' });
    expect(ill.kind).toBe('unsupported');
    expect(ill.reason).toMatch(/^llama\.cpp#20824: llama-server crashed \(SIGILL\) repacking Q8_0 weights/);
    expect(llamacpp.classifyFailure(CAPTURED, { code: null, signal: 'SIGABRT' }, { amxRepacked: 'Q8_0' }).kind).toBe('crash');
  });

  it('needs the launch conditions and the signal; a log text that names another cause wins', () => {
    expect(llamacpp.classifyFailure(CAPTURED, SEGV, {}).kind).toBe('crash');
    expect(llamacpp.classifyFailure(CAPTURED, { code: 1, signal: null }, { amxRepacked: 'Q8_0' }).kind).toBe('crash');
    const open = ["gguf_init_from_file: failed to open GGUF file 'x.gguf' (No such file or directory)"];
    expect(llamacpp.classifyFailure(open, SEGV, { amxRepacked: 'Q8_0' }).kind).toBe('model-not-found');
  });

  it('the launch context claims no repack for a file of unknown type', () => {
    const amx = { simulated: false, gpus: [], cpu: { threads: 2, memAvailMiB: 1e5, amx: true } };
    const q = (knobs: Variant['knobs']) => ({ id: 'v', engine: 'llamacpp' as const, model: 'q.gguf', knobs });
    // The file does not exist here: its type is unknown, so nothing is claimed.
    expect(failureContext(amx, q({})).amxRepacked).toBeUndefined();
  });

  it.skipIf(LLAMA_SKIP !== undefined)(`nor for an F16 file${LLAMA_SKIP ? ` (skipped: ${LLAMA_SKIP})` : ''}`, () => {
    const amx = { simulated: false, gpus: [], cpu: { threads: 2, memAvailMiB: 1e5, amx: true } };
    const f16 = testGguf();
    expect(failureContext(amx, { id: 'v', engine: 'llamacpp' as const, model: f16, knobs: {} }).amxRepacked).toBeUndefined();
  });
});

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-amx-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const host = cpuOnlyHost();
const noAmx = LLAMA_SERVER !== undefined && builtWithoutAmx(LLAMA_SERVER);
const why =
  LLAMA_SKIP ??
  (!LLAMA_QUANTIZE ? 'no llama-quantize beside the server' : !host.cpu?.amx ? 'this CPU has no AMX: the bug does not arise' : undefined);
const session = { llamacpp: { gguf: [], ...(LLAMA_SERVER ? { server: LLAMA_SERVER } : {}) } };

/** Launch a Q8_0 file of the test model with repacking as given; the handle's readiness, its log, and the launch's failure context. */
async function launchQ8(
  repack: boolean | undefined,
  body: (ready: ReadyResult, log: string, amxRepacked?: string) => Promise<void> | void,
) {
  const q8 = path.join(root, 'q8.gguf');
  if (!fs.existsSync(q8)) {
    const made = spawnSync(LLAMA_QUANTIZE!, [testGguf(), q8, 'Q8_0'], { encoding: 'utf8' });
    expect(made.status, made.stderr.slice(-400)).toBe(0);
  }
  const variant: Variant = {
    id: `q8-${repack}`,
    engine: 'llamacpp',
    model: q8,
    knobs: { ctxSize: 2048, maxRunningSeqs: 1, ...(repack === false ? { repack } : {}) },
  };
  const context = failureContext(host, variant, session);
  const runDir = path.join(root, variant.id);
  const spec = llamacpp.command(variant, {
    host: '127.0.0.1',
    port: await freeTestPort(),
    runDir,
    runtime: { kind: 'native', executable: LLAMA_SERVER! },
  });
  const h = await launchServer(spec, {
    runDir,
    graceMs: 2000,
    ...engineLaunchHooks((l, e) => llamacpp.classifyFailure(l, e, context)),
  });
  try {
    const ready = await h.waitReady(120_000);
    await body(ready, fs.readFileSync(h.logPath, 'utf8'), context.amxRepacked);
  } finally {
    await h.stop();
  }
}

describe.skipIf(why !== undefined || noAmx)(
  `the real crash, classified${why ? ` (skipped: ${why})` : noAmx ? " (skipped: servelab's build compiles the AMX kernels out)" : ''}`,
  () => {
    it('a Q8_0 file with repacking on dies by a signal and is named llama.cpp#20824; with --no-repack it serves', async () => {
      await launchQ8(undefined, (ready, _log, amxRepacked) => {
        expect(amxRepacked).toBe('Q8_0');
        expect(ready.ready).toBe(false);
        if (ready.ready) return;
        expect(ready.failure.kind, JSON.stringify(ready.failure)).toBe('unsupported');
        expect(ready.failure.reason).toMatch(/^llama\.cpp#20824: .*repacking Q8_0 weights .*pass --no-repack/);
      });
      await launchQ8(false, (ready, _log, amxRepacked) => {
        expect(amxRepacked).toBeUndefined();
        expect(ready.ready).toBe(true);
      });
    }, 300_000);
  },
);

describe.skipIf(why !== undefined || !noAmx)(
  `servelab's build on an AMX CPU${why ? ` (skipped: ${why})` : !noAmx ? ' (skipped: this llama-server carries AMX kernels)' : ''}`,
  () => {
    it('has no AMX kernels: a Q8_0 file with repacking on serves, repacked for the CPU, and no launch claims an AMX repack', async () => {
      // The AMX kernels' init message (ggml/src/ggml-cpu/amx/amx.cpp at 80fb11a, compiled only with
      // __AMX_INT8__) is absent from the binary, and the CPU repacking's buffer type is there.
      const bin = fs.readFileSync(LLAMA_SERVER!);
      expect(bin.includes('AMX is not ready to be used!')).toBe(false);
      expect(bin.includes('CPU_REPACK')).toBe(true);
      await launchQ8(undefined, (ready, _log, amxRepacked) => {
        expect(amxRepacked).toBeUndefined();
        expect(ready.ready, JSON.stringify(ready)).toBe(true);
      });
    }, 300_000);
  },
);
