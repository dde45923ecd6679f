// `export --format slurm`: the sbatch script for a profile, from the shipped profiles and for a
// two-node SGLang profile; the CLI writes it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { slurmScript } from '../../../src/profiles/export/slurm.js';
import { REPO, SERVELAB_BIN } from '../../helpers/slurm/helpers.js';

const shipped = (name: string) => loadProfile(fileURLToPath(new URL(`../../../profiles/${name}`, import.meta.url)));

describe('slurmScript', () => {
  it('writes the allocation as #SBATCH lines and runs the recorded argv with srun', () => {
    const p = shipped('DeepSeek-R1-0528-H200x8.json');
    const s = slurmScript(p, 'r1.json', { partition: 'gpu', account: 'proj', time: '04:00:00', exclusive: true });
    execFileSync('bash', ['-n'], { input: s });
    expect(s.split('\n').filter((l) => l.startsWith('#SBATCH'))).toEqual([
      '#SBATCH --nodes=1',
      '#SBATCH --ntasks-per-node=1',
      '#SBATCH --gres=gpu:8',
      '#SBATCH --exclusive',
      '#SBATCH --partition=gpu',
      '#SBATCH --account=proj',
      '#SBATCH --time=04:00:00',
      '#SBATCH --job-name=deepseek-r1-0528-sglang',
      '#SBATCH --output=deepseek-r1-0528-sglang-%j.out',
    ]);
    const srun = s.split('\n').find((l) => l.startsWith('srun '))!;
    expect(srun).toContain(`bash -c 'exec ${p.engineArgv.join(' ')} --host 0.0.0.0'`);
  });

  it('spreads a two-node SGLang profile over the nodes with the engine flags per rank', () => {
    const p = shipped('DeepSeek-R1-0528-H200x8.json');
    const two = {
      ...p,
      variant: { ...p.variant, knobs: { ...p.variant.knobs, tp: 16 } },
      engineArgv: p.engineArgv.map((a) => (a === '8' ? '16' : a)),
    };
    const s = slurmScript(two, 'r1.json', { nodes: 2 });
    expect(s).toContain('#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\n');
    expect(s).toContain(`--nnodes 2 --node-rank "$SLURM_NODEID" --dist-init-addr "$SERVELAB_HEAD_ADDR":20000`);
  });

  it('asks for the GPUs of the TP group for an SGLang tp8 + dp8 DP-attention profile (DP attention lives inside TP)', () => {
    const p = shipped('DeepSeek-R1-0528-H200x8.json');
    const dpa = { ...p, variant: { ...p.variant, knobs: { ...p.variant.knobs, tp: 8, dp: 8, dpAttention: true } } };
    expect(slurmScript(dpa, 'r1.json')).toContain('#SBATCH --gres=gpu:8\n');
    // Without DP attention, dp 8 is eight replicas of tp 8: 64 GPUs, over 8 nodes.
    const replicas = { ...p, variant: { ...p.variant, knobs: { ...p.variant.knobs, tp: 8, dp: 8, dpAttention: false } } };
    expect(slurmScript(replicas, 'r1.json', { nodes: 8 })).toContain(
      '#SBATCH --nodes=8\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\n',
    );
  });

  it('is a format of the export command', () => {
    const out = execFileSync(process.execPath, [SERVELAB_BIN, 'export', 'profiles/Qwen3-14B-H100x1.json', '--format', 'slurm'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(out.startsWith('#!/bin/bash\n#SBATCH --nodes=1\n')).toBe(true);
    expect(out).toContain("bash -c 'exec python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8 --host 0.0.0.0'");
  });
});
