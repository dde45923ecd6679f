// Slurm's GPU allocation of a job, from `scontrol -d -o show job ID` (lines as Slurm 22.05.8 on
// the test cluster printed them, shortened to the fields around the node groups).
import { describe, expect, it } from 'vitest';
import { describeJobGpus, expandIndexList, parseJobGpus, singleNodeGpuIds } from '../../../src/tune/run/slurm/gpus.js';

const ONE =
  'JobId=2 JobName=wrap JobState=RUNNING Reason=None NodeList=sl1 BatchHost=sl1 NumNodes=1 JOB_GRES=gpu:h100:3   Nodes=sl1 CPU_IDs=1 Mem=0 GRES=gpu:h100:3(IDX:2-4) MinCPUsNode=1 TresPerNode=gres:gpu:3 ';
const TWO =
  'JobId=1 JobName=wrap JobState=RUNNING NodeList=sl[1-2] NumNodes=2 JOB_GRES=gpu:h100:4   Nodes=sl[1-2] CPU_IDs=0 Mem=0 GRES=gpu:h100:2(IDX:0-1) MinCPUsNode=1 TresPerNode=gres:gpu:2 ';
const SPLIT =
  'JobId=7 JobState=RUNNING NodeList=sl[1-2] JOB_GRES=gpu:4   Nodes=sl1 CPU_IDs=0 Mem=0 GRES=gpu:2(IDX:0,5)   Nodes=sl2 CPU_IDs=0 Mem=0 GRES=gpu:2(IDX:6-7) MinCPUsNode=1';

describe('Slurm GPU allocation of a job', () => {
  it('reads each node group of the details line', () => {
    expect(parseJobGpus(ONE)).toEqual([{ nodes: ['sl1'], ids: [2, 3, 4] }]);
    expect(parseJobGpus(TWO)).toEqual([{ nodes: ['sl1', 'sl2'], ids: [0, 1] }]);
    expect(parseJobGpus(SPLIT)).toEqual([
      { nodes: ['sl1'], ids: [0, 5] },
      { nodes: ['sl2'], ids: [6, 7] },
    ]);
    expect(describeJobGpus(parseJobGpus(SPLIT))).toBe('sl1 GPU 0,5; sl2 GPU 6,7');
  });

  it('records gpuIds for a one-node job only; nothing for a pending job or one without GPUs', () => {
    expect(singleNodeGpuIds(parseJobGpus(ONE))).toEqual([2, 3, 4]);
    expect(singleNodeGpuIds(parseJobGpus(TWO))).toBeUndefined();
    expect(parseJobGpus('JobId=3 JobState=PENDING Reason=Resources NodeList=(null) JOB_GRES=(null)')).toEqual([]);
    expect(parseJobGpus('JobId=4 JobState=RUNNING   Nodes=sl1 CPU_IDs=0 Mem=0 GRES= MinCPUsNode=1')).toEqual([]);
    expect(expandIndexList('0-1,4,6-7')).toEqual([0, 1, 4, 6, 7]);
    expect(expandIndexList('N/A')).toEqual([]);
  });
});
