// Where servelab's own llama.cpp build lives, and how it is made: the source of llama.cpp
// 0.4.0-dev (commit 80fb11a) ships inside the npm package node-llama-cpp 3.21.1 as a git bundle
// (llama/gitRelease.bundle); it is fetched with `npm pack` (not installed: the package's
// postinstall and its optional dependencies fetch or build prebuilt binaries), cloned, and built
// static with cmake and g++ into $XDG_CACHE_HOME/servelab/llama.cpp/<key>/, one folder per backend
// (llamacpp-backend.ts: <commit> for the CPU build, <commit>-cuda, <commit>-hip); the source clone
// is shared, in <commit>/src.
//
//   llamaCppPaths(commit?, backend?) -> { root, src, build, server, quantize, vocab(name) }
//   findLlamaCppBuild(commit?, backend?, arch?) -> path of a finished build's llama-server, or undefined
//   builtWithoutAmx(server) -> the llama-server is servelab's build with the AMX kernels compiled out
//   buildLlamaCpp({ log, jobs?, cpu?, gpuArch? }) -> Promise<{ server, quantize, reused, seconds, backend }>
//     throws UserError (exit 2) in one line when cmake, g++, git or npm is missing
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import { findOnPath } from '../core/which.js';
import {
  AMX_OFF_FLAGS,
  backendFlags,
  BACKEND_LABEL,
  buildKey,
  chooseBackend,
  resolveGpuArch,
  type LlamaBackend,
} from './llamacpp-backend.js';
import { cacheDir } from './xdg.js';

export const LLAMACPP_COMMIT = '80fb11a';
export const NODE_LLAMA_CPP = 'node-llama-cpp@3.21.1';
/** llama.cpp reference/llamacpp.md; static so llama-server stands alone (no libllama.so beside it). */
export const CMAKE_FLAGS = [
  '-DCMAKE_BUILD_TYPE=Release',
  '-DLLAMA_CURL=OFF',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DGGML_NATIVE=ON',
  '-DBUILD_SHARED_LIBS=OFF',
];
export const TARGETS = ['llama-server', 'llama-quantize'];
const STAMP = 'servelab-build.json';

export function llamaCppPaths(commit = LLAMACPP_COMMIT, backend: LlamaBackend = 'cpu') {
  const root = path.join(cacheDir(), 'llama.cpp', buildKey(commit, backend));
  const src = path.join(cacheDir(), 'llama.cpp', commit, 'src');
  const build = path.join(root, 'build');
  return {
    root,
    src,
    build,
    server: path.join(build, 'bin', 'llama-server'),
    quantize: path.join(build, 'bin', 'llama-quantize'),
    stamp: path.join(build, STAMP),
    /** A vocabulary-only GGUF of the source clone, e.g. 'gpt-2' -> models/ggml-vocab-gpt-2.gguf. */
    vocab: (name: string) => path.join(src, 'models', `ggml-vocab-${name}.gguf`),
  };
}

interface Stamp {
  commit?: string;
  /** Absent in stamps written before GPU builds: those are CPU builds. */
  backend?: LlamaBackend;
  flags?: string[];
}

/**
 * A stamp this code accepts: its commit, its backend, and the flags (any GPU arch unless one is
 * asked; on an AMX CPU, a CPU build with AMX compiled out, so an older build is made again).
 */
export function stampMatches(stamp: Stamp, commit: string, backend: LlamaBackend, arch?: string, amx?: boolean): boolean {
  if (stamp.commit !== commit || (stamp.backend ?? 'cpu') !== backend) return false;
  const want = [...CMAKE_FLAGS, ...backendFlags(backend, arch, amx)];
  const have = stamp.flags ?? [];
  if (backend === 'cpu' || arch !== undefined) return JSON.stringify(have) === JSON.stringify(want);
  return JSON.stringify(have.slice(0, want.length)) === JSON.stringify(want);
}

/** A build's stamp, or undefined when there is none or it does not parse. */
function readStamp(file: string): Stamp | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

