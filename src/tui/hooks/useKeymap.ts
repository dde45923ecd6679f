// The only place screens read keys: a key press becomes a keymap action for the focused scope.
import { useInput, type Key } from 'ink';
import { burstKeyNames, keyName, resolveKey, type Action, type Scope } from '../keymap.js';

export type Handlers = Partial<Record<Action, () => void>>;

export interface KeymapOptions {
  /** Only the focused screen listens. */
  isActive?: boolean;
  /** When set, printable keys go here (a focused text field) instead of to bindings. */
  onText?: (input: string, key: Key) => void;
}

export function useKeymap(scope: Scope, handlers: Handlers, opts: KeymapOptions = {}): void {
  useInput(
    (input, key) => {
      // A burst of plain keys is each key in turn; in a text field it is typed (or pasted) whole.
      const burst = opts.onText || key.ctrl || key.meta ? null : burstKeyNames(input);
      if (burst) {
        for (const name of burst) {
          const action = resolveKey(scope, name);
          if (action && handlers[action]) handlers[action]!();
        }
        return;
      }
      const name = keyName(input, key);
      const action = resolveKey(scope, name, { textEntry: Boolean(opts.onText) });
      if (action && handlers[action]) {
        handlers[action]!();
        return;
      }
      if (!action && opts.onText) opts.onText(input, key);
    },
    { isActive: opts.isActive ?? true },
  );
}
