// Intel AMX and llama-server: at 80fb11a its AMX kernels crash on repacked quantized weights
// (SIGSEGV, or SIGILL on another VM, in the warm-up decode; seen with Q8_0 and Q4_0 files, public
// as ggml-org/llama.cpp#20824). servelab's own CPU build compiles them out on an AMX CPU
// (src/host/llamacpp-backend.ts AMX_OFF_FLAGS), so its launches keep llama.cpp's CPU repacking;
// any other llama-server (--llama-server, PATH, a GPU build) may carry them, and every launch of
// a session that may load a quantized file then runs with --no-repack.
//
//   amxKernels(host, server?) -> the llama-server a session launches runs AMX kernels on this CPU
//   amxRepackedType(file, amx, knobs, type?) -> the weight type a launch repacks for them, or undefined
//   hostQuirks(files, amx) -> { repack: false } when any file the session may load would be repacked
import { builtWithoutAmx } from '../../host/llamacpp-build.js';
import { findLlamaServer } from './detect.js';
import { FULL_PRECISION, ggufFacts } from './gguf.js';

/** The CPU has AMX, and the llama-server the session launches is not servelab's build without it. */
export function amxKernels(host: { cpu?: { amx?: boolean } }, server?: string): boolean {
  if (!host.cpu?.amx) return false;
  const found = findLlamaServer(server);
  return !(found && builtWithoutAmx(found.path));
}

/**
 * The weight type a launch of `file` repacks for llama.cpp's AMX kernels, or undefined when it
 * does not: AMX kernels in the binary and the CPU, repacking on (the default), a quantized file.
 * F16/BF16/F32 files are not repacked for AMX.
 */
export function amxRepackedType(
  file: string,
  amx: boolean,
  knobs: { repack?: boolean },
  type = ggufFacts(file)?.weightType,
): string | undefined {
  return amx && knobs.repack !== false && type && !FULL_PRECISION.has(type) ? type : undefined;
}

/**
 * What every llama-server launch of a session needs on this host: a host condition, not a knob
 * a stage tries. When any file the session may load would be repacked for AMX (amxRepackedType),
 * every launch runs with repack off (--no-repack, the knob table's 'repack' row), the F16 baseline
 * too: F16 weights are not repacked for AMX, so the flag changes nothing for it, and the
 * quantization stage's variants then differ from the carried winner in their file alone.
 */
export function hostQuirks(files: readonly { path: string; type?: string }[], amx: boolean): { repack?: false } {
  return files.some((f) => amxRepackedType(f.path, amx, {}, f.type ?? ggufFacts(f.path)?.weightType)) ? { repack: false } : {};
}

/** The plan's one line about hostQuirks, when it applies. */
export const NO_REPACK_NOTE =
  "This CPU has AMX and this llama-server carries llama.cpp's AMX kernels: every launch runs with --no-repack, since at 80fb11a they crash on repacked quantized weights (ggml-org/llama.cpp#20824); F16 weights are not repacked, so it changes nothing for them. servelab's own build (`servelab engines build llamacpp`) compiles them out and keeps repacking.";
