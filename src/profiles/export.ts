// A profile's winning server as something to deploy: a launch script, a `docker run` line, a
// systemd unit or a Kubernetes Deployment + Service. Every format carries the recorded argv
// unchanged, except that a container must listen on all interfaces.
import { shellQuote } from '../core/shell-quote.js';
import type { Profile } from './schema.js';
import { engineVersionText } from './engine-version.js';
import { relocateFiles } from './files.js';
import { slurmScript } from './slurm-script.js';
import { oneLine } from './hostile.js';
import {
  containerArgv,
  DIR_MARK,
  FILES_IN_CONTAINER,
  filesPreamble,
  header,
  HF_CACHE_IN_CONTAINER,
  k8sName,
  officialImage,
  serverPort,
  shellWords,
} from './export-common.js';
import { exportK8s } from './export-k8s.js';

export const EXPORT_FORMATS = ['shell', 'docker', 'systemd', 'k8s', 'slurm'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportShell(p: Profile, file: string): string {
  const lines = [
    '#!/usr/bin/env bash',
    ...header(p, file, '#'),
    '# Extra arguments to this script are passed to the server.',
    'set -euo pipefail',
  ];
  for (const [k, v] of Object.entries(p.env)) lines.push(`export ${k}=${shellQuote(v)}`);
  lines.push(...filesPreamble(p));
  const { argv } = relocateFiles(p.engineArgv, p.files, DIR_MARK);
  lines.push(`exec ${shellWords(argv)} "$@"`, '');
  return lines.join('\n');
}

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
    '--gpus',
    'all',
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

/** systemd's own quoting for ExecStart: double quotes with C escapes; `$` and `%` doubled. */
export function systemdQuote(arg: string): string {
  const escaped = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (escaped !== '' && /^[A-Za-z0-9_@+=:,./-]+$/.test(escaped.replace(/%%|\$\$/g, ''))) return escaped;
  return `"${escaped.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

export function exportSystemd(p: Profile, file: string): string {
  const dir = `${FILES_IN_CONTAINER}/${k8sName(p)}`;
  const { argv, files } = relocateFiles(p.engineArgv, p.files, dir);
  const fileNotes = files.flatMap((f) => [
    `# Write ${oneLine(f.path)} first, with this content:`,
    ...f.content
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => `#   ${oneLine(l)}`),
  ]);
  const lines = [
    ...header(p, file, '#'),
    ...fileNotes,
    '# systemd finds a bare executable in its own PATH (/usr/local/bin:/usr/bin...); give an',
    '# absolute path if the engine lives in a virtualenv. HF_TOKEN can go in the EnvironmentFile.',
    '[Unit]',
    `Description=${oneLine(`servelab: ${p.model} (${p.engine.name} ${engineVersionText(p)})`).replace(/%/g, '%%')}`,
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=simple',
    'EnvironmentFile=-/etc/default/servelab',
  ];
  for (const [k, v] of Object.entries(p.env)) lines.push(`Environment=${systemdQuote(`${k}=${v}`)}`);
  lines.push(
    `ExecStart=${argv.map(systemdQuote).join(' ')}`,
    'Restart=on-failure',
    'RestartSec=10',
    // Large models take many minutes to load.
    'TimeoutStartSec=1800',
    'TimeoutStopSec=60',
    'KillMode=control-group',
    'LimitNOFILE=65536',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  );
  return lines.join('\n');
}

export function renderExport(p: Profile, format: ExportFormat, file: string): string {
  switch (format) {
    case 'shell':
      return exportShell(p, file);
    case 'docker':
      return exportDocker(p, file);
    case 'systemd':
      return exportSystemd(p, file);
    case 'k8s':
      return exportK8s(p, file);
    case 'slurm':
      return slurmScript(p, file);
  }
}
