// The plan's per-variant checks before a launch is planned: does a --drop pattern name it, is its
// command the carried winner's (a no-op change), and can its command be built at all.
import type { Variant } from '../../core/variant.js';
import type { PlanDeps } from './types.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

export function matchesDrop(pattern: string, v: Variant, change: string): boolean {
  const p = pattern.trim();
  if (!p) return false;
  if (p === v.id || p === change || p === v.label) return true;
  if (p.includes('*')) {
    const re = new RegExp(
      '^' +
        p
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*') +
        '$',
    );
    return re.test(v.id) || re.test(change);
  }
  return false;
}

export function sameCommand(a: LaunchSpec | undefined, b: LaunchSpec | undefined): boolean {
  if (!a || !b) return false;
  return JSON.stringify([a.argv, a.engineArgv, a.env]) === JSON.stringify([b.argv, b.engineArgv, b.env]);
}

export function tryCommand(deps: PlanDeps, v: Variant): { spec?: LaunchSpec; error?: string } {
  try {
    return { spec: deps.command(v) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
