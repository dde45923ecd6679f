// Pure parts of the Slurm runtime against output captured from a real Slurm 22.05.8
// (test/fixtures/slurm/README.md): host lists, job states, discovery, sbatch options.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expandHostlist } from '../../../src/host/slurm/hostlist.js';
import { describeJob, parseKeyValues, parseSacctJob, parseScontrolJob } from '../../../src/host/slurm/state.js';
import {
  allocationShortfall,
  largestAllocation,
  parseGres,
  parseSinfoNodes,
  parseSinfoPartitions,
} from '../../../src/host/slurm/discover.js';
import { sbatchOptions } from '../../../src/host/slurm/options.js';
import { parseParsable, sbatchArgv } from '../../../src/host/slurm/submit.js';
import { assertSlurmClients, runSlurm, SlurmCommandError } from '../../../src/host/slurm/cli.js';
import { slurmMissing } from '../../helpers/slurm/cluster.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/slurm/${name}`, import.meta.url), 'utf8');

describe('expandHostlist', () => {
  it('expands ranges, lists, zero padding and several groups', () => {
    expect(expandHostlist('sl[1-2]')).toEqual(['sl1', 'sl2']);
    expect(expandHostlist('gpu[08-10,12],login1')).toEqual(['gpu08', 'gpu09', 'gpu10', 'gpu12', 'login1']);
    expect(expandHostlist('rack[1-2]-n[1-2]')).toEqual(['rack1-n1', 'rack1-n2', 'rack2-n1', 'rack2-n2']);
    expect(expandHostlist('')).toEqual([]);
    expect(expandHostlist('(null)')).toEqual([]);
  });
  it('refuses a malformed list', () => {
    expect(() => expandHostlist('gpu[1-')).toThrow(/bad Slurm host list/);
  });
});

describe('job state from scontrol show job -o', () => {
  it('reads running, held, pending, failed and cancelled jobs', () => {
    expect(parseScontrolJob(fixture('scontrol-running.txt'))).toEqual({
      jobId: '1',
      state: 'RUNNING',
      reason: 'None',
      nodes: ['sl1', 'sl2'],
      source: 'scontrol',
    });
    expect(describeJob(parseScontrolJob(fixture('scontrol-held.txt'))!)).toBe('PENDING (JobHeldUser)');
    expect(describeJob(parseScontrolJob(fixture('scontrol-pending-resources.txt'))!)).toBe('PENDING (Resources)');
    const failed = parseScontrolJob(fixture('scontrol-failed.txt'))!;
    expect(failed).toMatchObject({ state: 'FAILED', reason: 'NonZeroExitCode', exitCode: 3, signal: 0, nodes: ['sl1'] });
    expect(describeJob(failed)).toBe('FAILED exit 3 (NonZeroExitCode)');
    expect(parseScontrolJob(fixture('scontrol-cancelled.txt'))).toMatchObject({ state: 'CANCELLED', exitCode: 0, signal: 15 });
  });
  it('keeps values with spaces whole and ignores text that is not a job', () => {
    expect(parseKeyValues('JobId=7 Comment=two words here JobState=RUNNING')).toEqual({
      JobId: '7',
      Comment: 'two words here',
      JobState: 'RUNNING',
    });
    expect(parseScontrolJob('slurm_load_jobs error: Invalid job id specified')).toBeNull();
  });
  it('reads sacct -P lines (the documented -X -n -P format; accounting is off on the test cluster)', () => {
    const out = '41|CANCELLED by 0|0:15|gpu[01-02]|None\n41.batch|CANCELLED|0:15|gpu01|\n';
    expect(parseSacctJob(out, '41')).toEqual({
      jobId: '41',
      state: 'CANCELLED',
      reason: 'None',
      nodes: ['gpu01', 'gpu02'],
      exitCode: 0,
      signal: 15,
      source: 'sacct',
    });
    expect(parseSacctJob(out, '42')).toBeNull();
  });
});

