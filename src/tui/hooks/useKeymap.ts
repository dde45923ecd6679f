// The only place screens read keys: a key press becomes a keymap action for the focused scope.
import { useInput, type Key } from 'ink';
import { burstKeyNames, keyName, resolveKey, type Action, type Scope } from '../base/keymap.js';

export type Handlers = Partial<Record<Action, () => void>>;

export interface KeymapOptions {
  /** Only the focused screen listens. */
  isActive?: boolean;
  /** A text field has focus: printable keys and the field's keys are its, not this scope's. */
  textEntry?: boolean;
  /** Printable input (typed, pasted or in a burst) goes here: the focused text field's hook. */
  onText?: (input: string, key: Key) => void;
}

export function useKeymap(scope: Scope, handlers: Handlers, opts: KeymapOptions = {}): void {
  useInput(
    (input, key) => {
      // A burst of plain keys is each key in turn; in a text field it is typed (or pasted) whole.
      const typing = Boolean(opts.onText || opts.textEntry);
      const burst = typing || key.ctrl || key.meta ? null : burstKeyNames(input);
      if (burst) {
        for (const name of burst) {
          const action = resolveKey(scope, name);
          if (action && handlers[action]) handlers[action]!();
        }
        return;
      }
      const name = keyName(input, key);
      const action = resolveKey(scope, name, { textEntry: typing });
      if (action && handlers[action]) {
        handlers[action]!();
        return;
      }
      if (!action && opts.onText) opts.onText(input, key);
    },
    { isActive: opts.isActive ?? true },
  );
}
