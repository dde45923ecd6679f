// `export --format docker`: a profile's winning server as a `docker run` line on the engine's
// official image, the recorded argv as entrypoint and arguments, listening on all interfaces
// (`servelab serve --docker` runs the same argv).
import { shellQuote } from '../../core/shell-quote.js';
import type { Profile } from '../schema/profile.js';
import { relocateFiles } from '../store/files.js';
import { dockerGpuArgs } from '../../host/device-env.js';
import {
  containerArgv,
  DIR_MARK,
  FILES_IN_CONTAINER,
  filesPreamble,
  header,
  HF_CACHE_IN_CONTAINER,
  officialImage,
  serverPort,
} from './common.js';

/**
 * `docker run` line: the official image, the recorded argv as entrypoint + arguments. The
 * profile's files are mounted from `filesDir` on the host (where the caller writes them); an
 * export leaves a mark there that the script replaces with its own folder.
 */
export function dockerArgv(p: Profile, filesDir: string = DIR_MARK): string[] {
  const port = serverPort(p);
  const engineArgv = containerArgv(relocateFiles(p.engineArgv, p.files, FILES_IN_CONTAINER).argv);
  const argv = [
    'docker',
    'run',
    '--rm',
    ...dockerGpuArgs(p.host.vendor, undefined).args,
    '--ipc=host',
    '-p',
    `${port}:${port}`,
    '-v',
    `\${HOME}/.cache/huggingface:${HF_CACHE_IN_CONTAINER}`,
    '-e',
    'HF_TOKEN',
  ];
  if (p.files.length) argv.push('-v', `${filesDir}:${FILES_IN_CONTAINER}:ro`);
  for (const [k, v] of Object.entries(p.env)) argv.push('-e', `${k}=${v}`);
  argv.push('--entrypoint', engineArgv[0]!, officialImage(p), ...engineArgv.slice(1));
  return argv;
}

export function exportDocker(p: Profile, file: string): string {
  // ${HOME} stays unquoted so the shell expands it; everything else is quoted as needed.
  const line = dockerArgv(p)
    .map((a) =>
      a.startsWith('${HOME}') ? `"${a}"` : a.startsWith(DIR_MARK) ? `"$dir"${shellQuote(a.slice(DIR_MARK.length))}` : shellQuote(a),
    )
    .join(' ');
  return [
    ...header(p, file, '#'),
    `# needs ${p.host.gpuCount} GPU(s); HF_TOKEN is read from your environment`,
    ...filesPreamble(p),
    line,
    '',
  ].join('\n');
}
