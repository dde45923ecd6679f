// `servelab sim-serve`: the simulated engine server as its own process, launched by the runner
// exactly like a real engine. Logs go to stdout/stderr in the imitated engine's style.
import { parseSimArgs, SimArgsError, SIM_USAGE, wantsHelp } from '../sim/args.js';
import { startSimServer } from '../sim/server.js';
import { builtinModelIds } from '../model/models.js';
import { gpuNames } from '../model/gpus.js';

export default async function main(argv: string[]): Promise<number> {
  if (wantsHelp(argv)) {
    process.stdout.write(
      `${SIM_USAGE}\n\nA simulated ${'vLLM / SGLang / TensorRT-LLM'} server (OpenAI-compatible HTTP) over servelab's GPU performance model.\n` +
        `GPUs: ${gpuNames().join(', ')}\nBuilt-in models (also as -FP8): ${builtinModelIds().join(', ')}; or a folder with config.json.\n`,
    );
    return 0;
  }
  let args;
  try {
    args = parseSimArgs(argv);
  } catch (e) {
    if (e instanceof SimArgsError) {
      process.stderr.write(e.message + '\n');
      return 2;
    }
    throw e;
  }
  let server;
  try {
    server = startSimServer(args, (l) => (l.stream === 'stdout' ? process.stdout : process.stderr).write(l.text + '\n'));
  } catch (e) {
    if (e instanceof SimArgsError) {
      process.stderr.write(e.message + '\n');
      return 2;
    }
    throw e;
  }
  const s = server;
  const onSignal = () => {
    void s.stop().then(() => process.exit(0));
    // Never linger: a stuck connection must not keep the process alive.
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  const exit = await s.done;
  if ('signal' in exit) {
    // SGLang's kill_process_tree: the launcher sees SIGKILL (exit 137).
    process.kill(process.pid, 'SIGKILL');
  }
  return 'code' in exit ? exit.code : 137;
}
