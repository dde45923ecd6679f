// `servelab gpus [--json] [--sim] [--gpu NAME] [--gpus N] [--yes]`: what GPUs this host has
// (the host model: nvidia-smi, amd-smi or rocm-smi), or the simulated host when asked for or when
// there is no GPU (said on stderr); what holds each GPU's memory; and servers a dead servelab left
// running (from the ledger), which `--yes` stops.
import { optionalNumberArg } from '../core/number-arg.js';
import { gpuHolders, type GpuHolder } from '../host/gpu-holders.js';
import type { HostInfo } from '../host/gpus.js';
import { detectHost } from '../host/gpu-detect.js';
import { readLedger } from '../host/ledger.js';
import { describeLeftover, findLeftovers, stopLeftover, type Leftover } from '../host/leftovers.js';
import { parseGpusArgs } from '../cli/gpus-args.js';

function table(host: HostInfo): string {
  const rows = host.gpus.map((g) => {
    const mem = g.memUsedMiB === undefined ? `? / ${g.memTotalMiB} MiB` : `${g.memUsedMiB} / ${g.memTotalMiB} MiB`;
    const util = g.utilPct === undefined ? 'n/a' : `${g.utilPct}%`;
    // NVIDIA parts by compute capability, AMD parts by graphics target (gfx942).
    const kind = g.arch ?? `cc ${(g.computeCap ?? '?').padEnd(5)}`;
    const power = g.powerW === undefined ? '' : ` ${g.powerW} W`;
    return `  ${String(g.index).padEnd(3)} ${g.name.padEnd(28)} ${kind.padEnd(8)} ${mem.padEnd(22)} util ${util}${power}`;
  });
  const head = host.simulated ? `${host.gpus.length} simulated GPU(s)` : `${host.gpus.length} GPU(s), driver ${host.driverVersion ?? '?'}`;
  return [head, ...rows].join('\n');
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseGpusArgs(argv);
  if (!parsed) return 0;
  const { values } = parsed;
  const gpus = optionalNumberArg('--gpus', values.gpus, { integer: true, min: 0 });
  const host = await detectHost({ sim: values.sim, gpu: values.gpu, gpus });
  const holders = await gpuHolders(host.simulated, host.gpus, readLedger());
  const { leftovers, actions } = await leftoverReport(values.yes === true);
  if (values.json) {
    const json = { ...host, memoryHolders: holders, leftovers: leftovers.map((l) => ({ state: l.state, ...l.entry })), actions };
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
  } else {
    if (host.note) process.stderr.write(`servelab: ${host.note}\n`);
    process.stdout.write(table(host) + '\n' + holderLines(holders) + leftoverLines(leftovers, actions, values.yes === true));
  }
  return 0;
}

/** Leftovers as found; with --yes each running one is stopped. Entries of exited servers are dropped either way. */
async function leftoverReport(yes: boolean): Promise<{ leftovers: Leftover[]; actions: string[] }> {
  const leftovers = findLeftovers();
  const actions: string[] = [];
  for (const l of leftovers) if (yes || l.state !== 'running') actions.push(await stopLeftover(l));
  return { leftovers, actions };
}

function holderLines(holders: GpuHolder[]): string {
  if (!holders.length) return 'GPU memory: held by no process\n';
  const rows = holders.map((h) => {
    const who = h.servelab ? ` [servelab server, owner pid ${h.servelab.ownerPid}${h.servelab.ownerAlive ? '' : ' GONE'}]` : '';
    return `  GPU ${h.gpu}: pid ${h.pid} ${h.usedMiB ?? '?'} MiB${who} ${h.command}`;
  });
  return ['GPU memory held by:', ...rows].join('\n') + '\n';
}

function leftoverLines(leftovers: Leftover[], actions: string[], yes: boolean): string {
  const running = leftovers.filter((l) => l.state === 'running');
  const out = [
    running.length ? `${running.length} server(s) left running by a servelab that is gone:` : 'no servers left running by servelab',
  ];
  for (const l of running) out.push(`  ${describeLeftover(l)}`);
  if (running.length && !yes) out.push('  run `servelab gpus --yes` to stop them');
  for (const a of actions) out.push(`  ${a}`);
  return out.join('\n') + '\n';
}
