// sim-serve imitating TensorRT-LLM reads the --extra_llm_api_options YAML the adapter writes, for
// the one setting it models there: `load_format` (dummy weights skip the modelled weight read).
// Validation as TensorRT-LLM's own: TorchLlmArgs.convert_load_format upper-cases the value and
// requires a LoadFormat member (AUTO, DUMMY, VISION_ONLY), else `Invalid LoadFormat: {v}`
// (tensorrt_llm/llmapi/llm_args.py, the copies named in src/engines/trtllm/adapter.ts TRTLLM_DUMMY_YAML).
// Every other key is the knobs' business: they reach sim-serve as its own flags.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { SimLoadFormat } from './load-format.js';

/** LoadFormat's members in the llm_args.py copies servelab's tables were read from. */
const TRTLLM_LOAD_FORMATS = ['AUTO', 'DUMMY', 'VISION_ONLY'] as const;

/** The load format a TensorRT-LLM YAML asks for; undefined when it has no load_format. Throws an Error whose message says why. */
export function trtllmYamlLoadFormat(file: string): SimLoadFormat | undefined {
  let doc: unknown;
  try {
    doc = YAML.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`cannot read ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return undefined;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`${file} is not a YAML mapping`);
  const v = (doc as Record<string, unknown>).load_format;
  if (v === undefined) return undefined;
  const upper = String(v).toUpperCase();
  if (!(TRTLLM_LOAD_FORMATS as readonly string[]).includes(upper)) throw new Error(`Invalid LoadFormat: ${String(v)}`);
  if (upper === 'VISION_ONLY') throw new Error('load_format VISION_ONLY loads only a vision encoder; sim-serve models auto and dummy');
  return upper === 'DUMMY' ? 'dummy' : 'auto';
}
