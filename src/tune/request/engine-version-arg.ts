// `servelab --auto --sim --engine-version vllm=0.33.0`: the engine releases the simulated host
// rehearses (commands spelled for them, sim-serve speaking their start-up lines). A real host's
// releases are detected instead (src/engines/kit/detect.ts).
import { UserError } from '../../core/errors.js';
import { ENGINES, type EngineName } from '../../core/variant.js';
import type { SimHostConfig } from '../config/config.js';

/** `--engine-version vllm=0.33.0` (repeatable): the releases the simulated host rehearses. */
export function engineVersions(list: readonly string[] | undefined): Pick<SimHostConfig, 'engineVersions'> {
  if (!list?.length) return {};
  const out: Partial<Record<EngineName, string>> = {};
  for (const item of list) {
    const m = /^(vllm|sglang|trtllm)=v?(\d+(?:\.\d+)+(?:(?:rc|post|\.post|dev)\d+)?)$/.exec(item.trim());
    if (!m)
      throw new UserError(
        `--engine-version wants ENGINE=VERSION with ENGINE one of ${ENGINES.join(', ')}, e.g. vllm=0.33.0; got '${item}'`,
      );
    out[m[1] as EngineName] = m[2]!;
  }
  return { engineVersions: out };
}
