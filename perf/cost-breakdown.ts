// Where a session's GPU-hours went, stage by stage, read from its run folder's journal (one file
// per launch, src/tune/context/journal.ts): launches, reruns (adaptive repeats: repeat index > 0),
// launches stopped early, and their GPU time, startup and benchmark apart. Variant GPU time only:
// the host's idle GPUs (waves not full) are in the session total, not here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JournalEntry } from '../src/tune/context/journal.js';

export interface StageCost {
  stage: string;
  launches: number;
  reruns: number;
  stoppedEarly: number;
  startupGpuS: number;
  benchmarkGpuS: number;
  /** GPU time of the reruns alone (startup + benchmark). */
  rerunGpuS: number;
  /** GPU time of the launches stopped early (what they cost before the stop). */
  stoppedGpuS: number;
  /** Each stop's status line ("stopped early: X% below the leader at N/M requests"), with the variant. */
  stops: string[];
}

/** Every journal entry of the run folders under `runsDir` (one session per folder). */
export function journalEntries(runsDir: string): JournalEntry[] {
  if (!existsSync(runsDir)) return [];
  const out: JournalEntry[] = [];
  for (const run of readdirSync(runsDir)) {
    const dir = path.join(runsDir, run, 'results');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.json')))
      out.push(JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as JournalEntry);
  }
  return out.sort((a, b) => a.seq - b.seq);
}

export function stageCosts(entries: readonly JournalEntry[]): StageCost[] {
  const by = new Map<string, StageCost>();
  for (const e of entries) {
    const t = e.result.gpuTime;
    if (!t) continue; // not a launch of this session (no GPU time)
    const stage = e.role === 'validate' ? 'validation' : e.result.stage;
    const s = by.get(stage) ?? {
      stage,
      launches: 0,
      reruns: 0,
      stoppedEarly: 0,
      startupGpuS: 0,
      benchmarkGpuS: 0,
      rerunGpuS: 0,
      stoppedGpuS: 0,
      stops: [],
    };
    s.launches++;
    s.startupGpuS += t.startupGpuS;
    s.benchmarkGpuS += t.benchmarkGpuS;
    if (e.repeat > 0 && e.role === 'tune') {
      s.reruns++;
      s.rerunGpuS += t.gpuS;
    }
    if (e.result.failure?.reason.startsWith('stopped early')) {
      s.stoppedEarly++;
      s.stoppedGpuS += t.gpuS;
      s.stops.push(`${e.result.variantId}: ${e.result.failure.reason}`);
    }
    by.set(stage, s);
  }
  return [...by.values()];
}

const gh = (s: number) => (s / 3600).toFixed(2);

export function stageCostTable(title: string, costs: readonly StageCost[]): string {
  const lines = [
    `${title}`,
    '| stage | launches | reruns | stopped early | startup GPU-h | benchmark GPU-h | of which reruns | of which stopped |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const sum: StageCost = {
    stage: 'all',
    launches: 0,
    reruns: 0,
    stoppedEarly: 0,
    startupGpuS: 0,
    benchmarkGpuS: 0,
    rerunGpuS: 0,
    stoppedGpuS: 0,
    stops: [],
  };
  for (const c of [...costs, sum]) {
    if (c !== sum)
      for (const k of ['launches', 'reruns', 'stoppedEarly', 'startupGpuS', 'benchmarkGpuS', 'rerunGpuS', 'stoppedGpuS'] as const)
        sum[k] += c[k];
    lines.push(
      `| ${c.stage} | ${c.launches} | ${c.reruns} | ${c.stoppedEarly} | ${gh(c.startupGpuS)} | ${gh(c.benchmarkGpuS)} | ${gh(c.rerunGpuS)} | ${gh(c.stoppedGpuS)} |`,
    );
  }
  for (const c of costs) for (const x of c.stops) lines.push(`- ${c.stage}, ${x}`);
  return lines.join('\n');
}
