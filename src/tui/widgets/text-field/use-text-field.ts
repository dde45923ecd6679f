// The text field's input hook: readline keys (the keymap's 'text' scope: arrows, Ctrl-A/E/U/K/W,
// Backspace, Ctrl-D) become edits; printable input, pasted or typed in a burst, is inserted.
// Only the focused field listens; the screen around it keeps its own keys (Enter, Esc, Tab...).
import { useKeymap, type Handlers } from '../../hooks/useKeymap.js';
import { charKeyName, resolveKey } from '../../base/keymap.js';
import type { TextFieldAction } from './state.js';

export interface TextFieldInputOptions {
  isActive: boolean;
  /** Keeps only what the field accepts from typed text (e.g. digits in a number field). */
  accept?: (text: string) => string;
}

/** Control characters never enter a field (a pasted newline or escape would corrupt it). */
export const printable = (text: string) => text.replace(/[\x00-\x1f\x7f]/g, '');

export function useTextField(dispatch: (a: TextFieldAction) => void, opts: TextFieldInputOptions): void {
  const accept = opts.accept ?? printable;
  const handlers: Handlers = {
    'cursor-left': () => dispatch({ type: 'left' }),
    'cursor-right': () => dispatch({ type: 'right' }),
    'line-start': () => dispatch({ type: 'start' }),
    'line-end': () => dispatch({ type: 'end' }),
    'kill-start': () => dispatch({ type: 'kill-start' }),
    'kill-end': () => dispatch({ type: 'kill-end' }),
    'kill-word': () => dispatch({ type: 'kill-word' }),
    'delete-back': () => dispatch({ type: 'delete-back' }),
    'delete-forward': () => dispatch({ type: 'delete-forward' }),
  };
  useKeymap('text', handlers, {
    isActive: opts.isActive,
    onText: (input, key) => {
      if (!input || key.ctrl || key.meta) return;
      // A burst of keys can arrive as one chunk (a paste, key repeat, a slow link): its control
      // keys (Backspace, Ctrl-W...) edit in turn, the rest is typed.
      for (const part of input.split(/([\x00-\x1f\x7f])/)) {
        if (!part) continue;
        if (part.length === 1 && /[\x00-\x1f\x7f]/.test(part)) {
          const action = resolveKey('text', charKeyName(part));
          if (action) handlers[action]?.();
        } else if (accept(part)) dispatch({ type: 'insert', text: accept(part) });
      }
    },
  });
}
