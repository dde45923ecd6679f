// The checklist's input hook: the keymap's move and toggle actions of the screen's scope become
// checklist actions. Only the focused checklist listens.
import { useKeymap } from '../../hooks/useKeymap.js';
import type { Scope } from '../../base/keymap.js';

export interface ChecklistInput {
  onMove: (dir: 1 | -1) => void;
  /** Space on the focused row. */
  onToggle: () => void;
  /** 't': the focused row's whole group. */
  onToggleGroup?: () => void;
}

export function useChecklist(scope: Scope, input: ChecklistInput, opts: { isActive?: boolean } = {}): void {
  useKeymap(
    scope,
    {
      up: () => input.onMove(-1),
      down: () => input.onMove(1),
      toggle: input.onToggle,
      ...(input.onToggleGroup ? { 'toggle-stage': input.onToggleGroup } : {}),
    },
    { isActive: opts.isActive },
  );
}
