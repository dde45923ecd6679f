// The real llama.cpp for tests: the llama-server servelab would use (a given SERVELAB_LLAMA_SERVER,
// PATH, or `servelab engines build llamacpp`'s cache), a vocabulary file from that build's source
// clone, and a small random-weight GGUF made once per test run in os.tmpdir(). Tests that need the
// binary skip with `LLAMA_SKIP` as the reason when it is absent; on servelab's own machines it is
// present (build it with `servelab engines build llamacpp`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Variant } from '../../src/core/variant.js';
import { engineLaunchHooks } from '../../src/engines/launch-hooks.js';
import { findLlamaServer } from '../../src/engines/llamacpp/detect.js';
import { launchServer } from '../../src/host/process.js';
import type { ReadyResult, ServerHandle } from '../../src/host/server-handle.js';
import { llamaCppPaths } from '../../src/host/llamacpp-build.js';
import { makeRandomGguf } from '../../src/gguf/make.js';
import type { ArchShape } from '../../src/gguf/random.js';
import { freeTestPort } from './ports.js';
import { llamacpp } from '../../src/engines/llamacpp/adapter.js';

export const LLAMA_SERVER: string | undefined = findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)?.path;
/** llama-quantize beside the server (servelab's build has both), or undefined. */
export const LLAMA_QUANTIZE: string | undefined = (() => {
  const p = LLAMA_SERVER ? path.join(path.dirname(LLAMA_SERVER), 'llama-quantize') : undefined;
  return p && fs.existsSync(p) ? p : undefined;
})();
export const VOCAB_GPT2: string | undefined = fs.existsSync(llamaCppPaths().vocab('gpt-2')) ? llamaCppPaths().vocab('gpt-2') : undefined;
export const LLAMA_SKIP = !LLAMA_SERVER
  ? 'no llama-server: not on PATH, no SERVELAB_LLAMA_SERVER, and `servelab engines build llamacpp` has not been run'
  : !VOCAB_GPT2
    ? 'no vocabulary file: the llama.cpp source clone of `servelab engines build llamacpp` is missing'
    : undefined;

/** A random-weight GGUF (default: qwen3, hidden 256, 4 layers, GPT-2 vocabulary), made once per process. */
export function testGguf(shape: ArchShape = { arch: 'qwen3', hidden: 256, layers: 4 }): string {
  if (!VOCAB_GPT2) throw new Error(LLAMA_SKIP);
  const dir = path.join(os.tmpdir(), `servelab-gguf-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${shape.arch}-${shape.hidden}x${shape.layers}.gguf`);
  if (!fs.existsSync(file)) makeRandomGguf({ out: file, vocab: VOCAB_GPT2, shape });
  return file;
}

/**
 * Launch llama-server through the llamacpp adapter (as servelab does) and wait for /health.
 * The caller stops `h` (afterEach: `await h.stop()`); `runDir` holds its log.
 */
export async function startLlamaServer(
  knobs: Variant['knobs'],
  runDir: string,
  model = testGguf(),
): Promise<{ h: ServerHandle; port: number; url: string; ready: ReadyResult }> {
  const port = await freeTestPort();
  const variant: Variant = { id: path.basename(runDir), engine: 'llamacpp', model, knobs };
  const spec = llamacpp.command(variant, { host: '127.0.0.1', port, runDir, runtime: { kind: 'native', executable: LLAMA_SERVER! } });
  const h = await launchServer(spec, { runDir, graceMs: 2000, ...engineLaunchHooks((l, e) => llamacpp.classifyFailure(l, e)) });
  return { h, port, url: `http://127.0.0.1:${port}`, ready: await h.waitReady(60_000) };
}