describe('cluster discovery from sinfo', () => {
  const nodes = parseSinfoNodes(fixture('sinfo-nodes.txt'));
  const partitions = parseSinfoPartitions(fixture('sinfo-partitions.txt'), nodes);
  it('reads nodes with GPU count and type, and the default partition', () => {
    expect(nodes).toEqual([
      { name: 'sl1', partitions: ['gpu'], gpus: 8, gpuType: 'h100', cpus: 2, memoryMb: 1, state: 'idle' },
      { name: 'sl2', partitions: ['gpu'], gpus: 8, gpuType: 'h100', cpus: 2, memoryMb: 1, state: 'idle' },
    ]);
    expect(partitions).toEqual([{ name: 'gpu', isDefault: true, available: 'up', nodes: ['sl1', 'sl2'], timeLimit: 'infinite' }]);
    expect(largestAllocation({ nodes, partitions })).toEqual({ partition: 'gpu', nodes: 2, gpusPerNode: 8, gpuType: 'h100' });
  });
  it('parses gres with socket bindings, untyped GPUs and other resources', () => {
    expect(parseGres('gpu:a100:4(S:0-1),nic:2')).toEqual({ gpus: 4, gpuType: 'a100' });
    expect(parseGres('gpu:8')).toEqual({ gpus: 8 });
    expect(parseGres('gpu:h100:4,gpu:h100:4')).toEqual({ gpus: 8, gpuType: 'h100' });
    expect(parseGres('(null)')).toEqual({ gpus: 0 });
  });
  it('leaves drained and down nodes out of the largest allocation and honours max nodes per job', () => {
    const text =
      'n1|batch*|gpu:h100:8|64|1000|idle\nn2|batch*|gpu:h100:8|64|1000|mixed\nn3|batch*|gpu:h100:8|64|1000|drained\nn4|batch*|gpu:h100:8|64|1000|down*\nc1|cpu|(null)|64|1000|idle\n';
    const ns = parseSinfoNodes(text);
    const ps = parseSinfoPartitions('batch*|1-infinite|2-00:00:00|up\ncpu|1-4|1:00:00|up\n', ns);
    expect(largestAllocation({ nodes: ns, partitions: ps })).toEqual({ partition: 'batch', nodes: 2, gpusPerNode: 8, gpuType: 'h100' });
    expect(largestAllocation({ nodes: ns, partitions: ps }, 'cpu')).toBeNull();
    const capped = parseSinfoPartitions('batch*|1-1|2-00:00:00|up\n', ns);
    expect(largestAllocation({ nodes: ns, partitions: capped })).toMatchObject({ nodes: 1 });
  });
  it('says in one line why a job does not fit the largest allocation', () => {
    const a = { partition: 'gpu', nodes: 2, gpusPerNode: 8, gpuType: 'h100' };
    expect(allocationShortfall(a, 2, 8)).toBeNull();
    expect(allocationShortfall(a, 3, 8, 'gpu')).toBe(
      'slurm: partition gpu offers at most 2 node(s) x 8 h100 GPU(s) per job; this needs 3 x 8: use fewer nodes or GPUs, or another --partition',
    );
    expect(allocationShortfall(null, 1, 8)).toMatch(/^slurm: the default partition has no usable GPU node/);
  });
});

describe('sbatch options', () => {
  it('asks for nodes, tasks, GPUs per node, exclusive, partition, account, time and passthrough in order', () => {
    const r = {
      nodes: 2,
      gpusPerNode: 8,
      tasksPerNode: 1,
      exclusive: true,
      partition: 'gpu',
      account: 'proj-1',
      time: '01:00:00',
      extra: ['--qos=high'],
    };
    expect(sbatchArgv(r, '/runs/a/job.sbatch')).toEqual([
      '--parsable',
      '--nodes=2',
      '--ntasks-per-node=1',
      '--gres=gpu:8',
      '--exclusive',
      '--partition=gpu',
      '--account=proj-1',
      '--time=01:00:00',
      '--qos=high',
      '/runs/a/job.sbatch',
    ]);
  });
  it('refuses values that are not Slurm names or times, with the flag named', () => {
    const base = { nodes: 1, gpusPerNode: 8, tasksPerNode: 1 };
    expect(() => sbatchOptions({ ...base, partition: 'gpu; rm -rf ~' })).toThrow(/bad --partition/);
    expect(() => sbatchOptions({ ...base, time: 'an hour' })).toThrow(/bad --time/);
    expect(() => sbatchOptions({ ...base, nodes: 0 })).toThrow(/--nodes must be an integer >= 1/);
    expect(() => sbatchOptions({ ...base, extra: ['qos=high'] })).toThrow(/--slurm-arg 'qos=high'/);
    expect(() => sbatchOptions({ ...base, jobName: 'two words' })).toThrow(/bad job name/);
  });
  it('reads the job ID that sbatch --parsable prints, with or without a cluster name', () => {
    expect(parseParsable('1234\n')).toBe('1234');
    expect(parseParsable('1234;cluster-a\n')).toBe('1234');
    expect(() => parseParsable('sbatch: error: x')).toThrow(/not a job ID/);
  });
});

describe('Slurm client commands', () => {
  it('the real-Slurm tests say which binaries are missing when they skip', () => {
    // /usr/sbin and /sbin are always searched (the daemons live there); the clients live in /usr/bin.
    expect(slurmMissing('/nonexistent')).toMatch(
      /^Slurm tests skipped: (munged, slurmctld, slurmd, )?sbatch, scontrol, scancel, sinfo, squeue not found \(install with scripts\/ci-slurm-deps\.sh\)$/,
    );
  });
  it('names the missing commands in one line', () => {
    expect(() => assertSlurmClients('/nonexistent')).toThrow(
      '--runtime slurm: sbatch, scontrol, scancel, sinfo not found on PATH: run servelab on a Slurm login node, or install the Slurm client commands',
    );
  });
  it('carries the command and its last stderr line when a command fails', async () => {
    const err = await runSlurm({}, process.execPath, [
      '-e',
      'console.error("first\\nslurm_load_jobs error: Invalid job id specified"); process.exit(1)',
    ]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SlurmCommandError);
    expect((err as SlurmCommandError).message).toMatch(/: slurm_load_jobs error: Invalid job id specified$/);
    expect((err as SlurmCommandError).exitCode).toBe(1);
  });
});
