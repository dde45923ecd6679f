// The host calibration goal (docs/calibration.md) through the real session path: for each simulated host of
// test/fixtures/truth, run `servelab --auto --sim --truth FILE` (sim-serve on the wall clock, the
// real benchmark client), and from its events take every measured variant whose calibrated
// prediction was made on 4 or more earlier measurements: median |throughput error| of that
// calibrated prediction against the plan's prior one, on the same variants. Prints figures,
// asserts nothing. Run: npx tsx model-lab/calibration-session.ts [--scale S] (default 0.05).
// Log: model-lab/calibration-session.txt.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TuneEvent, VariantResult } from '../src/core/events.js';
import { median } from '../src/core/stats.js';

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const TRUTH_DIR = fileURLToPath(new URL('../test/fixtures/truth/', import.meta.url));
const at = process.argv.indexOf('--scale');
const scale = at > 0 ? process.argv[at + 1]! : '0.05';
const AFTER = 4;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function session(truth: string, port: number): VariantResult[] {
  const dir = mkdtempSync(join(tmpdir(), 'servelab-calsession-'));
  try {
    const args = [
      '--auto',
      '--sim',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'vllm,sglang,trtllm',
      '--stages',
      'engine,quantization,batching,attention',
      '--scale',
      scale,
      '--validation',
      'none',
      '--truth',
      truth,
      '--json',
      '--port',
      String(port),
      '--out',
      dir,
      '--runs-dir',
      join(dir, 'runs'),
    ];
    const r = spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, SERVELAB_CONFIG_DIR: join(dir, '.config') },
    });
    if (r.status !== 0) throw new Error(`session on ${truth} exited ${r.status}: ${r.stderr.slice(-2000)}`);
    const events = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as TuneEvent);
    return events.flatMap((e) =>
      e.type === 'variant-finished' && e.result.status === 'ok' && e.result.metrics && e.result.predicted && e.result.calibrated
        ? [e.result]
        : [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `# calibration goal through --auto --sim --truth: Qwen3-14B on simulated 1 x H100, stages engine,quantization,batching,attention, --scale ${scale}, wall clock (sim-serve + the benchmark client), variants calibrated on >= ${AFTER} earlier measurements`,
);
const rows: { file: string; n: number; prior: number; cal: number }[] = [];
readdirSync(TRUTH_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .forEach((file, i) => {
    const results = session(join(TRUTH_DIR, file), 21000 + i * 100);
    const later = results.filter((r) => r.calibrated!.observations >= AFTER);
    const err = (v: number, r: VariantResult) => Math.abs(v / r.metrics!.total_token_throughput - 1);
    const prior = median(later.map((r) => err(r.predicted!.totalTokPerS, r)));
    const cal = median(later.map((r) => err(r.calibrated!.totalTokPerS, r)));
    console.log(`\n## ${file}: ${results.length} measured variants, ${later.length} calibrated on >= ${AFTER}`);
    for (const r of results)
      console.log(
        `  ${r.variantId.padEnd(28)} measured ${r.metrics!.total_token_throughput.toFixed(0).padStart(6)}  prior ${pct(r.predicted!.totalTokPerS / r.metrics!.total_token_throughput - 1).padStart(7)}  calibrated ${pct(r.calibrated!.totalTokPerS / r.metrics!.total_token_throughput - 1).padStart(7)} +-${Math.round(r.calibrated!.bandPct)}% (on ${r.calibrated!.observations})`,
      );
    console.log(`  median |throughput error| on those ${later.length}: uncalibrated ${pct(prior)}, calibrated ${pct(cal)}`);
    rows.push({ file, n: later.length, prior, cal });
  });
console.log(
  `\nper host (uncalibrated -> calibrated): ${rows.map((r) => `${r.file} ${pct(r.prior)} -> ${pct(r.cal)} (${r.n} variants)`).join('; ')}`,
);
console.log(`goal <= 8% calibrated on every host: ${rows.every((r) => r.cal <= 0.08) ? 'met' : 'not met'}`);
