// GPU detection against fake nvidia-smi scripts put first on PATH.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { detectHost, queryGpus } from '../../../src/host/gpu-detect.js';
import { parseGpuCsv } from '../../../src/host/nvidia-smi.js';
import { BIN } from '../../helpers/bin.js';

const FIX = fileURLToPath(new URL('../../fixtures/nvidia-smi/', import.meta.url));
const ORIGINAL_PATH = process.env.PATH;
/** PATH with the fake first, and without any real nvidia-smi (the fixture shadows it). */
const pathWith = (fixture: string) => `${path.join(FIX, fixture)}${path.delimiter}${ORIGINAL_PATH}`;
const useFake = (fixture: string) => {
  process.env.PATH = pathWith(fixture);
};
afterEach(() => {
  process.env.PATH = ORIGINAL_PATH;
});

describe('queryGpus', () => {
  it('1 x H100', async () => {
    useFake('1xH100');
    const gpus = await queryGpus();
    expect(gpus).toEqual([
      {
        index: 0,
        uuid: 'GPU-5b0c2f8e-8d3a-4c1e-9f1a-0d4f2b6c7e11',
        name: 'NVIDIA H100 80GB HBM3',
        memTotalMiB: 81559,
        memUsedMiB: 1,
        memFreeMiB: 80553,
        utilPct: 0,
        computeCap: '9.0',
        driverVersion: '550.54.15',
      },
    ]);
  });

  it('8 x H200, two busy', async () => {
    useFake('8xH200');
    const gpus = (await queryGpus())!;
    expect(gpus.map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(gpus[0]).toMatchObject({ name: 'NVIDIA H200', memUsedMiB: 130012, utilPct: 97, computeCap: '9.0' });
    expect(gpus[7]).toMatchObject({ memUsedMiB: 0, memFreeMiB: 143771, utilPct: 0 });
  });

  it('8 x A100 (compute capability 8.0)', async () => {
    useFake('8xA100');
    const gpus = (await queryGpus())!;
    expect(gpus).toHaveLength(8);
    expect(new Set(gpus.map((g) => g.computeCap))).toEqual(new Set(['8.0']));
    expect(gpus[3]!.name).toBe('NVIDIA A100-SXM4-80GB');
  });

  it('MIG: [N/A] fields become unknown, the total comes from the catalog', async () => {
    useFake('mig');
    const [g] = (await queryGpus())!;
    expect(g).toMatchObject({ memTotalMiB: 81559, computeCap: '9.0', partial: true });
    expect(g!.memUsedMiB).toBeUndefined();
    expect(g!.utilPct).toBeUndefined();
  });

  it('old driver without compute_cap: asks again and takes it from the GPU name', async () => {
    useFake('old-driver');
    const [g] = (await queryGpus())!;
    expect(g).toMatchObject({ name: 'NVIDIA A100-SXM4-80GB', computeCap: '8.0', driverVersion: '470.82.01', memTotalMiB: 81920 });
  });

  it('driver/library mismatch is a clear one-line UserError', async () => {
    useFake('driver-mismatch');
    const err = await queryGpus().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toContain('Failed to initialize NVML: Driver/library version mismatch');
    expect((err as Error).message).toContain('--sim');
    expect((err as Error).message).not.toContain('\n');
  });

  it('garbage values are a UserError naming the field', async () => {
    useFake('garbage');
    await expect(queryGpus()).rejects.toThrow(/cannot read nvidia-smi output \(memory\.total is 'ERR!'\)/);
  });

  it('no nvidia-smi, or no devices: null', async () => {
    process.env.PATH = path.join(FIX, 'does-not-exist');
    expect(await queryGpus()).toBeNull();
    useFake('no-devices');
    expect(await queryGpus()).toBeNull();
  });
});

describe('parseGpuCsv', () => {
  it('rejects a wrong field count and a non-numeric index', () => {
    expect(() => parseGpuCsv('0, GPU-x, NVIDIA H100 80GB HBM3, 81559')).toThrow(/expected 9 fields, got 4/);
    expect(() => parseGpuCsv('a, GPU-x, NVIDIA H100, 1, 1, 1, 1, 9.0, 550')).toThrow(/index is 'a'/);
  });
  it('accepts values with units', () => {
    const [g] = parseGpuCsv('0, GPU-x, NVIDIA H100 80GB HBM3, 81559 MiB, 10 MiB, 81549 MiB, 3 %, 9.0, 550.54.15');
    expect(g).toMatchObject({ memTotalMiB: 81559, memUsedMiB: 10, utilPct: 3 });
  });
});

describe('detectHost', () => {
  it('real GPUs when nvidia-smi finds them', async () => {
    useFake('8xA100');
    const host = await detectHost();
    expect(host.simulated).toBe(false);
    expect(host.gpus).toHaveLength(8);
    expect(host.driverVersion).toBe('535.183.01');
  });

  it('the simulated host when asked, even on a GPU host', async () => {
    useFake('1xH100');
    const host = await detectHost({ sim: true, gpu: 'H200', gpus: 8 });
    expect(host).toMatchObject({ simulated: true, note: 'simulated host (--sim)' });
    expect(host.gpus).toHaveLength(8);
    expect(host.gpus[0]).toMatchObject({ name: 'NVIDIA H200', memTotalMiB: 143771, computeCap: '9.0' });
  });

  it('the simulated host, said so, when there is no NVIDIA or AMD GPU', async () => {
    useFake('no-devices');
    const host = await detectHost({ gpu: 'A100', gpus: 2 });
    expect(host.simulated).toBe(true);
    expect(host.note).toMatch(/no NVIDIA or AMD GPU found/);
    expect(host.gpus[1]!.computeCap).toBe('8.0');
  });

  it('an unknown simulated GPU is bad input', () => {
    expect(() => simulatedHost('Z9000')).toThrow(/unknown GPU 'Z9000'.*H100/);
  });
});

describe('servelab gpus', () => {
  const run = (fixture: string, args: string[]) =>
    spawnSync(process.execPath, [BIN, 'gpus', ...args], { encoding: 'utf8', env: { ...process.env, PATH: pathWith(fixture) } });

  it('--json prints what was found', () => {
    const r = run('8xH200', ['--json']);
    expect(r.status).toBe(0);
    const host = JSON.parse(r.stdout);
    expect(host.simulated).toBe(false);
    expect(host.gpus).toHaveLength(8);
    expect(host.gpus[0].name).toBe('NVIDIA H200');
  });

  it('a table by default', () => {
    const r = run('1xH100', []);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('1 GPU(s), driver 550.54.15');
    expect(r.stdout).toMatch(/NVIDIA H100 80GB HBM3\s+cc 9\.0/);
  });

  it('a broken driver: one line, exit 2', () => {
    const r = run('driver-mismatch', []);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^servelab: nvidia-smi failed: Failed to initialize NVML/);
  });

  it('no GPU: says it uses the simulated host', () => {
    const r = run('no-devices', []);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('no NVIDIA or AMD GPU found on this host: using the simulated host');
    expect(r.stdout).toContain('1 simulated GPU(s)');
  });
});
