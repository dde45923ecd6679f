// `export --format systemd`: a profile's winning server as a systemd unit, the recorded argv in
// systemd's own quoting and the profile's files described for the user to write first.
import type { Profile } from '../schema/profile.js';
import { engineVersionText } from '../report/engine-version.js';
import { relocateFiles } from '../store/files.js';
import { oneLine } from '../safety/hostile.js';
import { FILES_IN_CONTAINER, header, k8sName } from './common.js';

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
