// The contract of one launched server (host/process.ts launches it, host/server-process.ts
// implements it): what the caller passes in and what it gets back.
import type { Failure } from '../core/events.js';
import type { ExitInfo, LaunchSpec } from './launch-spec.js';

/** Turns a log tail and an exit into a Failure; the engine's rules, passed in by the caller. */
export type Classify = (lines: string[], exit: ExitInfo) => Failure;

export interface LaunchOptions {
  /** Folder for the log and the spec's files; created if missing. */
  runDir: string;
  /** Log file name inside runDir; default 'server.log'. */
  logName?: string;
  /** Every complete output line, as it arrives. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Aborting stops the server. */
  signal?: AbortSignal;
  /** Lines kept in memory; default 400. */
  tailLines?: number;
  /** Check the port is free before launch; default true. */
  checkPort?: boolean;
  /** A real GPU host: stop() also waits until our PIDs hold no GPU memory. */
  gpuHost?: boolean;
  /** Default SIGTERM -> SIGKILL grace; default 15 s (engines flush and free NCCL on SIGTERM). */
  graceMs?: number;
  /**
   * Classifies failures, and spots the start-up line that alone proves one. The caller passes the
   * engine's rules (adapter.classifyFailure, or engines/failures classifyFromLog for all engines):
   * host knows processes, not engines.
   */
  classify: Classify;
  /**
   * Throws a one-line UserError when spec.image does not exist (engines/detect assertImageExists).
   * Required for a spec with an image: launchServer refuses one without it rather than let docker
   * pull at launch time.
   */
  checkImage?: (image: string) => Promise<void>;
  /**
   * A start-up log line that proves a failure (OOM, unsupported, ...) while the process lives on
   * (TRT-LLM can hang after a rank fails): stop it this long after the line; default 30 s.
   */
  fatalGraceMs?: number;
}

export type ReadyResult = { ready: true; startupS: number } | { ready: false; failure: Failure; exit: ExitInfo; startupS: number };

export interface ServerHandle {
  pid: number;
  host: string;
  port: number;
  logPath: string;
  spec: LaunchSpec;
  startedAt: number;
  tail(n?: number): string[];
  exited: Promise<ExitInfo>;
  /** Set once the process has exited. */
  readonly exit: ExitInfo | undefined;
  waitReady(timeoutMs: number, signal?: AbortSignal): Promise<ReadyResult>;
  stop(opts?: { graceMs?: number }): Promise<ExitInfo>;
  /** SIGKILL the group now (exit hooks). */
  killNow(): void;
}
