// `--capacity RULES`, `--capacity-by`, `--capacity-resolution` and `--capacity-max` of `servelab
// --auto`, checked when the flags are read with `servelab capacity`'s own rules
// (src/capacity: the SLO a sample can judge, the resolution's shape): bad input is exit 2 before
// anything is planned. Absent when --capacity is not given, so the config and plan stay as before.
import { UserError } from '../../core/errors.js';
import { formatSlo } from '../../core/slo.js';
import { parseSlo } from '../../core/slo-rule.js';
import { checkCapacitySlo } from '../../capacity/judge.js';
import { parseResolution } from '../../capacity/search.js';
import type { CapacityConfig } from '../config/capacity-config.js';
import { optionalNumberArg } from '../../core/number-arg.js';

export const CAPACITY_FLAGS = ['capacity-by', 'capacity-resolution', 'capacity-max'] as const;

export function capacityFlags(values: Record<string, unknown>): { capacity?: CapacityConfig } {
  const str = (k: string) => values[k] as string | undefined;
  const text = str('capacity');
  if (text === undefined) {
    for (const f of CAPACITY_FLAGS)
      if (str(f) !== undefined) throw new UserError(`--${f} needs --capacity RULES (e.g. --capacity 'ttft:p99<2000')`);
    return {};
  }
  const slo = parseSlo(text, '--capacity');
  checkCapacitySlo(slo);
  const by = str('capacity-by') ?? 'concurrency';
  if (by !== 'concurrency' && by !== 'rate') throw new UserError(`--capacity-by must be concurrency or rate, got '${by}'`);
  const resolution = str('capacity-resolution') ?? '10%';
  try {
    parseResolution(resolution);
  } catch (e) {
    throw new UserError((e as Error).message.replace('--resolution', '--capacity-resolution'));
  }
  const max = optionalNumberArg(
    '--capacity-max',
    str('capacity-max'),
    by === 'concurrency' ? { integer: true, min: 1, max: 65536 } : { min: 0.001, max: 1e6 },
  );
  return { capacity: { slo: formatSlo(slo), by, resolution, max: max ?? (by === 'concurrency' ? 4096 : 1024) } };
}
