// What every export format shares: where the profile's files go, the engine's port and official
// image, the argv as a container runs it, and the header that says what was measured.
import { getAdapter } from '../../engines/index.js';
import { shellQuote } from '../../core/shell-quote.js';
import { hardwareLine, workloadLine } from '../report/lines.js';
import type { Profile } from '../schema/profile.js';
import { commandRelease, engineVersionText, hasReleaseVersion, simulatedEngine } from '../report/engine-version.js';
import { heredocDelimiter, oneLine } from '../safety/hostile.js';
import { BIND_ALL } from '../../core/dial.js';

/** Where exported commands find the profile's files: on the host, and inside a container. */
export const FILES_IN_CONTAINER = '/etc/servelab';
export const DIR_MARK = '@@SERVELAB_DIR@@';

/** Shell words for argv where DIR_MARK stands for the files folder in "$dir". */
export function shellWords(argv: readonly string[]): string {
  return argv
    .map((a) => {
      const at = a.indexOf(`${DIR_MARK}/`);
      if (at < 0) return shellQuote(a);
      const before = a.slice(0, at);
      const rest = a.slice(at + DIR_MARK.length + 1);
      return `${before ? shellQuote(before) : ''}"$dir"/${shellQuote(rest)}`;
    })
    .join(' ');
}

/** Lines that write the profile's files into "$dir" (a folder the user may choose with SERVELAB_FILES_DIR). */
export function filesPreamble(p: Profile): string[] {
  if (!p.files.length) return [];
  const lines = [`dir="\${SERVELAB_FILES_DIR:-\$HOME/.config/servelab/${k8sName(p)}}"`, 'mkdir -p "$dir"'];
  for (const f of p.files) {
    const name = f.path.split('/').pop()!;
    const eof = heredocDelimiter(f.content);
    lines.push(`cat > "$dir"/${shellQuote(name)} <<'${eof}'`, f.content.replace(/\n$/, ''), eof);
  }
  return lines;
}

export const HEALTH_PATH = '/health';
export const HF_CACHE_IN_CONTAINER = '/root/.cache/huggingface';

/**
 * The engine's official image at the release the commands are for (report/engine-version.ts: the
 * recorded one, or on the simulated host the one they were spelled for), or the image the profile
 * ran. Without either it is `latest`, and the exports say to pin it.
 */
export function officialImage(p: Pick<Profile, 'engine' | 'variant' | 'host'>): string {
  if (p.engine.runtime.kind === 'docker') return p.engine.runtime.image;
  return getAdapter(p.engine.name).officialImage!(commandRelease(p));
}

export function flagValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === name) return argv[i + 1];
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
  }
  return undefined;
}

/** The port the server listens on: its --port flag, else the engine's default. */
export function serverPort(p: Pick<Profile, 'engine' | 'engineArgv'>): number {
  const v = Number(flagValue(p.engineArgv, '--port'));
  return Number.isInteger(v) && v > 0 ? v : getAdapter(p.engine.name).defaultPort;
}

/** The argv with `--host 0.0.0.0` (replacing any other bind address): a container must listen on all interfaces. */
export function containerArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  let found = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--host') {
      out.push('--host', BIND_ALL);
      i++;
      found = true;
    } else if (a.startsWith('--host=')) {
      out.push(`--host=${BIND_ALL}`);
      found = true;
    } else out.push(a);
  }
  if (!found) out.push('--host', BIND_ALL);
  return out;
}

export function header(p: Profile, file: string, comment: string): string[] {
  const total = p.metrics.total_token_throughput.toFixed(2);
  // Profile text in a comment: a newline in it would end the comment and run as a command.
  return [
    `${comment} servelab export of ${oneLine(file)}`,
    `${comment} ${oneLine(`${p.model} on ${hardwareLine(p)}: ${p.engine.name} ${engineVersionText(p)}`)}`,
    `${comment} recorded ${total} total tok/s on ${oneLine(workloadLine(p.workload))}`,
    ...(hasReleaseVersion(p) || p.engine.runtime.kind === 'docker'
      ? []
      : simulatedEngine(p)
        ? [
            `${comment} simulated host: no engine ran; the commands are spelled for ${p.engine.name} ${oneLine(commandRelease(p)!)}: validate them on a GPU host before serving`,
          ]
        : [`${comment} no engine release was recorded (${oneLine(p.engine.version)}): pin the image or version you have validated`]),
  ];
}

/** A DNS-1123 name from the model and engine. */
export function k8sName(p: Pick<Profile, 'variant' | 'engine'>): string {
  const base = `${p.variant.model.split('/').pop() ?? 'model'}-${p.engine.name}`;
  const slug = base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return slug.slice(0, 63).replace(/-$/, '') || 'servelab';
}
