// Which backend `servelab engines build llamacpp` builds and where it keeps it: nvcc picks CUDA,
// hipcc HIP, neither (or --cpu) the CPU; the cmake flags are llama.cpp/docs/build.md at 80fb11a;
// the CPU build keeps the folder and stamp it had before backends existed, GPU builds get their own;
// on an AMX CPU the CPU build compiles the AMX kernels out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AMX_OFF_FLAGS, backendFlags, buildKey, chooseBackend, cudaArchFromComputeCaps } from '../../../src/host/llamacpp-backend.js';
import { builtWithoutAmx, CMAKE_FLAGS, flagsChanged, llamaCppPaths, stampMatches } from '../../../src/host/llamacpp-build.js';

const on =
  (...tools: string[]) =>
  (t: string) =>
    tools.includes(t) ? `/usr/bin/${t}` : undefined;

describe('llama.cpp build backends', () => {
  it('nvcc picks CUDA, hipcc HIP (nvcc first when both), neither the CPU; --cpu always the CPU', () => {
    expect(chooseBackend({ which: on('nvcc') })).toBe('cuda');
    expect(chooseBackend({ which: on('hipcc') })).toBe('hip');
    expect(chooseBackend({ which: on('nvcc', 'hipcc') })).toBe('cuda');
    expect(chooseBackend({ which: on() })).toBe('cpu');
    expect(chooseBackend({ cpu: true, which: on('nvcc') })).toBe('cpu');
    expect(() => chooseBackend({ gpuArch: '90', which: on() })).toThrow(/^--gpu-arch needs nvcc \(CUDA\) or hipcc \(HIP\) on PATH/);
  });

  it("the flags of llama.cpp's docs/build.md: GGML_CUDA with CMAKE_CUDA_ARCHITECTURES, GGML_HIP with GPU_TARGETS", () => {
    expect(backendFlags('cuda', '90')).toEqual(['-DGGML_CUDA=ON', '-DCMAKE_CUDA_ARCHITECTURES=90']);
    expect(backendFlags('hip', 'gfx942')).toEqual(['-DGGML_HIP=ON', '-DGPU_TARGETS=gfx942']);
    // GPU_TARGETS is optional for HIP ("all GPUs in the current system").
    expect(backendFlags('hip')).toEqual(['-DGGML_HIP=ON']);
    expect(backendFlags('cpu', undefined, false)).toEqual([]);
  });

  it("on an AMX CPU the CPU build compiles llama.cpp's AMX kernels out; a GPU build keeps its flags", () => {
    expect(backendFlags('cpu', undefined, true)).toEqual([
      '-DCMAKE_C_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16',
      '-DCMAKE_CXX_FLAGS=-mno-amx-tile -mno-amx-int8 -mno-amx-bf16',
    ]);
    expect(backendFlags('cuda', '90', true)).toEqual(backendFlags('cuda', '90', false));
    // A CPU build made before, with the AMX kernels in, is made again there; elsewhere it stays.
    const before = { commit: '80fb11a', flags: [...CMAKE_FLAGS] };
    expect(stampMatches(before, '80fb11a', 'cpu', undefined, true)).toBe(false);
    expect(stampMatches({ ...before, flags: [...CMAKE_FLAGS, ...AMX_OFF_FLAGS] }, '80fb11a', 'cpu', undefined, true)).toBe(true);
    expect(stampMatches(before, '80fb11a', 'cpu', undefined, false)).toBe(true);
  });

  it('a llama-server is known AMX-free only by the stamp of its build beside it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-stamp-'));
    try {
      const server = path.join(dir, 'bin', 'llama-server');
      expect(builtWithoutAmx(server)).toBe(false);
      fs.writeFileSync(path.join(dir, 'servelab-build.json'), JSON.stringify({ commit: '80fb11a', flags: [...CMAKE_FLAGS] }));
      expect(builtWithoutAmx(server)).toBe(false);
      fs.writeFileSync(
        path.join(dir, 'servelab-build.json'),
        JSON.stringify({ commit: '80fb11a', flags: [...CMAKE_FLAGS, ...AMX_OFF_FLAGS] }),
      );
      expect(builtWithoutAmx(server)).toBe(true);
      fs.writeFileSync(path.join(dir, 'servelab-build.json'), 'not json');
      expect(builtWithoutAmx(server)).toBe(false);
      // A build made again says why: the flags it adds and drops against the stamp's.
      const stamp = path.join(dir, 'servelab-build.json');
      expect(flagsChanged(stamp, CMAKE_FLAGS)).toBeUndefined();
      fs.writeFileSync(stamp, JSON.stringify({ commit: '80fb11a', flags: [...CMAKE_FLAGS] }));
      expect(flagsChanged(stamp, CMAKE_FLAGS)).toBeUndefined();
      expect(flagsChanged(stamp, [...CMAKE_FLAGS, ...AMX_OFF_FLAGS])).toBe(`now adds ${AMX_OFF_FLAGS.join(' ')}`);
      expect(flagsChanged(stamp, CMAKE_FLAGS.slice(1))).toBe(`drops ${CMAKE_FLAGS[0]}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads CMAKE_CUDA_ARCHITECTURES from nvidia-smi's compute_cap column, one entry per kind of GPU", () => {
    expect(cudaArchFromComputeCaps('9.0\n9.0\n')).toBe('90');
    expect(cudaArchFromComputeCaps('9.0\n8.0\n')).toBe('80;90');
    expect(cudaArchFromComputeCaps('12.0\n')).toBe('120');
    expect(cudaArchFromComputeCaps('[N/A]\n')).toBeUndefined();
    expect(cudaArchFromComputeCaps('')).toBeUndefined();
  });

  it('one folder per backend, the CPU build where it always was; one source clone for all', () => {
    expect(buildKey('80fb11a', 'cpu')).toBe('80fb11a');
    expect(buildKey('80fb11a', 'cuda')).toBe('80fb11a-cuda');
    const cpu = llamaCppPaths('80fb11a', 'cpu');
    const cuda = llamaCppPaths('80fb11a', 'cuda');
    expect(path.basename(cpu.root)).toBe('80fb11a');
    expect(path.basename(cuda.root)).toBe('80fb11a-cuda');
    expect(cuda.src).toBe(cpu.src);
    expect(cuda.vocab('gpt-2')).toBe(cpu.vocab('gpt-2'));
    expect(cuda.server).toBe(path.join(cuda.root, 'build', 'bin', 'llama-server'));
  });

  it('a stamp written before backends existed is a CPU build; a GPU stamp matches its backend, any arch unless one is asked', () => {
    const old = { commit: '80fb11a', flags: [...CMAKE_FLAGS] };
    expect(stampMatches(old, '80fb11a', 'cpu', undefined, false)).toBe(true);
    expect(stampMatches(old, '80fb11a', 'cuda')).toBe(false);
    expect(stampMatches({ ...old, commit: '0000000' }, '80fb11a', 'cpu')).toBe(false);
    const cuda = { commit: '80fb11a', backend: 'cuda' as const, flags: [...CMAKE_FLAGS, ...backendFlags('cuda', '90')] };
    expect(stampMatches(cuda, '80fb11a', 'cuda')).toBe(true);
    expect(stampMatches(cuda, '80fb11a', 'cuda', '90')).toBe(true);
    expect(stampMatches(cuda, '80fb11a', 'cuda', '120')).toBe(false);
    expect(stampMatches(cuda, '80fb11a', 'cpu')).toBe(false);
    expect(stampMatches({ ...cuda, flags: [...CMAKE_FLAGS] }, '80fb11a', 'cuda')).toBe(false);
  });
});
