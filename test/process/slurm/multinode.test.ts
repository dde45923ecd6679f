// sim-serve's multi-node imitation: flag parsing, the rank's role, and real TCP between a head
// and its workers in this process (what a rank does when the head is there, or is not).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { planRank, splitMultinodeArgs, type MultinodeArgs } from '../../../src/sim/multinode/multinode.js';
import { joinRanks, type JoinResult } from '../../../src/sim/multinode/multinode-rank.js';
import type { LogLine } from '../../../src/sim/imitation/engine-style.js';
import { port } from '../../helpers/slurm/helpers.js';

describe('splitMultinodeArgs', () => {
  it('takes the three SGLang flags (and --dist-timeout) out of the argv, both spellings', () => {
    const { multinode, rest } = splitMultinodeArgs([
      '--engine',
      'sglang',
      '--nnodes',
      '2',
      '--node-rank=1',
      '--dist-init-addr',
      '10.0.0.7:20000',
      '--port',
      '30000',
      '--dist-timeout',
      '30',
    ]);
    expect(multinode).toEqual({ nnodes: 2, nodeRank: 1, distInitAddr: { host: '10.0.0.7', port: 20000 }, distTimeoutS: 30 });
    expect(rest).toEqual(['--engine', 'sglang', '--port', '30000']);
  });
  it('is a single-node server without --nnodes or with --nnodes 1; the dist timeout defaults to 600 s', () => {
    expect(splitMultinodeArgs(['--engine', 'vllm']).multinode).toBeNull();
    expect(splitMultinodeArgs(['--nnodes', '1']).multinode).toBeNull();
    expect(splitMultinodeArgs(['--nnodes', '2', '--dist-init-addr', '[::1]:5000']).multinode).toEqual({
      nnodes: 2,
      nodeRank: 0,
      distInitAddr: { host: '::1', port: 5000 },
      distTimeoutS: 600,
    });
  });
  it('fails like argparse on bad values', () => {
    expect(() => splitMultinodeArgs(['--nnodes', 'two'])).toThrow(/argument --nnodes: invalid int value: 'two'/);
    expect(() => splitMultinodeArgs(['--nnodes', '2', '--node-rank', '2', '--dist-init-addr', 'h:1'])).toThrow(
      /--node-rank: 2 is not below --nnodes 2/,
    );
    expect(() => splitMultinodeArgs(['--nnodes', '2'])).toThrow(/--dist-init-addr HOST:PORT is required/);
    expect(() => splitMultinodeArgs(['--nnodes', '2', '--dist-init-addr', 'nohostport'])).toThrow(/expected HOST:PORT/);
    expect(() => splitMultinodeArgs(['--node-rank'])).toThrow(/expected one argument/);
  });
  it('plans the head to wait for nnodes-1 peers and a worker to join with its first TP rank', () => {
    const m: MultinodeArgs = { nnodes: 4, nodeRank: 0, distInitAddr: { host: 'h', port: 9 }, distTimeoutS: 5 };
    expect(planRank(m, 8)).toEqual({ role: 'head', listenPort: 9, peers: 3, timeoutMs: 5000 });
    expect(planRank({ ...m, nodeRank: 2 }, 8)).toEqual({
      role: 'worker',
      connect: { host: 'h', port: 9 },
      timeoutMs: 5000,
      firstTpRank: 16,
    });
  });
});

describe('joinRanks over TCP', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  const collect = () => {
    const lines: string[] = [];
    return { lines, emit: (l: LogLine) => lines.push(l.text) };
  };

  it('the head returns once every worker joined; a worker ends when the head releases it', async () => {
    const p = await port();
    const addr = { host: '127.0.0.1', port: p };
    const head = joinRanks({ nnodes: 3, nodeRank: 0, distInitAddr: addr, distTimeoutS: 10 }, 8, collect().emit);
    const w1 = collect();
    const workers = await Promise.all(
      [1, 2].map((r) => joinRanks({ nnodes: 3, nodeRank: r, distInitAddr: addr, distTimeoutS: 10 }, 8, r === 1 ? w1.emit : collect().emit)),
    );
    const h = (await head) as Extract<JoinResult, { role: 'head' }>;
    expect(h.role).toBe('head');
    expect(w1.lines[0]).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d TP8\] Init torch distributed begin\.$/);
    await h.release();
    for (const w of workers) expect(await (w as Extract<JoinResult, { role: 'worker' }>).done).toEqual({ code: 0 });
  });

  it('a worker that cannot reach the head fails with SGLang and torch texts and SIGKILL', async () => {
    const p = await port();
    const { lines, emit } = collect();
    const r = await joinRanks({ nnodes: 2, nodeRank: 1, distInitAddr: { host: '127.0.0.1', port: p }, distTimeoutS: 1 }, 8, emit);
    expect(r).toEqual({ exit: { signal: 'SIGKILL' } });
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^\\[E\\d{4} [\\d:.]+ socket\\.cpp:1011\\] \\[c10d\\] The client socket has timed out after 1000ms while trying to connect to \\(127\\.0\\.0\\.1, ${p}\\)\\.$`,
        ),
      ),
      expect.stringMatching(/^\[[\d :-]+ TP8\] Scheduler hit an exception: Traceback \(most recent call last\):$/),
      `torch.distributed.DistNetworkError: The client socket has timed out after 1000ms while trying to connect to (127.0.0.1, ${p}).`,
      expect.stringMatching(/^\[[\d :-]+\] Received sigquit from a child process\. It usually means the child failed\.$/),
    ]);
  });

  it('a head whose workers never come fails with the TCPStore text (clients counted in GPU ranks)', async () => {
    const p = await port();
    const { lines, emit } = collect();
    const r = await joinRanks({ nnodes: 2, nodeRank: 0, distInitAddr: { host: '127.0.0.1', port: p }, distTimeoutS: 1 }, 8, emit);
    expect(r).toEqual({ exit: { signal: 'SIGKILL' } });
    expect(lines).toContain('torch.distributed.DistStoreError: Timed out after 2 seconds waiting for clients. 8/16 clients joined.');
  });

  it('a head whose rendezvous port is taken says so and exits 1', async () => {
    const p = await port();
    const blocker = net.createServer().listen(p, '127.0.0.1');
    cleanups.push(() => new Promise((r) => blocker.close(r)));
    await new Promise((r) => blocker.once('listening', r));
    const { lines, emit } = collect();
    expect(await joinRanks({ nnodes: 2, nodeRank: 0, distInitAddr: { host: '127.0.0.1', port: p }, distTimeoutS: 5 }, 8, emit)).toEqual({
      exit: { code: 1 },
    });
    expect(lines[0]).toMatch(new RegExp(`^servelab sim: rendezvous port 127\\.0\\.0\\.1:${p}: listen EADDRINUSE`));
  });
});
