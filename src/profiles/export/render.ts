// The export formats and the one switch that renders a profile in each: a launch script, a
// `docker run` line, a systemd unit, Kubernetes manifests or an sbatch script, one file per format
// beside this one. Every format carries the recorded argv unchanged, except that a container
// must listen on all interfaces.
import type { Profile } from '../schema/profile.js';
import { slurmScript } from './slurm.js';
import { exportK8s } from './k8s.js';
import { exportShell } from './shell.js';
import { exportDocker } from './docker.js';
import { exportSystemd } from './systemd.js';

export const EXPORT_FORMATS = ['shell', 'docker', 'systemd', 'k8s', 'slurm'] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

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
