// Engine detection and the docker image check, against fake executables on PATH.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { assertImageExists, detectGpuEngine, versionFromTag } from '../../../src/engines/kit/detect.js';
import { sim } from '../../../src/engines/sim/adapter.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-detect-'));
const ORIGINAL_PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = ORIGINAL_PATH;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A folder of fake tools, and PATH = that folder only: no real vllm/docker on this machine leaks in. */
function withTools(name: string, tools: Record<string, string>): void {
  const bin = path.join(dir, name);
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin, { recursive: true });
  for (const [tool, body] of Object.entries(tools)) {
    writeFileSync(path.join(bin, tool), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(bin, tool), 0o755);
  }
  process.env.PATH = bin;
}

const PY = (dists: Record<string, string>) =>
  `case "$2" in\n${Object.entries(dists)
    .map(([d, v]) => `  *'"${d}"'*) echo ${v} ;;`)
    .join('\n')}\n  *) echo "importlib.metadata.PackageNotFoundError: No package metadata" >&2; exit 1 ;;\nesac`;

describe('detectGpuEngine', () => {
  it('vLLM on PATH with its version from the Python environment', async () => {
    withTools('vllm-ok', { vllm: 'exit 0', python3: PY({ vllm: '0.11.0' }) });
    expect(await detectGpuEngine('vllm')).toEqual({ engine: 'vllm', installed: true, runtime: 'native', version: '0.11.0' });
    expect(await vllm.detect!()).toMatchObject({ installed: true, version: '0.11.0' });
  });

  it('an engine that is not installed says why', async () => {
    withTools('none', { python3: PY({}) });
    expect(await detectGpuEngine('vllm')).toEqual({ engine: 'vllm', installed: false, runtime: 'native', detail: "'vllm' is not on PATH" });
    const sgl = await detectGpuEngine('sglang');
    expect(sgl.installed).toBe(false);
    expect(sgl.detail).toMatch(/Python package 'sglang' is not installed/);
  });

  it('SGLang in a given Python environment', async () => {
    const bin = path.join(dir, 'env-sgl');
    withTools('env-sgl', { python: PY({ sglang: '0.5.4.post1' }) });
    expect(await detectGpuEngine('sglang', { python: path.join(bin, 'python') })).toMatchObject({
      installed: true,
      version: '0.5.4.post1',
    });
  });

  it('the sim engine is always there', async () => {
    expect(await sim.detect!()).toMatchObject({ engine: 'sim', installed: true, runtime: 'sim' });
  });
});

describe('docker image', () => {
  it('no docker: a one-line UserError that says what to do', async () => {
    withTools('no-docker', {});
    const err = await assertImageExists('vllm/vllm-openai:v0.11.0').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      'docker is not installed or not on PATH (needed for --image vllm/vllm-openai:v0.11.0); install docker or use the native runtime',
    );
  });

  it('an image that does not exist: a one-line UserError with the pull command', async () => {
    withTools('docker-missing-image', { docker: 'echo "Error: No such image: $5" >&2; exit 1' });
    await expect(assertImageExists('vllm/vllm-openai:v9.9.9')).rejects.toThrow(
      "docker image 'vllm/vllm-openai:v9.9.9' was not found locally; pull it first with: docker pull vllm/vllm-openai:v9.9.9",
    );
    const info = await detectGpuEngine('vllm', { runtime: 'docker', image: 'vllm/vllm-openai:v9.9.9' });
    expect(info).toMatchObject({ installed: false, runtime: 'docker', image: 'vllm/vllm-openai:v9.9.9' });
  });

  it('a present image: installed, version from the tag', async () => {
    withTools('docker-ok', { docker: 'echo sha256:abc' });
    await expect(assertImageExists('vllm/vllm-openai:v0.11.0')).resolves.toBeUndefined();
    expect(await detectGpuEngine('vllm', { runtime: 'docker', image: 'vllm/vllm-openai:v0.11.0' })).toEqual({
      engine: 'vllm',
      installed: true,
      runtime: 'docker',
      image: 'vllm/vllm-openai:v0.11.0',
      version: '0.11.0',
    });
  });

  it('a docker daemon that cannot be reached is said as such', async () => {
    withTools('docker-down', {
      docker: 'echo "Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?" >&2; exit 1',
    });
    await expect(assertImageExists('i:1')).rejects.toThrow(/^docker cannot be used: Cannot connect to the Docker daemon/);
  });
});

describe('engine version for the knob tables', () => {
  it('reads the version from an image tag, not from a registry port', () => {
    expect(versionFromTag('vllm/vllm-openai:v0.11.0')).toBe('0.11.0');
    expect(versionFromTag('lmsysorg/sglang:v0.5.5.post1-cu129')).toBe('0.5.5.post1');
    expect(versionFromTag('nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc1')).toBe('1.2.0rc1');
    expect(versionFromTag('localhost:5000/vllm')).toBeUndefined();
    expect(versionFromTag('vllm/vllm-openai:latest')).toBeUndefined();
  });

  it('asks the image for the package version when the tag is not one, and names the table used', async () => {
    withTools('docker-latest', { docker: 'if [ "$1" = run ]; then echo 0.12.0; else echo sha256:abc; fi' });
    const info = await detectGpuEngine('vllm', { runtime: 'docker', image: 'vllm/vllm-openai:latest' });
    expect(info).toMatchObject({
      installed: true,
      version: '0.12.0',
      knobTable: '0.11.1',
      detail: 'no knob table for 0.12.0: flags spelled for 0.11.1',
    });
  });

  it('a native version with its own table carries no note', async () => {
    withTools('vllm-0110', { vllm: 'exit 0', python3: PY({ vllm: '0.11.0' }) });
    const info = await detectGpuEngine('vllm');
    expect(info).toEqual({ engine: 'vllm', installed: true, runtime: 'native', version: '0.11.0' });
  });
});
