// `servelab predict` speed: the virtual-clock simulation of 1000 ShareGPT-shaped prompts for each
// engine (what `predict` computes), timed in-process; the goal is < 1 s per prediction. Prints
// figures; asserts nothing (speed targets live in bench scripts, never in unit tests).
import { performance } from 'node:perf_hooks';
import { predict } from '../src/sim/predict/predict.js';
import { sharegptLike } from '../src/sim/predict/workload.js';
import { ENGINES } from '../src/core/variant.js';

const cases = [
  { model: 'Qwen/Qwen3-14B', gpu: 'H100', gpus: 1, knobs: {} },
  { model: 'deepseek-ai/DeepSeek-R1-0528', gpu: 'H200', gpus: 8, knobs: { tp: 8 } },
];
const requests = sharegptLike(1000, 42);
for (const c of cases) {
  for (const engine of ENGINES) {
    const times: number[] = [];
    let tput = 0;
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const r = predict({ engine, ...c, requests, seed: 42 });
      times.push(performance.now() - t0);
      tput = r.total_token_throughput ?? 0;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${c.model} ${c.gpus}x${c.gpu} ${engine.padEnd(6)} 1000 prompts: median ${times[2]!.toFixed(0)} ms, max ${times[4]!.toFixed(0)} ms (${tput.toFixed(0)} tok/s)`,
    );
  }
}
