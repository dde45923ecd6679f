// The network side of a simulated multi-node start: the head opens the rendezvous port named by
// --dist-init-addr and waits for every other node; each worker connects to it, retrying until
// the dist timeout, as torch.distributed's TCPStore client does. src/commands/sim-serve.ts calls
// joinRanks after splitMultinodeArgs: a failed join exits as the engine does, a worker serves no
// HTTP and waits for the head, the head serves for the whole group and calls release() when done.
import net from 'node:net';
import type { LogLine } from '../imitation/engine-style.js';
import type { ExitSpec } from '../server/server.js';
import { headTimeoutLines, planRank, workerStartLine, workerTimeoutLines, type MultinodeArgs } from './multinode.js';

export type JoinResult =
  { role: 'head'; release(): Promise<void> } | { role: 'worker'; done: Promise<ExitSpec>; leave(): void } | { exit: ExitSpec };

type Emit = (l: LogLine) => void;
const HELLO = 'servelab-sim-rank';
const RETRY_MS = 500;

function headWait(
  port: number,
  host: string,
  peers: number,
  timeoutMs: number,
  m: MultinodeArgs,
  gpus: number,
  emit: Emit,
): Promise<JoinResult> {
  return new Promise((resolve) => {
    const joined = new Map<number, net.Socket>();
    const server = net.createServer((sock) => {
      let buf = '';
      sock.on('error', () => undefined);
      sock.on('data', (b) => {
        buf += b.toString();
        const m = new RegExp(`^${HELLO} (\\d+)\\n`).exec(buf);
        if (!m) return;
        joined.set(Number(m[1]), sock);
        if (joined.size === peers) finish();
      });
    });
    const release = async () => {
      for (const s of joined.values()) s.end();
      await new Promise((r) => server.close(() => r(undefined)));
    };
    const timer = setTimeout(() => {
      for (const l of headTimeoutLines(timeoutMs / 1000, joined.size + 1, m.nnodes, gpus, new Date())) emit({ stream: 'stderr', text: l });
      void release();
      resolve({ exit: { signal: 'SIGKILL' } });
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      for (const s of joined.values()) s.write('ok\n');
      resolve({ role: 'head', release });
    };
    server.on('error', (e) => {
      clearTimeout(timer);
      emit({ stream: 'stderr', text: `servelab sim: rendezvous port ${host}:${port}: ${e.message}` });
      resolve({ exit: { code: 1 } });
    });
    server.listen(port, host, () => (peers === 0 ? finish() : undefined));
  });
}

function connectOnce(host: string, port: number, rank: number): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    const fail = () => {
      sock.destroy();
      resolve(null);
    };
    sock.setTimeout(RETRY_MS * 2, fail);
    sock.once('error', fail);
    sock.once('connect', () => {
      sock.setTimeout(0);
      sock.removeListener('error', fail);
      sock.on('error', () => undefined);
      sock.write(`${HELLO} ${rank}\n`);
      // Read (and drop) the head's "ok": a paused socket never sees the head's end.
      sock.resume();
      resolve(sock);
    });
  });
}

async function workerJoin(
  m: MultinodeArgs,
  plan: Extract<ReturnType<typeof planRank>, { role: 'worker' }>,
  emit: Emit,
): Promise<JoinResult> {
  emit({ stream: 'stdout', text: workerStartLine(plan.firstTpRank, new Date()) });
  const deadline = Date.now() + plan.timeoutMs;
  for (;;) {
    const sock = await connectOnce(plan.connect.host, plan.connect.port, m.nodeRank);
    if (sock) {
      const done = new Promise<ExitSpec>((resolve) => {
        sock.once('close', () => {
          emit({
            stream: 'stderr',
            text: `servelab sim: head ${plan.connect.host}:${plan.connect.port} closed the rendezvous; node rank ${m.nodeRank} exits`,
          });
          resolve({ code: 0 });
        });
      });
      return { role: 'worker', done, leave: () => sock.destroy() };
    }
    if (Date.now() + RETRY_MS > deadline) {
      for (const l of workerTimeoutLines(plan.connect.host, plan.connect.port, plan.timeoutMs, plan.firstTpRank, new Date()))
        emit({ stream: 'stderr', text: l });
      return { exit: { signal: 'SIGKILL' } };
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}

/** Join the simulated multi-node group: see the module comment for what each result means. */
export function joinRanks(m: MultinodeArgs, gpusPerNode: number, emit: Emit): Promise<JoinResult> {
  const plan = planRank(m, gpusPerNode);
  if (plan.role === 'head') return headWait(plan.listenPort, m.distInitAddr.host, plan.peers, plan.timeoutMs, m, gpusPerNode, emit);
  return workerJoin(m, plan, emit);
}
