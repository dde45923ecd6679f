// Engine versions in the model. Each engine's efficiency entry describes the release servelab
// targets; older releases differ where the engine changed a default that the model represents
// (overlap scheduling). Every override names its source; a version the table knows nothing
// about is modelled as the target release (and `versionNote` says so).
import type { EngineName, GpuEngineName } from '../core/variant.js';
import type { EngineEfficiency } from './efficiency.js';

/** The releases the efficiency table describes (read from vLLM v0.11.0, SGLang 0.5.x and TRT-LLM 1.x sources: see efficiency.ts). */
export const TARGET_VERSIONS: Record<GpuEngineName, string> = { vllm: '0.11.0', sglang: '0.5.5', trtllm: '1.2.0' };

interface VersionOverride {
  engine: EngineName;
  /** Applies to versions strictly below this one. */
  below?: string;
  /** Applies to this version and later ones. */
  since?: string;
  change: Partial<EngineEfficiency>;
  why: string;
  source: string;
}

const OVERRIDES: VersionOverride[] = [
  {
    engine: 'sglang',
    below: '0.4.0',
    // Before v0.4 the scheduler ran between GPU steps (the overlap scheduler of v0.3.4.post1, #1738, was opt-in).
    change: { overlap: false },
    why: 'no overlap scheduler by default before v0.4',
    source: 'https://lmsys.org/blog/2024-12-04-sglang-v0-4/ (zero-overhead batch scheduler); sglang releases v0.3.4.post1 (#1738)',
  },
  {
    engine: 'vllm',
    // 0.9 up to the 0.11 sources servelab read (efficiency.ts); 0.92 in the earliest later release
    // whose source was found. Between the two (0.20.x) no cache.py was found, so 0.20.1 keeps 0.9.
    since: '0.25.0',
    change: { defaultMemFraction: () => 0.92 },
    why: '--gpu-memory-utilization defaults to 0.92 of total memory',
    source:
      'vllm/config/cache.py CacheConfig `gpu_memory_utilization: float = Field(default=0.92, gt=0, le=1)` at v0.25.0 and v0.30.0 (vllm-project/vllm blob v0.30.0 vllm/config/cache.py#L103)',
  },
];

function applies(o: VersionOverride, engine: EngineName, version: string): boolean {
  if (o.engine !== engine) return false;
  if (o.below && compareVersions(version, o.below) >= 0) return false;
  return !o.since || compareVersions(version, o.since) >= 0;
}

/** Numeric parts of a release string ('0.5.5.post1' -> [0, 5, 5]); null when it has none. */
export function parseVersion(v: string): number[] | null {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a) ?? [0, 0, 0];
  const y = parseVersion(b) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** The efficiency entry for an engine release: the target's, with the overrides that apply. */
export function efficiencyForVersion(engine: EngineName, base: EngineEfficiency, version?: string): EngineEfficiency {
  if (!version) return base;
  let eff = base;
  for (const o of OVERRIDES) if (applies(o, engine, version)) eff = { ...eff, ...o.change };
  return eff;
}

/** The overrides that apply to a release, for reports ("SGLang 0.3.6: no overlap scheduler ..."). */
export function versionChanges(engine: EngineName, version?: string): { why: string; source: string }[] {
  if (!version) return [];
  return OVERRIDES.filter((o) => applies(o, engine, version)).map(({ why, source }) => ({ why, source }));
}
