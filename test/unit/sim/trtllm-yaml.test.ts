// sim-serve --extra_llm_api_options: TensorRT-LLM's YAML, read for load_format as TensorRT-LLM
// validates it (upper-cased into LoadFormat, else "Invalid LoadFormat"), TensorRT-LLM only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-trt-yaml-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const yamlFile = (text: string) => {
  const f = join(dir, `x${n++}.yaml`);
  writeFileSync(f, text);
  return f;
};
const parse = (engine: string, file: string, ...more: string[]) =>
  parseSimArgs(['--engine', engine, '--model', 'm', '--extra_llm_api_options', file, ...more]);

describe('sim-serve --extra_llm_api_options', () => {
  it('takes load_format in any case, as convert_load_format upper-cases it; absent = not set', () => {
    expect(parse('trtllm', yamlFile('load_format: dummy\n')).loadFormat).toBe('dummy');
    expect(parse('trtllm', yamlFile('load_format: DUMMY\nenable_iter_perf_stats: true\n')).loadFormat).toBe('dummy');
    expect(parse('trtllm', yamlFile('load_format: auto\n')).loadFormat).toBe('auto');
    expect(parse('trtllm', yamlFile('enable_iter_perf_stats: true\n')).loadFormat).toBeUndefined();
    expect(parse('trtllm', yamlFile('')).loadFormat).toBeUndefined();
  });

  it('refuses what TensorRT-LLM refuses, and what sim-serve does not model, in one line each', () => {
    expect(() => parse('trtllm', yamlFile('load_format: safetensors\n'))).toThrow(
      /argument --extra_llm_api_options: Invalid LoadFormat: safetensors$/,
    );
    expect(() => parse('trtllm', yamlFile('load_format: vision_only\n'))).toThrow(/VISION_ONLY loads only a vision encoder/);
    expect(() => parse('trtllm', yamlFile('- a\n- b\n'))).toThrow(/is not a YAML mapping/);
    expect(() => parse('trtllm', join(dir, 'missing.yaml'))).toThrow(/argument --extra_llm_api_options: cannot read .*missing\.yaml/);
  });

  it('is TensorRT-LLM only, and not with --load-format', () => {
    const f = yamlFile('load_format: dummy\n');
    expect(() => parse('vllm', f)).toThrow(/TensorRT-LLM's flag, not vllm's \(use --load-format\)/);
    expect(() => parse('trtllm', f, '--load-format', 'dummy')).toThrow(/not allowed with --load-format/);
  });
});
