// Run one command against the test Slurm cluster (test/helpers/slurm/cluster.ts: munged, slurmctld and
// two slurmd on this machine, 8 gres GPUs h100 each, partition gpu), then stop the cluster:
//
//   node --import tsx scripts/slurm-test-cluster.ts -- node bin/servelab.js --auto --runtime slurm ...
//
// With --cpu before `--` the cluster has no GPUs (partition cpu, 2 CPUs per node): llama.cpp's
// CPU jobs (`--engines llamacpp --model FILE.gguf`).
//
// The command gets SLURM_CONF in its environment. The cluster is stopped when the command ends,
// and on Ctrl-C/SIGTERM (passed to the command first, so it can scancel its jobs).
import { spawn } from 'node:child_process';
import { startTestCluster, waitNoJobs } from '../test/helpers/slurm/cluster.js';

const at = process.argv.indexOf('--');
const cmd = at >= 0 ? process.argv.slice(at + 1) : [];
if (!cmd.length) {
  process.stderr.write('usage: node --import tsx scripts/slurm-test-cluster.ts [--cpu] -- COMMAND [ARGS...]\n');
  process.exit(2);
}
const cluster = await startTestCluster(process.argv.slice(2, at).includes('--cpu') ? { gpusPerNode: 0 } : {});
process.stderr.write(`slurm-test-cluster: up in ${cluster.dir} (${cluster.nodes.join(', ')}, partition ${cluster.partition})\n`);
const child = spawn(cmd[0]!, cmd.slice(1), { stdio: 'inherit', env: { ...process.env, ...cluster.cli.env } });
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => child.kill(s));
const code = await new Promise<number>((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 128 : 1))));
const left = await waitNoJobs(cluster.cli, 10_000);
if (left) process.stderr.write(`slurm-test-cluster: jobs still in squeue after the command: ${left}\n`);
await cluster.stop();
process.stderr.write(`slurm-test-cluster: stopped; the command exited ${code}\n`);
process.exit(code);
