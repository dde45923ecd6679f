// Where servelab's own llama.cpp build lives, and how it is made: the source of llama.cpp
// 0.4.0-dev (commit 80fb11a) ships inside the npm package node-llama-cpp 3.21.1 as a git bundle
// (llama/gitRelease.bundle); it is fetched with `npm pack` (not installed: the package's
// postinstall and its optional dependencies fetch or build prebuilt binaries), cloned, and built
// static with cmake and g++ into $XDG_CACHE_HOME/servelab/llama.cpp/<commit>/.
//
//   llamaCppPaths(commit?) -> { root, src, build, server, quantize, vocab(name) }
//   findLlamaCppBuild() -> path of a finished build's llama-server, or undefined
//   buildLlamaCpp({ log, jobs? }) -> Promise<{ server, quantize, reused, seconds }>
//     throws UserError (exit 2) in one line when cmake, g++, git or npm is missing
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import { findOnPath } from '../core/which.js';
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

export function llamaCppPaths(commit = LLAMACPP_COMMIT) {
  const root = path.join(cacheDir(), 'llama.cpp', commit);
  const build = path.join(root, 'build');
  return {
    root,
    src: path.join(root, 'src'),
    build,
    server: path.join(build, 'bin', 'llama-server'),
    quantize: path.join(build, 'bin', 'llama-quantize'),
    stamp: path.join(build, STAMP),
    /** A vocabulary-only GGUF of the source clone, e.g. 'gpt-2' -> models/ggml-vocab-gpt-2.gguf. */
    vocab: (name: string) => path.join(root, 'src', 'models', `ggml-vocab-${name}.gguf`),
  };
}

/** A finished build: its stamp names this commit and flags, and both binaries are there. */
export function findLlamaCppBuild(commit = LLAMACPP_COMMIT): string | undefined {
  const p = llamaCppPaths(commit);
  try {
    const stamp = JSON.parse(fs.readFileSync(p.stamp, 'utf8')) as { commit?: string; flags?: string[] };
    if (stamp.commit !== commit || JSON.stringify(stamp.flags) !== JSON.stringify(CMAKE_FLAGS)) return undefined;
  } catch {
    return undefined;
  }
  return fs.existsSync(p.server) && fs.existsSync(p.quantize) ? p.server : undefined;
}

export interface BuildOptions {
  /** One progress line at a time (stderr in the CLI). */
  log: (line: string) => void;
  jobs?: number;
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

export async function buildLlamaCpp(o: BuildOptions): Promise<{ server: string; quantize: string; reused: boolean; seconds: number }> {
  const started = Date.now();
  const p = llamaCppPaths();
  const done = () => ({ server: p.server, quantize: p.quantize, seconds: Math.round((Date.now() - started) / 1000) });
  if (findLlamaCppBuild()) {
    o.log(`reusing the build of llama.cpp ${LLAMACPP_COMMIT} in ${p.build}`);
    return { ...done(), reused: true };
  }
  requireTools();
  await fetchSource(p, o.log);
  const jobs = o.jobs ?? Math.max(1, os.availableParallelism());
  o.log(`configuring: cmake ${CMAKE_FLAGS.join(' ')}`);
  await run('cmake', ['-S', p.src, '-B', p.build, ...CMAKE_FLAGS], p.root, 'cmake configure');
  o.log(`compiling ${TARGETS.join(' and ')} with ${jobs} job(s); on 2 cores this takes 8 to 15 minutes`);
  await run('cmake', ['--build', p.build, '--target', ...TARGETS, '-j', String(jobs)], p.root, 'cmake --build', progress(o.log));
  const r = await execa(p.server, ['--version'], { reject: false, all: true });
  if (r.exitCode !== 0) throw new UserError(`the built llama-server does not run: ${String(r.all).trim().split('\n')[0]}`);
  fs.writeFileSync(
    p.stamp,
    JSON.stringify({ commit: LLAMACPP_COMMIT, flags: CMAKE_FLAGS, builtAt: new Date().toISOString() }, null, 1) + '\n',
  );
  return { ...done(), reused: false };
}