/** A finished build: its stamp names this commit, backend and flags, and both binaries are there. */
export function findLlamaCppBuild(commit = LLAMACPP_COMMIT, backend: LlamaBackend = 'cpu', arch?: string): string | undefined {
  const p = llamaCppPaths(commit, backend);
  const stamp = readStamp(p.stamp);
  if (!stamp || !stampMatches(stamp, commit, backend, arch)) return undefined;
  return fs.existsSync(p.server) && fs.existsSync(p.quantize) ? p.server : undefined;
}

/** The llama-server at this path is servelab's build whose stamp says AMX was compiled out (llamacpp-backend.ts AMX_OFF_FLAGS). */
export function builtWithoutAmx(server: string): boolean {
  const flags = readStamp(path.join(path.dirname(server), '..', STAMP))?.flags;
  return !!flags && AMX_OFF_FLAGS.every((f) => flags.includes(f));
}

export interface BuildOptions {
  /** One progress line at a time (stderr in the CLI). */
  log: (line: string) => void;
  jobs?: number;
  /** Build for the CPU alone even where nvcc or hipcc is found. */
  cpu?: boolean;
  /** CUDA compute capabilities ("90", "89;90") or HIP targets ("gfx942"): default this host's. */
  gpuArch?: string;
}

export interface BuildOutcome {
  server: string;
  quantize: string;
  reused: boolean;
  seconds: number;
  /** What the build runs on: 'cpu', 'cuda' or 'hip'. */
  backend: LlamaBackend;
}

function requireTools(): void {
  const missing = ['cmake', 'g++', 'git', 'npm', 'tar'].filter((t) => !findOnPath(t));
  if (missing.length) {
    throw new UserError(`cannot build llama.cpp: ${missing.join(', ')} not on PATH (on Debian: apt-get install cmake g++ git)`);
  }
}

async function run(cmd: string, args: string[], cwd: string, what: string, onLine?: (l: string) => void): Promise<void> {
  const child = execa(cmd, args, { cwd, reject: false, all: true, buffer: { all: true } });
  if (onLine)
    child.all?.on('data', (d: Buffer) =>
      String(d)
        .split('\n')
        .forEach((l) => l && onLine(l)),
    );
  const r = await child;
  if (r.exitCode !== 0) {
    const tail = String(r.all ?? '')
      .trim()
      .split('\n')
      .slice(-5)
      .join(' | ');
    throw new UserError(`llama.cpp build failed at ${what} (exit ${r.exitCode}): ${tail}`);
  }
}

/** The source clone, from the npm tarball's git bundle; kept for later builds and vocabularies. */
async function fetchSource(p: ReturnType<typeof llamaCppPaths>, log: (l: string) => void): Promise<void> {
  if (fs.existsSync(path.join(p.src, 'CMakeLists.txt'))) return log(`source: ${p.src} (already cloned)`);
  fs.mkdirSync(p.root, { recursive: true });
  fs.mkdirSync(path.dirname(p.src), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(p.root, 'fetch-'));
  try {
    log(`fetching ${NODE_LLAMA_CPP} with npm pack (its llama/gitRelease.bundle holds the llama.cpp source)`);
    await run('npm', ['pack', NODE_LLAMA_CPP, '--silent', '--pack-destination', tmp], tmp, 'npm pack');
    const tgz = fs.readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new UserError(`npm pack ${NODE_LLAMA_CPP} wrote no tarball`);
    await run('tar', ['-xzf', tgz, 'package/llama/gitRelease.bundle'], tmp, 'tar');
    log(`cloning llama.cpp ${LLAMACPP_COMMIT} from the bundle`);
    const clone = path.join(tmp, 'src');
    await run('git', ['clone', '--quiet', path.join(tmp, 'package', 'llama', 'gitRelease.bundle'), clone], tmp, 'git clone');
    const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: clone })).stdout.trim();
    if (!head.startsWith(LLAMACPP_COMMIT))
      throw new UserError(`the bundle in ${NODE_LLAMA_CPP} is commit ${head.slice(0, 7)}, not ${LLAMACPP_COMMIT}`);
    fs.renameSync(clone, p.src);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** cmake prints "[ 42%] Building ..." lines: report each new tenth once. */
