// `export --format slurm`: a profile's winning server as an sbatch script. The recorded argv
// becomes each rank's command through the engine's own multi-node launch (src/host/slurm/
// engine-ranks.ts); the allocation is written as #SBATCH lines; every value that reaches the
// shell is quoted. The same renderer makes the script `--runtime slurm` submits.
import { engineRanks } from '../../engines/ranks.js';
import { cpuTaskCpus, renderBatchScript, type NodeLayout, type Word } from '../../host/slurm/index.js';
import { shellQuote } from '../../core/shell-quote.js';
import { gpusHeld } from '../../model/layout.js';
import { relocateFiles } from '../store/files.js';
import type { Profile } from '../schema/profile.js';
import { engineVersionText } from '../report/engine-version.js';

export interface SlurmExportOptions {
  /** Nodes; default the profile's host.nodes when it records one, else 1. */
  nodes?: number;
  /** GPUs per node; default what the variant uses (tp x pp x dp) spread over the nodes. */
  gpusPerNode?: number;
  partition?: string;
  account?: string;
  time?: string;
  exclusive?: boolean;
  /** Verbatim sbatch options (--slurm-arg). */
  extra?: string[];
  /** Address the head's server binds; default 0.0.0.0 so the login node can reach it. */
  bindHost?: string;
}

/** Rendezvous ports as the engines' own multi-node docs write them (SGLang 20000, vLLM 13345). */
const DIST_PORT = { sglang: 20000, vllm: 13345, trtllm: 0, llamacpp: 0 } as const;
const FILES_VAR = 'SERVELAB_FILES_DIR';
const MARK = '@@SERVELAB_FILES@@';
const HEREDOC_END = 'SERVELAB_EOF';

function recordedNodes(p: Profile): number | undefined {
  const host: object = p.host;
  const n = 'nodes' in host ? host.nodes : undefined;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

/** argv words, with a relocated file path turned into "$SERVELAB_FILES_DIR"/name. */
function fileWords(argv: readonly string[]): Word[] {
  return argv.map((a) => {
    const at = a.indexOf(`${MARK}/`);
    if (at < 0) return a;
    return { env: FILES_VAR, ...(at > 0 ? { prefix: a.slice(0, at) } : {}), suffix: a.slice(at + MARK.length) };
  });
}

/** Lines that write the profile's files into a folder every node can read. */
function filesPreamble(p: Profile, name: string): string[] {
  if (!p.files.length) return [];
  const lines = [`export ${FILES_VAR}="\${${FILES_VAR}:-$HOME/.config/servelab/${name}}"`, `mkdir -p "$${FILES_VAR}"`];
  for (const f of p.files) {
    if (f.content.split('\n').includes(HEREDOC_END))
      throw new Error(`profile file ${f.path} contains a line '${HEREDOC_END}'; it cannot be written by a here-document`);
    lines.push(
      `cat > "$${FILES_VAR}"/${shellQuote(f.path.split('/').pop()!)} <<'${HEREDOC_END}'`,
      f.content.replace(/\n$/, ''),
      HEREDOC_END,
    );
  }
  return lines;
}

function jobName(p: Profile): string {
  const base = `${p.variant.model.split('/').pop() ?? 'model'}-${p.engine.name}`;
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9_.+-]+/g, '-')
      .slice(0, 60) || 'servelab'
  );
}

export function slurmScript(p: Profile, file = 'profile', opts: SlurmExportOptions = {}): string {
  const nodes = opts.nodes ?? recordedNodes(p) ?? 1;
  const k = p.variant.knobs;
  // A profile tuned on the CPU (llama.cpp, gpuCount 0) exports a CPU job: no gres, its threads' CPUs.
  const cpu = p.host.gpuCount === 0 && p.host.cpuThreads ? cpuTaskCpus(k, p.host.cpuThreads) : undefined;
  const gpus = cpu !== undefined ? 0 : gpusHeld(p.engine.name, k);
  const gpusPerNode = opts.gpusPerNode ?? Math.ceil(gpus / nodes);
  const layout: NodeLayout = {
    nodes,
    gpusPerNode,
    distPort: DIST_PORT[p.engine.name],
    ...(opts.bindHost ? { bindHost: opts.bindHost } : {}),
  };
  const { argv } = relocateFiles(p.engineArgv, p.files, MARK);
  const { ranks, tasksPerNode } = engineRanks(p.engine.name, argv, k, layout);
  const words = (ws: Word[]) => ws.flatMap((w) => (typeof w === 'string' ? fileWords([w]) : [w]));
  const name = jobName(p);
  return renderBatchScript({
    request: {
      nodes,
      gpusPerNode,
      tasksPerNode,
      ...(cpu !== undefined && !gpusPerNode ? { cpusPerTask: cpu } : {}),
      jobName: name,
      output: `${name}-%j.out`,
      ...(opts.exclusive ? { exclusive: true } : {}),
      ...(opts.partition ? { partition: opts.partition } : {}),
      ...(opts.account ? { account: opts.account } : {}),
      ...(opts.time ? { time: opts.time } : {}),
      ...(opts.extra ? { extra: opts.extra } : {}),
    },
    directives: true,
    comments: [
      `servelab export of ${file}: ${p.model}, ${p.engine.name} ${engineVersionText(p)}, ${nodes} node(s) x ${cpu !== undefined && !gpusPerNode ? `${cpu} CPU(s), no GPU` : `${gpusPerNode} GPU(s)`}`,
      `recorded ${p.metrics.total_token_throughput.toFixed(2)} total tok/s on ${p.host.gpuCount ? `${p.host.gpuCount}x ${p.host.gpuName}` : `a CPU host (${p.host.cpuThreads ?? '?'} threads)`}${p.host.simulated ? ' (simulated host)' : ''}`,
      'Submit with `sbatch THIS_FILE`; the server listens on the first node (see the job output).',
    ],
    env: p.env,
    preamble: filesPreamble(p, name),
    ranks: { ...ranks, head: words(ranks.head), ...(ranks.worker ? { worker: words(ranks.worker) } : {}) },
  });
}
