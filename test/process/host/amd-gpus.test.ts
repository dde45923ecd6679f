// AMD hosts through the real code paths: stand-in amd-smi and rocm-smi executables put first on
// PATH (test/fixtures/amd-smi, test/fixtures/rocm-smi; each names the AMD source its text follows),
// behind an nvidia-smi that finds no device, so a real NVIDIA or AMD GPU here changes nothing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { detectHost, queryGpus } from '../../../src/host/gpu-detect.js';
import { gpuHolders } from '../../../src/host/gpu-holders.js';
import { queryGpuProcesses, waitGpuReleased } from '../../../src/host/gpu-procs.js';
import { clearLaunch, readLedger, recordLaunch, recordPid } from '../../../src/host/ledger.js';
import { pidAlive } from '../../../src/host/procgroup.js';
import { findOnPath } from '../../../src/core/which.js';
import { queryAmdSmi } from '../../../src/host/amd-smi.js';
import { BIN } from '../../helpers/bin.js';

const FIX = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const ORIGINAL = { ...process.env };
const NO_NVIDIA = path.join(FIX, 'nvidia-smi', 'no-devices');
const pathWith = (...dirs: string[]) => [NO_NVIDIA, ...dirs.map((d) => path.join(FIX, d)), ORIGINAL.PATH].join(path.delimiter);
const use = (...dirs: string[]) => {
  process.env.PATH = pathWith(...dirs);
};
// rocm-smi answers only where amd-smi is absent: a real amd-smi on this machine would answer first.
const realAmdSmi = findOnPath('amd-smi', ORIGINAL.PATH) ? 'a real amd-smi is on PATH' : undefined;

