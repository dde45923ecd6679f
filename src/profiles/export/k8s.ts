// A profile's winning server as Kubernetes manifests: a Deployment (or a LeaderWorkerSet for a
// multi-node profile), its Service and the ConfigMap of the profile's files.
import { stringify } from 'yaml';
import { relocateFiles } from '../store/files.js';
import { k8sGpuResource } from '../../host/device-env.js';
import { leaderSelector, leaderWorkerSet, profileNodes } from './k8s-lws.js';
import type { Profile } from '../schema/profile.js';
import {
  containerArgv,
  FILES_IN_CONTAINER,
  HEALTH_PATH,
  HF_CACHE_IN_CONTAINER,
  header,
  k8sName,
  officialImage,
  serverPort,
} from './common.js';

export function k8sManifests(p: Profile): Record<string, unknown>[] {
  const name = k8sName(p);
  const port = serverPort(p);
  const argv = containerArgv(relocateFiles(p.engineArgv, p.files, FILES_IN_CONTAINER).argv);
  const filesMap = `${name}-files`;
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/managed-by': 'servelab' };
  const gpus = String(p.host.gpuCount);
  const gpuKey = k8sGpuResource(p.host.vendor);
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
              resources: { limits: { [gpuKey]: gpus }, requests: { [gpuKey]: gpus } },
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
