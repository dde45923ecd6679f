// SGLang's cache-stage candidates: the radix cache off (on by default), longest-prefix-match
// admission (the default is fcfs), and the hierarchical cache's host-memory tier (sglang/knobs.ts).
import { SGLANG_TABLE } from './knobs.js';
import { KV_OFFLOAD_GIB, type CacheCandidate, type CacheStageInput, type CacheStageOut } from '../kit/cache-stage-types.js';

export function sglangCacheStage({ knobs, version }: CacheStageInput): CacheStageOut {
  const c: CacheCandidate[] = [];
  const on = knobs.prefixCaching !== false;
  if (on) c.push({ knobs: { prefixCaching: false }, change: 'radix cache off', needs: ['prefixCaching'] });
  const lpm = SGLANG_TABLE.rowAt('schedulePolicy', version)?.candidates ?? [];
  for (const p of lpm)
    if (on && knobs.schedulePolicy !== p) c.push({ knobs: { schedulePolicy: p }, change: `schedule=${p}`, needs: ['schedulePolicy'] });
  if (on && knobs.kvOffloadGiB === undefined)
    c.push({ knobs: { kvOffloadGiB: KV_OFFLOAD_GIB }, change: `hierarchical cache ${KV_OFFLOAD_GIB} GB`, needs: ['kvOffloadGiB'] });
  return {
    candidates: c,
    notes: [
      'schedule=lpm admits the waiting request with the longest cached prefix first; SGLang falls back to fcfs while more than 128 requests wait (schedule_policy.py _determine_active_policy).',
    ],
  };
}
