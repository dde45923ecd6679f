// The offload stage's flags on the real llama-server (servelab's CPU build of 80fb11a): each is
// parsed by the binary's own option handler, which says it has no effect without GPU offload,
// and the server still serves. An unknown or misspelt flag would stop it at start-up instead.
// Detection of the same binary says 'cpu' with no devices.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { llamacpp } from '../../../src/engines/llamacpp/adapter.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { listDevices } from '../../../src/engines/llamacpp/devices.js';
import { LLAMA_SERVER, LLAMA_SKIP, startLlamaServer } from '../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../helpers/skip.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-llama-offload-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 2000 })));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const logText = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.log'))
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'))
    .join('\n');

// These are a CPU build's answers: a GPU build found instead (on a GPU host) skips, saying so.
const SKIP = LLAMA_SKIP ?? ((await listDevices(LLAMA_SERVER!))?.backend === 'cpu' ? undefined : `${LLAMA_SERVER} is not a CPU build`);

describe.skipIf(SKIP !== undefined)(`llama.cpp's offload flags on the real binary${skipNote(SKIP)}`, () => {
  it('-ngl N -fit off -sm row -ts 2,3: accepted, said to have no effect on a CPU build, served', async () => {
    const dir = path.join(root, 'row');
    const r = await startLlamaServer({ gpuLayers: '3', fit: false, splitMode: 'row', tensorSplit: '2,3', ctxSize: 512, threads: 1 }, dir);
    handles.push(r.h);
    expect(r.ready).toMatchObject({ ready: true });
    const health = await fetch(`${r.url}/health`);
    expect(health.status).toBe(200);
    const log = logText(dir);
    // common/arg.cpp at 80fb11a, each option's handler (captured from this binary).
    expect(log).toContain('warning: no usable GPU found, --gpu-layers option will be ignored');
    expect(log).toContain('warning: llama.cpp was compiled without support for GPU offload. Setting the split mode has no effect.');
    expect(log).toContain('warning: llama.cpp was compiled without support for GPU offload. Setting a tensor split has no effect.');
  });

  it("detection reads --list-devices: backend 'cpu', no GPU", async () => {
    const info = await llamacpp.detect!({});
    expect(info).toMatchObject({ installed: true, backend: 'cpu', gpuDevices: [] });
    expect(info.detail).toMatch(/^CPU build, no GPU offload$/);
  });
});
