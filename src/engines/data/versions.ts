// The engine releases servelab has a knob table for, and how an installed version is matched to
// one. A table is named by the release whose source it was read from (see docs/engines.md for
// the files and commits). An installed version that is not one of them uses the nearest known
// table, and the resolution says so (`exact: false` plus a note), so a plan never silently
// spells flags for a release nobody checked.
import type { EngineName } from '../../core/variant.js';

export interface KnownVersion {
  version: string;
  /** Where the facts for this release were read. */
  source: string;
  /**
   * Set when some of the table's facts could not be read at this very release (no stored source
   * or versioned page for it): what they were read at instead. Such a table is used, and the
   * installed engine's own help is checked before launching (src/engines/kit/help-check.ts).
   */
  readAt?: string;
}

/** Oldest first. The first entry is the default when no version is known (simulated host). */
export const KNOWN_VERSIONS: Readonly<Record<EngineName, readonly KnownVersion[]>> = {
  vllm: [
    { version: '0.11.0', source: 'vLLM v0.11.0 (commit b8b302cde): vllm/engine/arg_utils.py, docs.vllm.ai/en/v0.11.0 config pages' },
    { version: '0.11.1', source: 'vllm/engine/arg_utils.py@99d7eb5d (≈0.11.1), vllm/config/compilation.py@ee525ce4, vllm/envs.py' },
    {
      version: '0.20.1',
      source:
        'vllm/engine/arg_utils.py as published on docs.vllm.ai/en/latest/api/vllm/ (fetched 2026-05-07); docs.vllm.ai/en/v0.20.1 design/attention_backends; v0.19.0/v0.19.1 config pages',
      readAt:
        'the 2026-05-07 latest API page (its release is not stated; v0.20.1-v0.22.1 by date) and the v0.19.0, v0.19.1 and v0.20.1 pages',
    },
    {
      version: '0.33.0',
      source:
        'the 0.20.1 facts, checked against docs.vllm.ai/en/v0.31.0/cli (vllm serve --help=all, human-readable integers) and v0.32.0 design/attention_backends',
      readAt: 'v0.31.0 and v0.32.0 pages and the 2026-05 source: no 0.33.0 source or page is stored',
    },
  ],
  sglang: [
    {
      version: '0.5.5',
      source:
        'python/sglang/srt/server_args.py, 0.5.4/0.5.5-era stored copy (store id 8356329; the same facts in the ≥0.5.7 copy, id 271536807)',
    },
    {
      version: '0.5.13',
      source:
        'python/sglang/srt/server_args.py and arg_groups/speculative_hook.py at commit 28b095c0 (the v0.5.13 tag: a "[Cherry-pick to release/v0.5.13]" commit of 2026-06-10, named the tag commit by a third-party pin list, store id 54739381009; read in the modal-projects/sglang git snapshot, which holds it)',
    },
    {
      version: '0.5.23',
      source:
        'the 0.5.13 facts carried forward, each flag also in server_args.py at the v0.5.15 tag (f63458b5, same snapshot and pin list; --disable-cuda-graph is deprecated there); `python -m sglang.launch_server` still starts the server in 2026 ("still supported, but \'sglang serve\' is the recommended entrypoint", server log of 2026-03-07 on huggingface.co/FasterDFlash/Hanrui)',
      readAt: 'the v0.5.13 and v0.5.15 tags: no 0.5.16+ source is stored',
    },
  ],
  trtllm: [
    { version: '1.2.0rc1', source: 'tensorrt_llm/commands/serve.py@4c05a748, tensorrt_llm/llmapi/llm_args.py (≈1.1/1.2 stored copy)' },
    {
      version: '1.2.1',
      source:
        'tensorrt_llm/commands/serve.py@4c05a748 and @00209af1 (the copies on either side; every flag servelab emits is in both), tensorrt_llm/llmapi/llm_args.py (≈1.2 stored copy)',
      readAt: 'serve.py@4c05a748 / @00209af1 and the ≈1.2 llm_args.py: no 1.2.1 tag copy is stored',
    },
    {
      version: '1.3.0rc27',
      source:
        'nvidia.github.io/TensorRT-LLM/1.3.0rc27/llm-api/reference/Eagle3DecodingConfig.html; later llm_args.py stored copy (Eagle3DecodingConfig)',
    },
  ],
  // `llama-server --version` of this build: "version: 0.4.0-dev (build 1, commit 80fb11a)".
  llamacpp: [
    {
      version: '0.4.0-dev',
      source: 'llama.cpp commit 80fb11a (node-llama-cpp 3.21.1 llama/gitRelease.bundle): tools/server/README.md, common/arg.cpp',
    },
  ],
};

export const DEFAULT_VERSION: Readonly<Record<EngineName, string>> = {
  vllm: KNOWN_VERSIONS.vllm[0]!.version,
  sglang: KNOWN_VERSIONS.sglang[0]!.version,
  trtllm: KNOWN_VERSIONS.trtllm[0]!.version,
  llamacpp: KNOWN_VERSIONS.llamacpp[0]!.version,
};

/** "0.11.1.post2" -> [0, 11, 1, 2]; "1.2.0rc1" -> [1, 2, 0, -1, 1] (an rc sorts before its release). */
export function versionKey(v: string): number[] {
  const m = /^v?(\d+(?:\.\d+)*)(?:[.-]?(rc|post|dev|a|b)(\d+))?/.exec(v.trim());
  if (!m) return [];
  const nums = m[1]!.split('.').map(Number);
  while (nums.length < 3) nums.push(0);
  if (m[2] === 'post') nums.push(1, Number(m[3]));
  else if (m[2]) nums.push(-1, Number(m[3]));
  else nums.push(0, 0);
  return nums;
}

export function compareVersions(a: string, b: string): number {
  const ka = versionKey(a);
  const kb = versionKey(b);
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    const d = (ka[i] ?? 0) - (kb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export interface ResolvedVersion {
  engine: EngineName;
  /** What was asked for (undefined: nothing detected). */
  asked?: string;
  /** The known table used. */
  table: string;
  exact: boolean;
  /** Set when the table is not the asked version: say which one is used and why. */
  note?: string;
}

/**
 * The knob table for an installed version: the newest known release not newer than it (the
 * flags it has are the ones most likely still there), or the oldest known one when it is older
 * than all of them. `+cu128`-style local suffixes and a leading `v` are ignored.
 */
export function resolveVersion(engine: EngineName, asked?: string): ResolvedVersion {
  const known = KNOWN_VERSIONS[engine];
  const clean = asked?.trim().replace(/\+.*$/, '');
  if (!clean || versionKey(clean).length === 0) {
    const table = DEFAULT_VERSION[engine];
    const note =
      clean && !/^(simulated|sim)$/.test(clean)
        ? `${engine} version '${asked}' is not a release number: commands use the table for ${table}`
        : undefined;
    return { engine, ...(asked ? { asked } : {}), table, exact: false, ...(note ? { note } : {}) };
  }
  const hit = known.find((k) => compareVersions(k.version, clean) === 0);
  if (hit) return { engine, asked, table: hit.version, exact: true };
  const below = known.filter((k) => compareVersions(k.version, clean) < 0).at(-1);
  const table = (below ?? known[0]!).version;
  const why = below ? `the nearest older release servelab has read` : `older than every release servelab has read`;
  return {
    engine,
    asked,
    table,
    exact: false,
    note: `${engine} ${asked} has no knob table of its own: commands use the table for ${table} (${why}); check \`--help\` of the installed version`,
  };
}
