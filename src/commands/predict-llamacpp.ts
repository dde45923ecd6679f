// `servelab predict --engine llamacpp --model FILE.gguf`: llama.cpp's own CPU estimate
// (src/model/llamacpp-estimate.ts) for a GGUF file on this host's CPU, optionally corrected by a
// host calibration (--calibration FILE, its llamacpp corrections), checked against this host like
// the GPU path: another CPU model (or a GPU's calibration) is refused, other differences are
// warnings on stderr. Figures are the model's, not a measurement. Flags: llama-server's own spellings for the knobs it reads. Bad input: UserError.
import { UserError } from '../core/errors.js';
import type { Knobs } from '../core/variant.js';
import { correctionsFor } from '../model/calibration/corrections.js';
import { cpuInfo, hostCpuFacts } from '../host/cpu.js';
import { readGgufHeader } from '../gguf/read.js';
import { ggufFacts, kvElemBytes, llamacppEstimate } from '../model/llamacpp-estimate.js';
import { PREDICT_LLAMACPP_USAGE, parsePredictLlamacppArgs } from '../cli/predict-llamacpp-args.js';
import { checkCalibration, readCalibrationFile, type CalibrationFile } from '../profiles/store/calibration-file.js';

/** The calibration file, if it may be used on this CPU: refused (exit 2) from another CPU model or a GPU; other differences warned on stderr. */
function checkedCalibration(file: string): CalibrationFile {
  let cal: CalibrationFile;
  try {
    cal = readCalibrationFile(file);
  } catch (e) {
    throw new UserError(`--calibration ${(e as Error).message}`);
  }
  const cpu = cpuInfo();
  const c = checkCalibration(cal, {
    gpuName: 'CPU',
    gpuCount: 0,
    simulated: false,
    engine: 'llamacpp',
    cpuThreads: cpu.threads,
    ...(cpu.model ? { cpuModel: cpu.model } : {}),
  });
  if (c.refuse) throw new UserError(`--calibration ${file}: ${c.refuse}`);
  for (const w of c.warnings) process.stderr.write(`servelab: --calibration ${file}: ${w}\n`);
  return cal;
}

export default function predictLlamacpp(argv: string[]): number {
  const a = parsePredictLlamacppArgs(argv);
  if (a === 'help') {
    process.stdout.write(
      `${PREDICT_LLAMACPP_USAGE}\n\nEstimates llama-server on this host's CPU from the GGUF header: decode streams the weights and\neach slot's KV cache over memory bandwidth, prefill does 2 x params FLOPs per token (the output head\nfor each prompt's last token only). Not measured.\n`,
    );
    return 0;
  }
  const { knobs, model, calibration, json, inputLen, outputLen, numPrompts, maxConcurrency } = a;
  if (!model) throw new UserError('predict --engine llamacpp needs --model FILE.gguf');
  const facts = ggufFacts(readGgufHeader(model));
  const cpu = hostCpuFacts();
  const k = calibration ? correctionsFor(checkedCalibration(calibration).corrections, 'llamacpp') : undefined;
  const w = { numPrompts, inputLen, outputLen, ...(maxConcurrency ? { maxConcurrency } : {}) };
  const prior = llamacppEstimate(facts, knobs as Knobs, cpu, w);
  const e = k ? llamacppEstimate(facts, knobs as Knobs, cpu, w, k) : prior;
  if (json) {
    process.stdout.write(
      JSON.stringify({ engine: 'llamacpp', ...e, ...(k ? { prior: prior.totalTokPerS, calibration } : {}), cpu: cpu.source }) + '\n',
    );
    return 0;
  }
  const lines = [
    `Predicted by servelab's llama.cpp CPU estimate (not measured): ${model} (${facts.arch}, ${(facts.matmulParams / 1e6).toFixed(1)}M matmul params, ${(facts.streamedBytes / 2 ** 20).toFixed(1)} MiB streamed per step), random ${inputLen}/${outputLen}, ${numPrompts} prompts, ${e.batch} of ${e.slots} slots busy`,
    `CPU: ${cpu.source}`,
    `KV bytes per token:      ${e.kvBytesPerToken.toFixed(0)}`,
    `Decode tok/s per slot:   ${e.decodeTokPerSPerSlot.toFixed(1)}`,
    `Prefill tok/s:           ${e.prefillTokPerS.toFixed(0)}`,
    `Total token throughput:  ${e.totalTokPerS.toFixed(1)}${k ? ` calibrated by ${calibration} (prior estimate ${prior.totalTokPerS.toFixed(1)})` : ''}`,
    `Mean TTFT (ms):          ${e.meanTtftMs.toFixed(1)}`,
    `Mean TPOT (ms):          ${e.meanTpotMs.toFixed(1)}`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}
