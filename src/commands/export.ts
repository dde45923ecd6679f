// `servelab export PROFILE --format shell|docker|systemd|k8s [--out FILE]`: the profile's
// winning server as a launch script, docker line, systemd unit or Kubernetes manifests.
import { writeFileSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import { checkRunnable } from '../profiles/safety/command.js';
import { EXPORT_FORMATS, renderExport, type ExportFormat } from '../profiles/export/render.js';
import { loadProfile } from '../profiles/store/store.js';
import { EXPORT_USAGE, parseExportArgs } from '../cli/export-args.js';

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseExportArgs(argv);
  if (!parsed) return 0;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UserError(`export needs one PROFILE file; ${EXPORT_USAGE}`);
  const format = values.format;
  if (!format) throw new UserError(`export needs --format (${EXPORT_FORMATS.join(', ')})`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UserError(`unknown --format '${format}': use ${EXPORT_FORMATS.join(', ')}`);
  }
  const file = positionals[0]!;
  const profile = loadProfile(file);
  // An exported script runs the argv as it stands: the same rule as replay and serve.
  checkRunnable(profile.engineArgv, profile.env, file, values['allow-any-command'] === true, values['allow-env'] ?? []);
  const text = renderExport(profile, format as ExportFormat, file);
  if (values.out) {
    try {
      writeFileSync(values.out, text, { mode: format === 'shell' ? 0o755 : 0o644 });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UserError(
        `--out ${values.out}: cannot write (${code ?? (e as Error).message})${code === 'ENOENT' ? ': create its folder first' : ''}`,
      );
    }
    process.stderr.write(`servelab: wrote ${values.out}\n`);
  } else {
    process.stdout.write(text);
  }
  return 0;
}
