// A profile's winning server as something to deploy: a launch script, a `docker run` line, a
// systemd unit or a Kubernetes Deployment + Service. Every format carries the recorded argv
// unchanged, except that a container must listen on all interfaces.
import { stringify } from 'yaml';
import { ENGINE_IMAGES } from './command.js';
import { formatCommand, shellQuote } from '../core/shell-quote.js';
import { hardwareLine, workloadLine } from './report.js';
import type { Profile } from './schema.js';
import { commandRelease, engineVersionText, hasReleaseVersion, simulatedEngine } from './engine-version.js';
import { relocateFiles } from './files.js';
import { slurmScript } from './slurm-script.js';
import { leaderSelector, leaderWorkerSet, profileNodes } from './k8s-lws.js';
import { heredocDelimiter, oneLine } from './hostile.js';

/** Where exported commands find the profile's files: on the host, and inside a container. */
const FILES_IN_CONTAINER = '/etc/servelab';
const DIR_MARK = '@@SERVELAB_DIR@@';

/** Shell words for argv where DIR_MARK stands for the files folder in "$dir". */
function shellWords(argv: readonly string[]): string {
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
function filesPreamble(p: Profile): string[] {
  if (!p.files.length) return [];
  const lines = [`dir="\${SERVELAB_FILES_DIR:-\$HOME/.config/servelab/${k8sName(p)}}"`, 'mkdir -p "$dir"'];
  for (const f of p.files) {
    const name = f.path.split('/').pop()!;
    const eof = heredocDelimiter(f.content);
    lines.push(`cat > "$dir"/${shellQuote(name)} <<'${eof}'`, f.content.replace(/\n$/, ''), eof);
  }
  return lines;
}

export const EXPORT_FORMATS = ['shell', 'docker', 'systemd', 'k8s', 'slurm'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// llama-server: `--port PORT ... (default: 8080)`, tools/server/README.md at 80fb11a.
const DEFAULT_PORT = { vllm: 8000, sglang: 30000, trtllm: 8000, llamacpp: 8080 } as const;
const HEALTH_PATH = '/health';
const HF_CACHE_IN_CONTAINER = '/root/.cache/huggingface';

/**
 * The engine's official image at the release the commands are for (engine-version.ts: the
 * recorded one, or on the simulated host the one they were spelled for), or the image the profile
 * ran. Without either it is `latest`, and the exports say to pin it.
 */
export function officialImage(p: Pick<Profile, 'engine' | 'variant' | 'host'>): string {
  if (p.engine.runtime.kind === 'docker') return p.engine.runtime.image;
  const v = commandRelease(p);
  switch (p.engine.name) {
    case 'vllm':
      return `${ENGINE_IMAGES.vllm}:${v ? `v${v}` : 'latest'}`;
    case 'sglang':
      return `${ENGINE_IMAGES.sglang}:${v ? `v${v}` : 'latest'}`;
    case 'trtllm':
      return `${ENGINE_IMAGES.trtllm}:${v ?? 'latest'}`;
    case 'llamacpp': // tagged by build number (b1234), not by 0.4.0-dev: `server` is the newest CPU image
      return `${ENGINE_IMAGES.llamacpp}:server`;
  }
}

function flagValue(argv: readonly string[], name: string): string | undefined {
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
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_PORT[p.engine.name];
}

/** The argv with `--host 0.0.0.0` (replacing any other bind address): a container must listen on all interfaces. */
export function containerArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  let found = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--host') {
      out.push('--host', '0.0.0.0');
      i++;
      found = true;
    } else if (a.startsWith('--host=')) {
      out.push('--host=0.0.0.0');
      found = true;
    } else out.push(a);
  }
  if (!found) out.push('--host', '0.0.0.0');
  return out;
}

function header(p: Profile, file: string, comment: string): string[] {
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

export function k8sManifests(p: Profile): Record<string, unknown>[] {
  const name = k8sName(p);
  const port = serverPort(p);
  const argv = containerArgv(relocateFiles(p.engineArgv, p.files, FILES_IN_CONTAINER).argv);
  const filesMap = `${name}-files`;
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/managed-by': 'servelab' };
  const gpus = String(p.host.gpuCount);
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: p.engine.name,
              image: officialImage(p),
              command: [argv[0]!],
              args: argv.slice(1),
              ports: [{ name: 'http', containerPort: port }],
              env: [
                ...Object.entries(p.env).map(([k, v]) => ({ name: k, value: v })),
                { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token', optional: true } } },
              ],
              resources: { limits: { 'nvidia.com/gpu': gpus }, requests: { 'nvidia.com/gpu': gpus } },
              // Loading can take many minutes: the startup probe allows 30 min before readiness applies.
              startupProbe: { httpGet: { path: HEALTH_PATH, port: 'http' }, periodSeconds: 10, failureThreshold: 180 },
              readinessProbe: { httpGet: { path: HEALTH_PATH, port: 'http' }, periodSeconds: 10, failureThreshold: 3 },
              volumeMounts: [
                { name: 'hf-cache', mountPath: HF_CACHE_IN_CONTAINER },
                { name: 'dshm', mountPath: '/dev/shm' },
                ...(p.files.length ? [{ name: 'engine-files', mountPath: FILES_IN_CONTAINER, readOnly: true }] : []),
              ],
            },
          ],
          volumes: [
            { name: 'hf-cache', persistentVolumeClaim: { claimName: 'hf-cache' } },
            // Tensor-parallel workers share memory through /dev/shm (docker's --ipc=host).
            { name: 'dshm', emptyDir: { medium: 'Memory' } },
            ...(p.files.length ? [{ name: 'engine-files', configMap: { name: filesMap } }] : []),
          ],
        },
      },
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels },
    spec: {
      selector: { 'app.kubernetes.io/name': name },
      ports: [{ name: 'http', port, targetPort: 'http', protocol: 'TCP' }],
      type: 'ClusterIP',
    },
  };
  // A server over several nodes: one LeaderWorkerSet pod per node, the Service on the leader (k8s-lws.ts).
  if (profileNodes(p) > 1) {
    const lws = leaderWorkerSet(p, name, deployment.spec.template, argv);
    service.spec.selector = leaderSelector(name) as typeof service.spec.selector;
    if (!p.files.length) return [lws, service];
    return [configMapOf(p, filesMap, labels), lws, service];
  }
  if (!p.files.length) return [deployment, service];
  return [configMapOf(p, filesMap, labels), deployment, service];
}

function configMapOf(p: Profile, name: string, labels: Record<string, string>): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels },
    data: Object.fromEntries(p.files.map((f) => [f.path.split('/').pop()!, f.content])),
  };
}

export function exportK8s(p: Profile, file: string): string {
  const docs = k8sManifests(p).map((d) => stringify(d, { lineWidth: 0, aliasDuplicateObjects: false }).trimEnd());
  return [
    ...header(p, file, '#'),
    '# Needs the NVIDIA device plugin, a PersistentVolumeClaim named hf-cache and (for gated models) a Secret hf-token.',
    docs.join('\n---\n'),
    '',
  ].join('\n');
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
