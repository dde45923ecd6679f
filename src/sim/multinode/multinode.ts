// sim-serve as one node of a multi-node engine: SGLang's `--nnodes N --node-rank R
// --dist-init-addr HOST:PORT` (and `--dist-timeout SECONDS`), taken by sim-serve whatever engine
// it imitates. Pure: flag parsing, the rank's role, and the engine's own failure text.
//
// Rank 0 serves HTTP once every other node has joined its rendezvous port (torch.distributed's
// TCPStore server at --dist-init-addr); ranks > 0 serve nothing and connect to the head. A rank
// that cannot reach the head fails as SGLang does (texts quoted below, with their sources).
import { SimArgsError } from '../server/sim-args.js';

export interface MultinodeArgs {
  nnodes: number;
  nodeRank: number;
  distInitAddr: { host: string; port: number };
  /** Seconds; torch.distributed's default is 600 ("timed out after 600000ms" in the logs). */
  distTimeoutS: number;
}

const DEFAULT_DIST_TIMEOUT_S = 600;
const FLAGS = ['--nnodes', '--node-rank', '--dist-init-addr', '--dist-timeout'] as const;
type Flag = (typeof FLAGS)[number];

function intValue(flag: string, v: string, min: number): number {
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || n < min) throw new SimArgsError(`argument ${flag}: invalid int value: '${v}'`);
  return n;
}

function parseAddr(v: string): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(v);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port < 1 || port > 65535) throw new SimArgsError(`argument --dist-init-addr: expected HOST:PORT, got '${v}'`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * Take the multi-node flags out of sim-serve's argv. `multinode` is null when --nnodes is absent
 * or 1 (an ordinary single-node server); `rest` goes on to parseSimArgs.
 */
export function splitMultinodeArgs(argv: readonly string[]): { multinode: MultinodeArgs | null; rest: string[] } {
  const found: Partial<Record<Flag, string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = (eq > 0 ? a.slice(0, eq) : a) as Flag;
    if (!FLAGS.includes(name)) {
      rest.push(a);
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new SimArgsError(`argument ${name}: expected one argument`);
    found[name] = value;
  }
  const nnodes = found['--nnodes'] === undefined ? 1 : intValue('--nnodes', found['--nnodes'], 1);
  const nodeRank = found['--node-rank'] === undefined ? 0 : intValue('--node-rank', found['--node-rank'], 0);
  const distTimeoutS =
    found['--dist-timeout'] === undefined ? DEFAULT_DIST_TIMEOUT_S : intValue('--dist-timeout', found['--dist-timeout'], 1);
  if (nnodes === 1) {
    if (nodeRank !== 0) throw new SimArgsError(`argument --node-rank: ${nodeRank} is not below --nnodes 1`);
    return { multinode: null, rest };
  }
  if (nodeRank >= nnodes) throw new SimArgsError(`argument --node-rank: ${nodeRank} is not below --nnodes ${nnodes}`);
  if (found['--dist-init-addr'] === undefined) throw new SimArgsError('--dist-init-addr HOST:PORT is required with --nnodes > 1');
  return { multinode: { nnodes, nodeRank, distInitAddr: parseAddr(found['--dist-init-addr']), distTimeoutS }, rest };
}

/**
 * GPUs of the whole group: SGLang's --tp counts every GPU of every node (TP16 on 2 x 8), so the
 * head's simulated server is sized for nnodes x --gpus. The performance model does not yet
 * charge the inter-node links for it.
 */
export function groupGpus(m: MultinodeArgs, gpusPerNode: number): number {
  return m.nnodes * gpusPerNode;
}

export type RankPlan =
  | { role: 'head'; listenPort: number; peers: number; timeoutMs: number }
  | { role: 'worker'; connect: { host: string; port: number }; timeoutMs: number; firstTpRank: number };

/** What this rank does: the head waits for nnodes-1 peers; a worker joins the head. */
export function planRank(m: MultinodeArgs, gpusPerNode: number): RankPlan {
  const timeoutMs = m.distTimeoutS * 1000;
  if (m.nodeRank === 0) return { role: 'head', listenPort: m.distInitAddr.port, peers: m.nnodes - 1, timeoutMs };
  return { role: 'worker', connect: m.distInitAddr, timeoutMs, firstTpRank: m.nodeRank * gpusPerNode };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** SGLang's log prefix time, "2025-06-23 15:37:01". */
export function sglangTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
/** c10d's glog-style prefix, "E1226 15:44:25.497183572". */
function glogTime(d: Date): string {
  return `${pad(d.getMonth() + 1)}${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}000000`;
}

/** The worker's first line on start (sgl-project/sglang#8974: "[2025-08-08 09:09:07 TP0] Init torch distributed begin."). */
export function workerStartLine(tpRank: number, now: Date): string {
  return `[${sglangTime(now)} TP${tpRank}] Init torch distributed begin.`;
}

/**
 * A worker that cannot reach the head within the timeout. Texts as SGLang 0.5.x prints them:
 * the c10d client line (sgl-project/sglang#2561: "[E1226 15:44:25.497183572 socket.cpp:1011]
 * [c10d] The client socket has timed out after 600000ms while trying to connect to
 * (sws-8h100grid-05, 8000)."), the scheduler's "Scheduler hit an exception: Traceback (most
 * recent call last):" (sglang#7478), torch's exception line
 * "torch.distributed.DistNetworkError: The client socket has timed out after 600000ms while trying
 * to connect to (172.17.0.9, 46229)." (vllm-project/vllm#19670), and the launcher's "Received
 * sigquit from a child process. It usually means the child failed." before it SIGKILLs its tree
 * (SGLang python/sglang/srt/entrypoints/engine.py sigquit_handler -> kill_process_tree, 0.5 line;
 * exit 137; docs/slurm.md).
 */
export function workerTimeoutLines(host: string, port: number, timeoutMs: number, tpRank: number, now: Date): string[] {
  const msg = `The client socket has timed out after ${timeoutMs}ms while trying to connect to (${host}, ${port}).`;
  return [
    `[E${glogTime(now)} socket.cpp:1011] [c10d] ${msg}`,
    `[${sglangTime(now)} TP${tpRank}] Scheduler hit an exception: Traceback (most recent call last):`,
    `torch.distributed.DistNetworkError: ${msg}`,
    `[${sglangTime(now)}] Received sigquit from a child process. It usually means the child failed.`,
  ];
}

/**
 * The head when not every node joined in time: torch's TCPStore server error, "Timed out after
 * \d+ seconds waiting for clients. \d+/\d+ clients joined." (pytorch test/distributed/test_store.py
 * test_store_timeout_on_missing_clients; logs show 601 seconds for the default 600 s timeout).
 * Clients count GPU ranks: each node brings gpusPerNode of them.
 */
export function headTimeoutLines(timeoutS: number, nodesJoined: number, nnodes: number, gpusPerNode: number, now: Date): string[] {
  const joined = nodesJoined * gpusPerNode;
  return [
    `[${sglangTime(now)} TP0] Scheduler hit an exception: Traceback (most recent call last):`,
    `torch.distributed.DistStoreError: Timed out after ${timeoutS + 1} seconds waiting for clients. ${joined}/${nnodes * gpusPerNode} clients joined.`,
    `[${sglangTime(now)}] Received sigquit from a child process. It usually means the child failed.`,
  ];
}
