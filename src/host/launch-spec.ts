// What the host launches and what it reports back: the launch spec (built by an engine adapter,
// launched by host/process.ts) and a process's exit. Host owns these types so that it never
// depends on the engines; engines/kit/types.ts and engines/failures.ts re-export them.
import type { EngineName } from '../core/variant.js';

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  timedOut?: boolean;
}

export interface LaunchSpec {
  /** argv[0] is the executable; launched without a shell. */
  argv: string[];
  env: Record<string, string>;
  /** Files the adapter needs written before launch (e.g. TRT-LLM --extra_llm_api_options YAML). */
  files: { path: string; content: string }[];
  host: string;
  port: number;
  /** Readiness probe path: '/health' for all engines (never /v1/models for SGLang). */
  healthPath: string;
  readyLogLine: RegExp;
  /** Simulated clock factor (1 on a real host). Results are converted back in one place. */
  speed: number;
  /** The real engine's argv for this variant (same as argv on a real host). */
  engineArgv: string[];
  /** Which adapter built it. */
  engine?: EngineName | 'sim';
  /** Run after the process group is gone (docker: `docker rm -f <name>`), best effort. */
  cleanupArgv?: string[];
  /** docker runtime: the image, checked to exist before launch. */
  image?: string;
  /** Other ports the engine binds on the same host (SGLang DP-attention: port+233...), checked free before launch. */
  extraPorts?: number[];
}
