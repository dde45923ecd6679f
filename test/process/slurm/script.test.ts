// The batch script and each engine's per-rank commands, checked by running the rendered shell
// text in a real bash: what each rank's process receives as argv is exactly what was meant,
// whatever quotes, dollars or semicolons the values hold.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { engineRanks } from '../../../src/engines/ranks.js';
import { sbatchOptions } from '../../../src/host/slurm/options.js';
import { renderBatchScript, taskCommand, type RankCommands } from '../../../src/host/slurm/script.js';

/** The argv a rank's task would exec, by replacing the engine with printf under a given env. */
function argvOf(r: RankCommands, env: Record<string, string>): string[] {
  const printing: RankCommands = {
    ...r,
    head: ['printf', '%s\\n', ...r.head],
    ...(r.worker ? { worker: ['printf', '%s\\n', ...r.worker] } : {}),
  };
  const out = execFileSync('bash', ['-c', taskCommand(printing)], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
  return out.split('\n').slice(0, -1);
}

const hostile = `it's "quoted" $HOME; rm -rf / \`id\``;
const layout = { nodes: 2, gpusPerNode: 8, distPort: 20000 };

describe('per-rank commands', () => {
  it('SGLang: every node gets --nnodes, its own --node-rank and the head address, values intact', () => {
    const argv = [
      'python3',
      '-m',
      'sglang.launch_server',
      '--model-path',
      'deepseek-ai/DeepSeek-R1-0528',
      '--tp-size',
      '16',
      '--served-model-name',
      hostile,
      '--host',
      '127.0.0.1',
    ];
    const { ranks, tasksPerNode } = engineRanks('sglang', argv, { tp: 16 }, layout);
    expect(tasksPerNode).toBe(1);
    const rank1 = argvOf(ranks, { SLURM_NODEID: '1', SERVELAB_HEAD_ADDR: '10.0.0.7' });
    expect(rank1).toEqual([
      ...argv.slice(0, -2),
      '--host',
      '0.0.0.0',
      '--nnodes',
      '2',
      '--node-rank',
      '1',
      '--dist-init-addr',
      '10.0.0.7:20000',
    ]);
  });

  it('vLLM 0.11: the head serves with its DP ranks; the others run --headless from their start rank', () => {
    const argv = ['vllm', 'serve', 'Qwen/Qwen3-30B-A3B', '--data-parallel-size', '4', '--tensor-parallel-size', '4'];
    const { ranks } = engineRanks('vllm', argv, { dp: 4, tp: 4 }, layout);
    const dp = ['--data-parallel-size-local', '2', '--data-parallel-address', '10.0.0.7', '--data-parallel-rpc-port', '20000'];
    expect(argvOf(ranks, { SLURM_NODEID: '0', SERVELAB_HEAD_ADDR: '10.0.0.7' })).toEqual([...argv, '--host', '0.0.0.0', ...dp]);
    expect(argvOf(ranks, { SLURM_NODEID: '1', SERVELAB_HEAD_ADDR: '10.0.0.7' })).toEqual([
      ...argv,
      '--host',
      '0.0.0.0',
      '--headless',
      ...dp,
      '--data-parallel-start-rank',
      '2',
    ]);
  });

  it('vLLM 0.11: a replica wider than a node is refused (that needs a Ray cluster)', () => {
    expect(() => engineRanks('vllm', ['vllm', 'serve', 'm', '--tensor-parallel-size', '16'], { tp: 16 }, layout)).toThrow(
      /Ray is required for multi-node inference/,
    );
    expect(() => engineRanks('vllm', ['vllm', 'serve', 'm'], { dp: 3 }, layout)).toThrow(/does not split into 2 nodes/);
  });

  it('TensorRT-LLM: one MPI rank per GPU under srun --mpi=pmix, each through trtllm-llmapi-launch', () => {
    const { ranks, tasksPerNode } = engineRanks('trtllm', ['trtllm-serve', '/models/r1', '--tp_size', '16'], { tp: 16 }, layout);
    expect(tasksPerNode).toBe(8);
    expect(ranks.srun).toEqual(['--mpi=pmix']);
    expect(argvOf(ranks, { SLURM_NODEID: '1' })).toEqual([
      'trtllm-llmapi-launch',
      'trtllm-serve',
      '/models/r1',
      '--tp_size',
      '16',
      '--host',
      '0.0.0.0',
    ]);
  });

  it('one node: the ordinary launch, only the bind address changed', () => {
    const { ranks } = engineRanks(
      'sglang',
      ['python3', '-m', 'sglang.launch_server', '--model-path', 'm', '--host=127.0.0.1'],
      {},
      { ...layout, nodes: 1 },
    );
    expect(argvOf(ranks, { SLURM_NODEID: '0' })).toEqual([
      'python3',
      '-m',
      'sglang.launch_server',
      '--model-path',
      'm',
      '--host',
      '0.0.0.0',
    ]);
  });
});

describe('batch script', () => {
  const script = renderBatchScript({
    request: { nodes: 2, gpusPerNode: 8, tasksPerNode: 1, partition: 'gpu', time: '30' },
    env: { HF_TOKEN_PATH: hostile },
    ranks: engineRanks('sglang', ['python3', '-m', 'sglang.launch_server', '--model-path', 'm'], {}, layout).ranks,
    directives: true,
  });

  it('is valid bash with the allocation as #SBATCH lines and one srun step', () => {
    execFileSync('bash', ['-n'], { input: script });
    expect(script.split('\n').filter((l) => l.startsWith('#SBATCH'))).toEqual([
      '#SBATCH --nodes=2',
      '#SBATCH --ntasks-per-node=1',
      '#SBATCH --gres=gpu:8',
      '#SBATCH --partition=gpu',
      '#SBATCH --time=30',
    ]);
    expect(script.match(/^srun /gm)).toHaveLength(1);
    expect(script).toContain('srun --nodes=2 --ntasks-per-node=1 --kill-on-bad-exit=1 bash -c ');
  });

  it('a CPU job (llama.cpp): no gres, CPUs per task for sbatch and again for srun, which does not inherit them', () => {
    const cpu = renderBatchScript({
      request: { nodes: 1, gpusPerNode: 0, tasksPerNode: 1, cpusPerTask: 4 },
      env: {},
      ranks: { head: ['llama-server', '-t', '4'] },
      directives: true,
    });
    execFileSync('bash', ['-n'], { input: cpu });
    expect(cpu.split('\n').filter((l) => l.startsWith('#SBATCH'))).toEqual([
      '#SBATCH --nodes=1',
      '#SBATCH --ntasks-per-node=1',
      '#SBATCH --cpus-per-task=4',
    ]);
    expect(cpu).toContain("srun --nodes=1 --ntasks-per-node=1 --cpus-per-task=4 --kill-on-bad-exit=1 bash -c 'exec llama-server -t 4'");
    expect(() => sbatchOptions({ nodes: 1, gpusPerNode: 0, tasksPerNode: 1, cpusPerTask: 0 })).toThrow(
      'CPUs per task must be an integer >= 1',
    );
  });

  it('exports env values exactly', () => {
    const line = script.split('\n').find((l) => l.startsWith('export HF_TOKEN_PATH='))!;
    expect(execFileSync('bash', ['-c', `${line}; printf %s "$HF_TOKEN_PATH"`], { encoding: 'utf8' })).toBe(hostile);
  });

  it('refuses an sbatch option that an #SBATCH line cannot carry, and bad env names', () => {
    expect(() =>
      renderBatchScript({
        request: { nodes: 1, gpusPerNode: 0, tasksPerNode: 1, extra: ['--comment=two words'] },
        env: {},
        ranks: { head: ['true'] },
        directives: true,
      }),
    ).toThrow(/cannot be written as an #SBATCH line/);
    expect(() =>
      renderBatchScript({ request: { nodes: 1, gpusPerNode: 0, tasksPerNode: 1 }, env: { 'A B': 'x' }, ranks: { head: ['true'] } }),
    ).toThrow(/bad environment variable name/);
  });
});
