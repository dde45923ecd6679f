// `servelab sim-serve`: the simulated engine server as its own process, launched by the runner
// exactly like a real engine. Logs go to stdout/stderr in the imitated engine's style.
// With SGLang's multi-node flags (--nnodes, --node-rank, --dist-init-addr; src/sim/multinode/multinode.ts)
// it is one node of a multi-node engine: ranks > 0 join the head and serve nothing, or fail with
// the engine's own text when the head cannot be reached; the head serves for the whole group.
import { parseSimArgs, wantsHelp } from '../cli/sim-serve-args.js';
import { SimArgsError, SIM_USAGE, type SimArgs } from '../sim/server/sim-args.js';
import { startSimServer } from '../sim/server/server.js';
import { groupGpus, splitMultinodeArgs } from '../sim/multinode/multinode.js';
import { joinRanks } from '../sim/multinode/multinode-rank.js';
import type { LogLine } from '../sim/imitation/engine-style.js';
import { builtinModelIds } from '../model/models.js';
import { gpuNames } from '../model/gpus.js';

const emit = (l: LogLine) => (l.stream === 'stdout' ? process.stdout : process.stderr).write(l.text + '\n');

function parse(argv: string[]): { args: SimArgs; multinode: ReturnType<typeof splitMultinodeArgs>['multinode'] } | number {
  try {
    const { multinode, rest } = splitMultinodeArgs(argv);
    return { args: parseSimArgs(rest), multinode };
  } catch (e) {
    if (e instanceof SimArgsError) {
      process.stderr.write(e.message + '\n');
      return 2;
    }
    throw e;
  }
}

export default async function main(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(
      `${SIM_USAGE}\n  [--nnodes N --node-rank R --dist-init-addr HOST:PORT [--dist-timeout S]]  one node of a multi-node engine\n\n` +
        `A simulated ${'vLLM / SGLang / TensorRT-LLM'} server (OpenAI-compatible HTTP) over servelab's GPU performance model.\n` +
        `GPUs: ${gpuNames().join(', ')}\nBuilt-in models (also as -FP8): ${builtinModelIds().join(', ')}; or a folder with config.json.\n`,
    );
    return 0;
  }
  const parsed = parse(argv);
  if (typeof parsed === 'number') return parsed;
  const { args, multinode } = parsed;
  let gpus = args.gpus;
  let release = async () => {};
  if (multinode) {
    gpus = groupGpus(multinode, args.gpus);
    const r = await joinRanks(multinode, args.gpus, emit);
    if ('exit' in r) return exitCode(r.exit);
    if (r.role === 'worker') {
      const leave = () => r.leave();
      process.once('SIGTERM', leave);
      process.once('SIGINT', leave);
      return exitCode(await r.done);
    }
    release = r.release;
  }
  let server;
  try {
    // The head serves the whole group; its collectives cross nodes of args.gpus GPUs each.
    server = startSimServer({ ...args, gpus, ...(multinode ? { gpusPerNode: args.gpus } : {}) }, emit);
  } catch (e) {
    await release();
    if (e instanceof SimArgsError) {
      process.stderr.write(e.message + '\n');
      return 2;
    }
    throw e;
  }
  const s = server;
  const onSignal = () => {
    void s
      .stop()
      .then(release)
      .then(() => process.exit(0));
    // Never linger: a stuck connection must not keep the process alive.
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const exit = await s.done;
  await release();
  return exitCode(exit);
}

/** The exit code, or death by SIGKILL as SGLang's kill_process_tree leaves the launcher (137). */
function exitCode(exit: { code: number } | { signal: string }): number {
  if ('signal' in exit) process.kill(process.pid, 'SIGKILL');
  return 'code' in exit ? exit.code : 137;
}