const tmp = mkdtempSync(path.join(tmpdir(), 'servelab-amd-'));
const kids: ChildProcess[] = [];
afterEach(() => {
  for (const k of ['PATH', 'FAKE_AMD_PROCESSES', 'FAKE_ROCM_PIDS', 'FAKE_AMD_SLOW']) {
    if (ORIGINAL[k] === undefined) delete process.env[k];
    else process.env[k] = ORIGINAL[k];
  }
  for (const k of kids.splice(0)) if (k.pid && pidAlive(k.pid)) process.kill(-k.pid, 'SIGKILL');
  for (const e of readLedger()) clearLaunch(e);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function sleeper(): ChildProcess {
  const k = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  kids.push(k);
  return k;
}

/** amd-smi process --json (the 8xMI300X stand-in's shape) with `pid` holding `mib` on GPU `gpu`. */
function amdProcesses(file: string, gpu: number, pid: number, mib: number): void {
  const info = {
    name: 'python3',
    pid,
    memory_usage: { vram_mem: { value: mib * 1048576, unit: 'B' } },
    mem_usage: { value: mib * 1048576, unit: 'B' },
  };
  const list = [0, 1].map((g) => ({ gpu: g, process_list: [{ process_info: g === gpu ? info : 'No running processes detected' }] }));
  writeFileSync(file, JSON.stringify(list));
}

describe('amd-smi', () => {
  it('8 x MI300X: the host model, vendor amd', async () => {
    use('amd-smi/8xMI300X');
    const gpus = (await queryGpus())!;
    expect(gpus).toHaveLength(8);
    expect(gpus[0]).toMatchObject({
      name: 'AMD Instinct MI300X',
      vendor: 'amd',
      arch: 'gfx942',
      memTotalMiB: 196592,
      utilPct: 97,
      powerW: 712,
    });
    const host = await detectHost();
    expect(host).toMatchObject({ simulated: false, driverVersion: '6.8.5' });
  });

  it("amd-smi 26's gpu_data wrapper", async () => {
    use('amd-smi/rocm7-gpu-data');
    const [g] = (await queryGpus())!;
    expect(g).toMatchObject({ index: 0, uuid: '0000:83:00.0', vendor: 'amd', memUsedMiB: 4096 });
    expect(await queryGpuProcesses()).toEqual([{ pid: 2168274, gpuIndex: 0, usedMiB: 3840 }]);
  });

  it('no amdgpu driver: no GPU, the simulated host says so', async () => {
    use('amd-smi/no-driver');
    expect(await queryGpus()).toBeNull();
    const host = await detectHost({ gpu: 'H100' });
    expect(host.simulated).toBe(true);
    expect(host.note).toMatch(/no NVIDIA or AMD GPU found/);
  });

  it('a time-out is a one-line error, and is asked again next time', async () => {
    use('amd-smi/slow');
    process.env.FAKE_AMD_SLOW = '1';
    await expect(queryAmdSmi({ timeoutMs: 300 })).rejects.toThrow(
      /^amd-smi did not answer within 0.3 s; check the amdgpu driver, or run with --sim$/,
    );
    delete process.env.FAKE_AMD_SLOW;
    expect(await queryAmdSmi()).toHaveLength(8);
  });

  it('waits for our PIDs to let go of AMD GPU memory', async () => {
    use('amd-smi/8xMI300X');
    const file = path.join(tmp, 'procs.json');
    process.env.FAKE_AMD_PROCESSES = file;
    amdProcesses(file, 1, 424242, 70000);
    expect(await waitGpuReleased([999999], 2000, 50)).toBe(true);
    const waiting = waitGpuReleased([424242], 20_000, 50);
    setTimeout(() => writeFileSync(file, '[{"gpu": 0, "process_list": [{"process_info": "No running processes detected"}]}]'), 300);
    expect(await waiting).toBe(true);
    amdProcesses(file, 0, 424242, 1);
    expect(await waitGpuReleased([424242], 300, 50)).toBe(false);
  });
});

describe.skipIf(realAmdSmi !== undefined)(`rocm-smi, where amd-smi is absent${realAmdSmi ? ` (skipped: ${realAmdSmi})` : ''}`, () => {
  it('8 x MI300X through rocm-smi', async () => {
    use('rocm-smi/8xMI300X');
    const gpus = (await queryGpus())!;
    expect(gpus).toHaveLength(8);
    expect(gpus[1]).toMatchObject({ name: 'AMD Instinct MI300X', vendor: 'amd', arch: 'gfx942', memUsedMiB: 180214, powerW: 712 });
  });

  it('the RX 7900 XT a user quoted; no KFD process: nothing holds memory', async () => {
    use('rocm-smi/rx7900xt');
    const [g] = (await queryGpus())!;
    expect(g).toMatchObject({ name: 'Radeon RX 7900 XT', memTotalMiB: 20464, vendor: 'amd' });
    expect(await queryGpuProcesses()).toEqual([]);
  });

  it('holders: pid and memory, the GPU unknown', async () => {
    use('rocm-smi/8xMI300X');
    const k = sleeper();
    const file = path.join(tmp, 'pids.json');
    writeFileSync(file, JSON.stringify({ system: { [`PID${k.pid}`]: 'sleep, 1, 1073741824, 0, 0' } }));
    process.env.FAKE_ROCM_PIDS = file;
    const holders = await gpuHolders(false, [], []);
    expect(holders).toEqual([{ gpu: '?', pid: k.pid, usedMiB: 1024, command: 'sleep 30', servelab: undefined }]);
  });
});

describe('servelab gpus on an AMD host', () => {
  const run = (dirs: string[], args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BIN, 'gpus', ...args], { encoding: 'utf8', env: { ...process.env, ...env, PATH: pathWith(...dirs) } });

  it('a table: type, graphics target, memory, utilisation, power', () => {
    const r = run(['amd-smi/8xMI300X'], []);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('8 GPU(s), driver 6.8.5');
    expect(r.stdout).toMatch(/0 +AMD Instinct MI300X +gfx942 +180214 \/ 196592 MiB +util 97% 712 W/);
  });

  it('--json: vendor amd, and which servelab server holds GPU memory', () => {
    const k = sleeper();
    const argv = ['sleep', '30'];
    const e = recordLaunch({ argv, launchArgv: argv, wrapper: 'none', runDir: '/nonexistent/run', port: 1, gpus: '1' })!;
    recordPid(e, k.pid!);
    const file = path.join(tmp, 'cli-procs.json');
    amdProcesses(file, 1, k.pid!, 70000);
    const r = run(['amd-smi/8xMI300X'], ['--json'], { FAKE_AMD_PROCESSES: file });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.simulated).toBe(false);
    expect(out.gpus[0]).toMatchObject({ vendor: 'amd', arch: 'gfx942', powerW: 712 });
    expect(out.memoryHolders).toEqual([
      { gpu: 1, pid: k.pid, usedMiB: 70000, command: 'sleep 30', servelab: { ownerPid: process.pid, ownerAlive: true } },
    ]);
  });
});

describe('a broken nvidia-smi beside AMD GPUs', () => {
  it('does not hide them; with no AMD GPU its error stands', async () => {
    const broken = path.join(FIX, 'nvidia-smi', 'driver-mismatch');
    process.env.PATH = [broken, path.join(FIX, 'amd-smi/8xMI300X'), ORIGINAL.PATH].join(path.delimiter);
    expect(await queryGpus()).toHaveLength(8);
    process.env.PATH = [broken, path.join(FIX, 'amd-smi/no-driver'), ORIGINAL.PATH].join(path.delimiter);
    await expect(queryGpus()).rejects.toThrow(/nvidia-smi failed: Failed to initialize NVML/);
  });
});