function progress(log: (l: string) => void): (line: string) => void {
  let last = -1;
  return (line) => {
    const m = /^\[\s*(\d+)%\]/.exec(line);
    if (!m) return;
    const tenth = Math.floor(Number(m[1]) / 10);
    if (tenth > last) {
      last = tenth;
      log(`building: ${m[1]}%`);
    }
  };
}

/** How long the compile takes on this project's 2-core machine (the CUDA figure: scripts/llamacpp-cuda-build.log). */
const TYPICAL: Record<LlamaBackend, string> = {
  cpu: 'on 2 cores this takes 8 to 15 minutes',
  cuda: 'CUDA kernels take far longer: hours on 2 cores, each CUDA architecture compiled apart',
  hip: 'HIP kernels take far longer than the CPU build',
};

/** The built server runs here; a GPU build on a host without the GPU's driver may not, which is said, not fatal. */
async function checkRuns(server: string, backend: LlamaBackend, log: (l: string) => void): Promise<void> {
  const r = await execa(server, ['--version'], { reject: false, all: true });
  if (r.exitCode === 0) return;
  const first = String(r.all).trim().split('\n')[0] ?? '';
  if (backend !== 'cpu' && /error while loading shared libraries/.test(first))
    return log(`the built llama-server does not start on this host (${first}): it needs the GPU driver's libraries where it runs`);
  throw new UserError(`the built llama-server does not run: ${first}`);
}

/** How a finished build's flags differ from these ("now adds X; drops Y"), or undefined when there is none or they agree. */
export function flagsChanged(stampPath: string, flags: readonly string[]): string | undefined {
  const stamp = readStamp(stampPath);
  if (!stamp) return undefined;
  const have = stamp.flags ?? [];
  const adds = flags.filter((f) => !have.includes(f));
  const drops = have.filter((f) => !flags.includes(f));
  const parts = [...(adds.length ? [`now adds ${adds.join(' ')}`] : []), ...(drops.length ? [`drops ${drops.join(' ')}`] : [])];
  return parts.length ? parts.join('; ') : undefined;
}

export async function buildLlamaCpp(o: BuildOptions): Promise<BuildOutcome> {
  const started = Date.now();
  const backend = chooseBackend(o);
  const p = llamaCppPaths(LLAMACPP_COMMIT, backend);
  const done = (reused: boolean) => ({
    server: p.server,
    quantize: p.quantize,
    seconds: Math.round((Date.now() - started) / 1000),
    backend,
    reused,
  });
  if (findLlamaCppBuild(LLAMACPP_COMMIT, backend, o.gpuArch)) {
    o.log(`reusing the ${BACKEND_LABEL[backend]} build of llama.cpp ${LLAMACPP_COMMIT} in ${p.build}`);
    return done(true);
  }
  const arch = await resolveGpuArch(backend, o.gpuArch);
  const flags = [...CMAKE_FLAGS, ...backendFlags(backend, arch)];
  const changed = flagsChanged(p.stamp, flags);
  if (changed) o.log(`the build in ${p.build} was made with other cmake flags (${changed}): building it again`);
  requireTools();
  await fetchSource(p, o.log);
  const jobs = o.jobs ?? Math.max(1, os.availableParallelism());
  o.log(`building for ${BACKEND_LABEL[backend]}; configuring: cmake ${flags.join(' ')}`);
  await run('cmake', ['-S', p.src, '-B', p.build, ...flags], p.root, 'cmake configure');
  o.log(`compiling ${TARGETS.join(' and ')} with ${jobs} job(s); ${TYPICAL[backend]}`);
  await run('cmake', ['--build', p.build, '--target', ...TARGETS, '-j', String(jobs)], p.root, 'cmake --build', progress(o.log));
  await checkRuns(p.server, backend, o.log);
  const stamp = { commit: LLAMACPP_COMMIT, backend, flags, builtAt: new Date().toISOString() };
  fs.writeFileSync(p.stamp, JSON.stringify(stamp, null, 1) + '\n');
  return done(false);
}
