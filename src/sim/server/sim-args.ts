// What sim-serve was started with, and the argparse-style error the simulated engine prints (its
// usage line and an error line, exit 2), as the imitated engines' own parsers do. The flag table
// that fills SimArgs is the command line's (src/cli/sim-serve-args.ts); the server, its multi-node
// ranks and host corrections raise the same error for values that parse but cannot run.
import type { SimLoadFormat } from '../imitation/load-format.js';
import type { EngineName, Knobs } from '../../core/variant.js';
import { NEUTRAL_KNOBS, SPECULATIVE_FIELDS, SPECULATIVE_METHODS } from '../../engines/data/knobs.js';
import { UserError } from '../../core/errors.js';

export interface SimArgs {
  engine: EngineName;
  /** GPU catalog name or nvidia-smi name, e.g. 'H100'. */
  gpu: string;
  gpus: number;
  /** Set by sim-serve for the head of a multi-node start (not a flag): GPUs of one node. */
  gpusPerNode?: number;
  model: string;
  knobs: Knobs;
  host: string;
  port: number;
  seed: number;
  /** Simulated clock runs `speed` times faster than the wall clock. */
  speed: number;
  /** Simulated start-up seconds; undefined = derived from the model size. */
  loadTime?: number;
  /**
   * `--load-format auto|dummy`, vLLM's and SGLang's spelling: dummy skips the modelled weight
   * read (server.ts defaultLoadTime). Other formats of the real engines are refused here.
   */
  loadFormat?: SimLoadFormat;
  /** `--extra_llm_api_options FILE` (TensorRT-LLM only): its load_format sets loadFormat (imitation/trtllm-yaml.ts). */
  trtllmYaml?: string;
  servedModelName?: string;
  /** Engine release the model imitates (src/model/versions.ts); undefined = the release servelab targets. */
  engineVersion?: string;
  /** `--truth FILE`: host corrections the simulated host runs on (src/model/calibration), unknown to the planner. */
  truth?: string;
  /** `--calibration FILE`: a host calibration (servelab calibrate) the simulated host runs on. */
  calibration?: string;
  /** `--engine-env NAME` (repeatable): the variant's env knob names, whose values sim-serve reads from its own environment and logs. */
  engineEnv?: string[];
}

const knobUsage = [
  ...NEUTRAL_KNOBS.map((k) => (k.type.startsWith('bool') ? `[${k.simFlag}]` : `[${k.simFlag} ${k.type === 'string' ? 'V' : 'N'}]`)),
  '[--no-torch-compile]',
  `[--speculative {${SPECULATIVE_METHODS.join(',')}}]`,
  ...SPECULATIVE_FIELDS.filter((f) => f.field !== 'method').map((f) => `[${f.simFlag} ${f.type === 'int' ? 'N' : 'V'}]`),
  '[--engine-arg ARG]',
];

function wrapUsage(items: string[], indent: string, width = 100): string {
  const lines: string[] = [];
  let cur = indent;
  for (const it of items) {
    if (cur.length + it.length + 1 > width && cur.trim()) {
      lines.push(cur.trimEnd());
      cur = indent;
    }
    cur += `${it} `;
  }
  lines.push(cur.trimEnd());
  return lines.join('\n');
}

export const SIM_USAGE =
  'usage: servelab sim-serve [-h] --engine {vllm,sglang,trtllm} --model MODEL [--gpu GPU] [--gpus N]\n' +
  '                          [--host HOST] [--port PORT] [--seed SEED] [--speed S] [--load-time SECONDS]\n' +
  '                          [--load-format {auto,dummy}] [--extra_llm_api_options YAML]\n' +
  '                          [--served-model-name NAME] [--engine-version V]\n' +
  '                          [--truth FILE | --calibration FILE] [--engine-env NAME]\n' +
  wrapUsage(knobUsage, '                          ');

/** Thrown for bad argv; `message` is the argparse-style text (usage line + error line). */
export class SimArgsError extends UserError {
  constructor(detail: string) {
    super(`${SIM_USAGE}\nservelab sim-serve: error: ${detail}`, 2);
    this.name = 'SimArgsError';
  }
}
