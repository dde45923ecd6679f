// The simulator rehearses today's vLLM: sim-serve takes the release (--engine-version) and the
// new knob (--performance-mode), speaks the release's version line and models throughput mode's
// doubled default batch limits (arg_utils.py, 2026-05 copy: explicit values are left alone).
import { afterEach, describe, expect, it } from 'vitest';
import { findGpu } from '../../../src/model/gpus.js';
import { getModel } from '../../../src/model/models.js';
import { resolveServer } from '../../../src/model/estimate.js';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { planSession } from '../../../src/tune/session/session.js';
import { reapAll, spawnSim } from '../../helpers/sim/helpers.js';
import { sim } from '../../../src/engines/sim/adapter.js';

afterEach(reapAll);

describe('sim-serve as vLLM 0.33.0', () => {
  it('the sim adapter passes the release and the performance mode on', () => {
    const spec = sim.command(
      {
        id: 'v',
        engine: 'vllm',
        model: 'Qwen/Qwen3-14B',
        knobs: { performanceMode: 'throughput', attentionBackend: 'fa3' },
        engineVersion: '0.33.0',
      },
      { host: '127.0.0.1', port: 8000, runDir: '/tmp/x', runtime: { kind: 'native' }, sim: { gpu: 'H100', gpus: 1, speed: 1 } },
    );
    const args = parseSimArgs(spec.argv.slice(3));
    expect(args).toMatchObject({ engineVersion: '0.33.0', knobs: { performanceMode: 'throughput', attentionBackend: 'fa3' } });
    // The real command it stands for is the 0.33.0 spelling.
    expect(spec.engineArgv).toEqual(expect.arrayContaining(['--attention-backend', 'FLASH_ATTN', '--performance-mode', 'throughput']));
  });

  it('the dry-run plan spells its commands for the rehearsed release', async () => {
    const args = [
      '--auto',
      '--sim',
      '--gpu',
      'H100',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'vllm',
      '--stages',
      'engine',
      '--run-dir',
      '/tmp/servelab-new-releases-plan',
    ];
    const notes = async (extra: string[]) => (await planSession(parseAutoArgs([...args, ...extra]).config!)).plan.notes.join('\n');
    expect(await notes([])).toMatch(/vllm: no installed version known; commands are spelled for vllm 0\.11\.0/);
    expect(await notes(['--engine-version', 'vllm=0.33.0'])).not.toMatch(/no installed version known/);
    expect(await notes(['--engine-version', 'vllm=0.34.0'])).toMatch(
      /vllm 0\.34\.0 has no knob table of its own: commands use the table for 0\.33\.0/,
    );
  });

  it('throughput mode doubles only the defaulted batch limits', () => {
    const h100 = findGpu('H100')!;
    const m = getModel('Qwen/Qwen3-14B')!;
    const base = resolveServer('vllm', h100, 1, m, {});
    const thr = resolveServer('vllm', h100, 1, m, { performanceMode: 'throughput' });
    expect([base.maxBatchedTokens, base.maxRunningSeqs]).toEqual([8192, 1024]);
    expect([thr.maxBatchedTokens, thr.maxRunningSeqs]).toEqual([16384, 2048]);
    expect(resolveServer('vllm', h100, 1, m, { performanceMode: 'throughput', maxBatchedTokens: 4096 }).maxBatchedTokens).toBe(4096);
    expect(resolveServer('vllm', h100, 1, m, { performanceMode: 'interactivity' }).maxBatchedTokens).toBe(8192);
  });

  it('starts with the release in its version line and the ready line a launcher waits for', async () => {
    const proc = spawnSim([
      '--engine',
      'vllm',
      '--gpu',
      'H100',
      '--model',
      'Qwen/Qwen3-14B',
      '--port',
      '0',
      '--load-time',
      '1',
      '--speed',
      '1',
      '--engine-version',
      '0.33.0',
      '--performance-mode',
      'throughput',
    ]);
    await proc.waitFor(/vLLM API server version 0\.33\.0 \(simulated by servelab\)/);
    await proc.waitFor(/Application startup complete\./);
    expect(proc.stdout() + proc.stderr()).not.toMatch(/backend on V1 engine/);
  });
});
