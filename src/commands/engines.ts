// `servelab engines build llamacpp [--jobs N] [--cpu | --gpu-arch ARCH]`: build llama.cpp's llama-server and llama-quantize
// from the pinned source (src/host/llamacpp-build.ts) into servelab's cache, or reuse an earlier
// build. Progress goes to stderr; the last line on stdout is the llama-server path, so
// `$(servelab engines build llamacpp | tail -1)` is the binary.
import { UserError } from '../core/errors.js';
import { BACKEND_LABEL } from '../host/llamacpp-backend.js';
import { optionalNumberArg } from '../core/number-arg.js';
import { ENGINES, isEngineName } from '../core/variant.js';
import { getAdapter } from '../engines/index.js';
import { ENGINES_USAGE, parseEnginesArgs } from '../cli/engines-args.js';

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseEnginesArgs(argv);
  if (!parsed) return 0;
  const [verb, engine, ...rest] = parsed.positionals;
  if (verb !== 'build' || rest.length) throw new UserError(`engines: ${ENGINES_USAGE.split('\n')[0]}`);
  const buildable = ENGINES.filter((e) => getAdapter(e).build);
  const build = engine && isEngineName(engine) ? getAdapter(engine).build : undefined;
  if (!build) throw new UserError(`engines build: only ${buildable.join(', ')} can be built by servelab, got '${engine ?? ''}'`);
  const jobs = optionalNumberArg('--jobs', parsed.values.jobs, { integer: true, min: 1 });
  const { cpu, 'gpu-arch': gpuArch } = parsed.values;
  if (cpu && gpuArch) throw new UserError('engines build: --cpu and --gpu-arch exclude each other: give one');
  const log = (l: string) => process.stderr.write(`servelab: ${l}\n`);
  const r = await build({ log, ...(jobs ? { jobs } : {}), ...(cpu ? { cpu } : {}), ...(gpuArch ? { gpuArch } : {}) });
  const on = BACKEND_LABEL[r.backend];
  if (!r.reused) process.stderr.write(`servelab: built for ${on} in ${r.seconds} s; llama-quantize: ${r.quantize}\n`);
  else process.stderr.write(`servelab: backend: ${on}\n`);
  process.stdout.write(`${r.server}\n`);
  return 0;
}
