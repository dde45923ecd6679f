// `servelab gpus [--json] [--sim] [--gpu NAME] [--gpus N]`: what GPUs this host has (nvidia-smi),
// or the simulated host when asked for or when there is no NVIDIA GPU (said on stderr).
import { UserError } from '../core/errors.js';
import { detectHost, type HostInfo } from '../host/gpus.js';
import { parseCommandArgs } from './args.js';

const USAGE = 'usage: servelab gpus [--json] [--sim] [--gpu NAME] [--gpus N]';

function table(host: HostInfo): string {
  const rows = host.gpus.map((g) => {
    const mem = g.memUsedMiB === undefined ? `? / ${g.memTotalMiB} MiB` : `${g.memUsedMiB} / ${g.memTotalMiB} MiB`;
    const util = g.utilPct === undefined ? 'n/a' : `${g.utilPct}%`;
    return `  ${String(g.index).padEnd(3)} ${g.name.padEnd(28)} cc ${(g.computeCap ?? '?').padEnd(5)} ${mem.padEnd(22)} util ${util}`;
  });
  const head = host.simulated ? `${host.gpus.length} simulated GPU(s)` : `${host.gpus.length} GPU(s), driver ${host.driverVersion ?? '?'}`;
  return [head, ...rows].join('\n');
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs(argv, {
    json: { type: 'boolean' },
    sim: { type: 'boolean' },
    gpu: { type: 'string' },
    gpus: { type: 'string' },
  }, USAGE);
  if (!parsed) return 0;
  const { values } = parsed;
  const gpus = values.gpus === undefined ? undefined : Number(values.gpus);
  if (gpus !== undefined && !/^\d+$/.test(values.gpus!)) throw new UserError(`--gpus must be a whole number, got '${values.gpus}'`);
  const host = await detectHost({ sim: values.sim, gpu: values.gpu, gpus });
  if (values.json) {
    process.stdout.write(JSON.stringify(host, null, 2) + '\n');
  } else {
    if (host.note) process.stderr.write(`servelab: ${host.note}\n`);
    process.stdout.write(table(host) + '\n');
  }
  return 0;
}
