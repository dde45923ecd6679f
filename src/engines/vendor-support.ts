// Which GPU vendors an engine runs on, read from its adapter's `gpuVendors` (data, never the
// engine's name): the planner prunes an engine's variants on a host of a vendor it lacks, and
// `predict` leaves the engine out, each with this one-line reason and its source.
import type { GpuVendor } from '../core/gpu-vendor.js';
import type { Failure } from '../core/events.js';
import { getAdapter } from './index.js';

const VENDOR_LABEL: Readonly<Record<GpuVendor, string>> = { nvidia: 'NVIDIA', amd: 'AMD' };

/** Why `engine` cannot run on `vendor`'s GPUs (absent vendor: NVIDIA), or undefined when it can. */
export function vendorRefusal(engine: string, vendor: GpuVendor | undefined): string | undefined {
  const a = getAdapter(engine);
  const own = a.gpuVendors;
  const v = vendor ?? 'nvidia';
  if (!own || own.vendors.includes(v)) return undefined;
  return `${a.label} does not run on ${VENDOR_LABEL[v]} GPUs: ${own.source}`;
}

/** The planner's prune for an engine on another vendor's host: a classified failure, or undefined. */
export function vendorPrune(engine: string, vendor: GpuVendor | undefined): Failure | undefined {
  const reason = vendorRefusal(engine, vendor);
  if (!reason) return undefined;
  const others = getAdapter(engine)
    .gpuVendors!.vendors.map((x) => VENDOR_LABEL[x])
    .join(' or ');
  return { kind: 'unsupported', reason, hint: `Tune another engine on this host, or run this one on ${others} GPUs.` };
}
