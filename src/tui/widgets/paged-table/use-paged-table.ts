// The paged table's input hook: the keymap's page-prev/page-next of the screen's scope.
import { useKeymap } from '../../hooks/useKeymap.js';
import type { Scope } from '../../base/keymap.js';

export function usePagedTable(scope: Scope, onPage: (dir: 1 | -1) => void, opts: { isActive?: boolean } = {}): void {
  useKeymap(scope, { 'page-prev': () => onPage(-1), 'page-next': () => onPage(1) }, { isActive: opts.isActive });
}
