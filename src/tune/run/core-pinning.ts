// A run on a CPU host keeps the server and the benchmark client on disjoint cores when the host
// has cores to spare (src/host/core-split.ts), and says once per session when it has none. The
// client is servelab itself: its affinity is restored when the run ends, so the next server it
// launches may use every core again.
import type { Variant } from '../../core/variant.js';
import { allowedCpus, cpuListText, pinProcess, splitCores } from '../../host/core-split.js';
import { withDescendants } from '../../host/host-load.js';
import type { RunVariantContext } from './contract/types.js';

/** Sessions (by their port set, else their config) already told that the host has no core to spare. */
const told = new WeakSet<object>();

export interface CorePinning {
  /** "server 0-2, client 3" (and a threads knob that does not fit), or undefined when not pinned. */
  text?: string;
  release(): void;
}

const NONE: CorePinning = { release: () => undefined };

export function pinServerAndClient(variant: Variant, serverPid: number | undefined, ctx: RunVariantContext): CorePinning {
  if (ctx.host.simulated || ctx.host.gpus.length > 0 || !serverPid) return NONE;
  const all = allowedCpus();
  if (!all.length) return NONE;
  const split = splitCores(all);
  if ('none' in split) {
    const session = ctx.usedPorts ?? ctx.config;
    if (!told.has(session)) {
      told.add(session);
      ctx.emit({ type: 'warning', message: split.none });
    }
    return NONE;
  }
  const err =
    withDescendants([serverPid])
      .map((pid) => pinProcess(pid, split.server))
      .find(Boolean) ?? pinProcess(process.pid, split.client);
  if (err) {
    pinProcess(process.pid, all);
    ctx.emit({
      type: 'warning',
      message: `could not keep the server and the client on separate cores (${err}): they share the host's cores`,
    });
    return NONE;
  }
  const threads = variant.knobs.threads;
  const fit =
    threads !== undefined && threads > split.server.length
      ? ` (threads ${threads} > its ${split.server.length} cores: they take turns)`
      : '';
  return {
    text: `server ${cpuListText(split.server)}${fit}, client ${cpuListText(split.client)}`,
    release: () => void pinProcess(process.pid, all),
  };
}
