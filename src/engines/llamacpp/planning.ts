// llama.cpp's own planning, as the planner and the runner ask it (EngineAdapter.planning): its
// stages (stages.ts), its preflight rules (preflight.ts), the GGUF files a session serves and the
// ones llama-quantize makes before their launch (gguf.ts, quantize.ts), and the host condition
// every launch carries (amx.ts hostQuirks: --no-repack where the binary's AMX kernels would run).
import type { EnginePlanning } from '../kit/plan-types.js';
import { amxKernels, amxRepackedType, hostQuirks, NO_REPACK_NOTE } from './amx.js';
import { ggufLabel, sessionGgufs } from './gguf.js';
import { llamacppPreflight } from './preflight.js';
import { ensureGguf } from './quantize.js';
import { LLAMA_ONLY_STAGES, llamaStageCandidates } from './stages.js';

export const LLAMACPP_PLANNING: EnginePlanning = {
  ownStages: LLAMA_ONLY_STAGES,
  stageCandidates: llamaStageCandidates,
  preflight: llamacppPreflight,
  // llama.cpp serves the first GGUF file.
  engineModel: (session) => session.llamacpp?.gguf[0],
  hostKnobs: (session, host) => {
    const knobs = hostQuirks(sessionGgufs(session), amxKernels(host, session.llamacpp?.server));
    return knobs.repack === false ? { knobs, note: NO_REPACK_NOTE } : { knobs };
  },
  prepareModel: async (variant, session, runDir, signal) => {
    const made = await ensureGguf(variant, session.llamacpp, runDir, signal);
    return made.seconds && !made.failure
      ? { ...made, message: `llama-quantize made ${variant.model} in ${made.seconds.toFixed(1)} s` }
      : made;
  },
  servedName: ggufLabel,
  repackedType: (variant, host, session) => amxRepackedType(variant.model, amxKernels(host, session?.llamacpp?.server), variant.knobs),
};
