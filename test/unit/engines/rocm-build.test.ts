// Which GPU platform an installed vLLM or SGLang was built for, from PyTorch's torch.version.hip,
// against a stand-in python3 on PATH that answers the version query and the torch probe as a ROCm
// build or a CUDA one (None). The ROCm value is torch/version.py's `hip = '6.4.43482'` of a
// 2.8.0+rocm6.4 wheel, as a public test fixture quotes it (search store id 70462115290).
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { detectGpuEngine } from '../../../src/engines/kit/detect.js';
import { parseTorchHip } from '../../../src/engines/kit/rocm-build.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-rocm-build-'));
const ORIGINAL_PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = ORIGINAL_PATH;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** python3 that knows one package version and what `torch.version.hip` holds ('' = no torch). */
function withPython(name: string, dist: string, version: string, hip: string): void {
  const bin = path.join(dir, name);
  mkdirSync(bin, { recursive: true });
  const torch = hip ? `echo "hip ${hip}"` : 'echo "ModuleNotFoundError: No module named \'torch\'" >&2; exit 1';
  const body = `case "$2" in\n  *'import torch'*) ${torch} ;;\n  *'"${dist}"'*) echo ${version} ;;\n  *) exit 1 ;;\nesac`;
  for (const tool of ['python3', 'vllm']) {
    writeFileSync(path.join(bin, tool), `#!/bin/sh\n${tool === 'vllm' ? 'exit 0' : body}\n`);
    chmodSync(path.join(bin, tool), 0o755);
  }
  process.env.PATH = bin;
}

describe('ROCm builds of the engines', () => {
  it('reads the probe: a HIP version is ROCm, None is CUDA, nothing is unknown', () => {
    expect(parseTorchHip('hip 6.4.43482\n')).toEqual({ gpuPlatform: 'rocm', hipVersion: '6.4.43482' });
    expect(parseTorchHip('some warning\nhip None\n')).toEqual({ gpuPlatform: 'cuda' });
    expect(parseTorchHip('')).toBeUndefined();
  });

  it("vLLM's ROCm build", async () => {
    withPython('vllm-rocm', 'vllm', '0.11.0', '6.4.43482');
    expect(await detectGpuEngine('vllm')).toMatchObject({
      installed: true,
      version: '0.11.0',
      gpuPlatform: 'rocm',
      hipVersion: '6.4.43482',
    });
  });

  it("SGLang's CUDA build", async () => {
    withPython('sglang-cuda', 'sglang', '0.5.5', 'None');
    const info = await detectGpuEngine('sglang');
    expect(info).toMatchObject({ installed: true, gpuPlatform: 'cuda' });
    expect(info.hipVersion).toBeUndefined();
  });

  it('no torch to ask: the platform is left unsaid', async () => {
    withPython('vllm-notorch', 'vllm', '0.11.0', '');
    const info = await detectGpuEngine('vllm');
    expect(info.installed).toBe(true);
    expect(info.gpuPlatform).toBeUndefined();
  });
});
