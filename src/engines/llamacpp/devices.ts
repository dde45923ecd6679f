// Whether a llama-server offloads to a GPU, and to which: `llama-server --list-devices` prints
// every non-CPU device its backends found and exits (common/arg.cpp at 80fb11a,
// common_print_available_devices):
//   printf("Available devices:\n");  then "  (none)\n", or per device
//   printf("  %s: %s (%zu MiB, %zu MiB free)\n", name, description, total / MiB, free / MiB);
// A device is named GGML_CUDA_NAME + its index: "CUDA0", or "ROCm0" in a HIP build
// (ggml/include/ggml-cuda.h, ggml/src/ggml-cuda/common.cuh). A CUDA or HIP build that finds no
// GPU says so while the backend starts (ggml/src/ggml-cuda/ggml-cuda.cu, ggml_cuda_init):
//   GGML_LOG_ERROR("%s: failed to initialize " GGML_CUDA_NAME ": %s\n", __func__, cudaGetErrorString(err));
// and a build without GPU support warns when -ngl is given (common/arg.cpp):
//   "warning: no usable GPU found, --gpu-layers option will be ignored"
// (the CPU build's whole answer is captured in test/fixtures/engines/llamacpp-80fb11a-list-devices-cpu.txt).
import { execa } from 'execa';

export interface LlamaDevice {
  name: string;
  description: string;
  totalMiB: number;
  freeMiB: number;
}

export interface LlamaDevices {
  /** 'cpu', or the GPU backend: 'cuda', 'hip' (devices named ROCm<N>), or another backend's name in lower case. */
  backend: string;
  devices: LlamaDevice[];
  /** The GPU backend was built in but could not start (its own words). */
  initError?: string;
}

const DEVICE = /^\s+([A-Za-z]+?)(\d+): (.*) \((\d+) MiB, (\d+) MiB free\)\s*$/;
const INIT_FAILED = /^ggml_cuda_init: failed to initialize (\w+): (.*)$/m;
const INIT_FOUND = /^ggml_cuda_init: found \d+ (\w+) devices/m;

/** GGML_CUDA_NAME (and other backends' device prefixes) -> the backend's name. */
function backendOf(prefix: string): string {
  if (prefix === 'ROCm') return 'hip';
  return prefix.toLowerCase();
}

export function parseListDevices(text: string): LlamaDevices {
  const devices: LlamaDevice[] = [];
  let prefix: string | undefined;
  for (const line of text.split('\n')) {
    const m = DEVICE.exec(line);
    if (!m) continue;
    prefix ??= m[1]!;
    devices.push({ name: `${m[1]}${m[2]}`, description: m[3]!, totalMiB: Number(m[4]), freeMiB: Number(m[5]) });
  }
  if (prefix) return { backend: backendOf(prefix), devices };
  const failed = INIT_FAILED.exec(text);
  if (failed) return { backend: backendOf(failed[1]!), devices, initError: failed[2]!.trim() };
  const found = INIT_FOUND.exec(text);
  return { backend: found ? backendOf(found[1]!) : 'cpu', devices };
}

/** One line for the host screen: what the binary offloads to. */
export function devicesText(d: LlamaDevices): string {
  if (d.devices.length)
    return `${d.backend.toUpperCase()} build: ${d.devices.map((x) => `${x.name} ${x.description} (${x.totalMiB} MiB)`).join(', ')}`;
  // (on a GPU host the session says once how to build for it: tune/session/open.ts)
  if (d.backend === 'cpu') return 'CPU build, no GPU offload';
  return `${d.backend.toUpperCase()} build, but no GPU answered${d.initError ? `: ${d.initError}` : ''}`;
}

/** Run `llama-server --list-devices`; undefined when it does not answer. */
export async function listDevices(server: string, timeoutMs = 15_000): Promise<LlamaDevices | undefined> {
  const r = await execa(server, ['--list-devices'], { reject: false, all: true, timeout: timeoutMs });
  const text = String(r.all ?? '');
  return /Available devices:/.test(text) || INIT_FAILED.test(text) ? parseListDevices(text) : undefined;
}
