// Slurm runtime: the one way into src/host/slurm for the runner, discovery and the exports (a
// dependency-cruiser rule keeps it so); the files behind it may move without touching callers.
export { runSlurm, missingSlurmClients, assertSlurmClients, SlurmCommandError, type SlurmCli } from './cli.js';
export { expandHostlist } from './hostlist.js';
export { sbatchOptions, validateRequest, type SlurmRequest } from './options.js';
export { submitJob, sbatchArgv, parseParsable } from './submit.js';
export { queryJob, describeJob, isActive, isFinished, type SlurmJobInfo } from './state.js';
export { cancelJob, cancelJobSync, type CancelResult } from './cancel.js';
export { followFile, type FileFollower } from './tail.js';
export {
  discoverCluster,
  largestAllocation,
  largestCpuAllocation,
  allocationShortfall,
  nodeAddress,
  parseGres,
  type SlurmCluster,
  type Allocation,
  type CpuAllocation,
} from './discover.js';
export { renderBatchScript, taskCommand, HEAD_ADDR_VAR, type RankCommands, type Word, type BatchScript } from './script.js';
export {
  multiNodeRanks,
  type MultiNodeEngine,
  sglangRanks,
  vllmRanks,
  trtllmRanks,
  type NodeLayout,
  type EngineRanks,
} from './engine-ranks.js';
export { launchSlurmJob, type SlurmLaunchSpec, type SlurmJobHandle, type RunningResult, type JobReadyResult } from './job.js';
export { cpuTaskCpus } from './cpu-job.js';
