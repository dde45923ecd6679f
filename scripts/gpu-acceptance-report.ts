// What scripts/gpu-acceptance.sh prints after its session: the host servelab detected (the plan's
// host and the llama-server's own --list-devices), each variant's figures, the GPU memory held while
// it ran (peak of the session's GPU samples, all GPUs together, less what was held before it
// started) and the layers it offloaded (llama-server logs "offloaded %d/%d layers to GPU",
// src/llama-model.cpp at 80fb11a).
//   npx tsx scripts/gpu-acceptance-report.ts EVENTS.jsonl LLAMA_SERVER [IDLE_MIB]
// EVENTS.jsonl is the session's `--json` stdout (server logs included).
import fs from 'node:fs';
import type { TuneEvent, VariantResult } from '../src/core/events.js';
import { listDevices, devicesText } from '../src/engines/llamacpp/devices.js';

interface Row {
  id: string;
  stage: string;
  label: string;
  peakMiB?: number;
  offloaded?: string;
  result?: VariantResult;
}

const [file, server, idleArg] = process.argv.slice(2);
if (!file || !server) {
  process.stderr.write('usage: npx tsx scripts/gpu-acceptance-report.ts EVENTS.jsonl LLAMA_SERVER [IDLE_MIB]\n');
  process.exit(2);
}
const idle = Number(idleArg ?? 0);
const events = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('{'))
  .map((l) => JSON.parse(l) as TuneEvent);

const rows = new Map<string, Row>();
let current: Row | undefined;
for (const e of events) {
  if (e.type === 'plan-ready') {
    const h = e.plan.host;
    process.stdout.write(
      `host (servelab): ${h.gpuCount} x ${h.gpuName}, ${h.gpuMemMiB} MiB each, cc ${h.computeCap ?? '?'}, driver ${h.driver ?? '?'}\n`,
    );
  } else if (e.type === 'variant-launching') {
    current = rows.get(e.variantId) ?? { id: e.variantId, stage: e.stage, label: e.label ?? e.variantId };
    rows.set(e.variantId, current);
  } else if (e.type === 'gpu-sample' && current) {
    const used = e.gpus.reduce((a, g) => a + g.memUsedMiB, 0) - idle;
    current.peakMiB = Math.max(current.peakMiB ?? 0, used);
  } else if (e.type === 'server-log') {
    const m = /offloaded (\d+\/\d+) layers to GPU/.exec(e.line);
    const row = rows.get(e.variantId);
    if (m && row) row.offloaded = m[1];
  } else if (e.type === 'variant-finished') {
    const row = rows.get(e.result.variantId) ?? { id: e.result.variantId, stage: e.result.stage, label: e.result.variantId };
    row.result ??= e.result;
    rows.set(row.id, row);
    current = undefined;
  }
}

const devices = await listDevices(server);
process.stdout.write(`llama-server: ${server}\n  ${devices ? devicesText(devices) : 'did not answer --list-devices'}\n`);
process.stdout.write('variants:\n');
for (const r of rows.values()) {
  const m = r.result?.metrics;
  const figures = m
    ? `output ${m.output_throughput.toFixed(1)} tok/s, total ${m.total_token_throughput.toFixed(1)} tok/s, TTFT ${Number(m.mean_ttft_ms ?? NaN).toFixed(1)} ms, TPOT ${Number(m.mean_tpot_ms ?? NaN).toFixed(2)} ms`
    : (r.result?.failure?.reason ?? 'no result');
  const mem = r.peakMiB !== undefined ? `GPU memory ${Math.round(r.peakMiB)} MiB` : 'GPU memory not sampled';
  process.stdout.write(
    `  ${r.stage}/${r.label}: ${r.result?.status ?? '?'}; ${figures}; ${mem}; layers on GPU ${r.offloaded ?? 'not in its log'}\n`,
  );
}
