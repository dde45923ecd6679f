// The one keymap: every key the workbench reacts to is a row here, and the footer help bar is
// drawn from the same rows, so the help can never disagree with what the keys do.
import type { Key } from 'ink';

export type Scope = 'global' | 'text' | 'host' | 'model' | 'plan' | 'run' | 'results' | 'save' | 'replay' | 'view';

export interface Binding {
  action: string;
  scope: Scope;
  /** Normalised key names (see keyName): 'enter', 'up', 'ctrl+c', 's', 'space', 'shift+tab'. */
  keys: readonly string[];
  /** What the help bar shows for the keys, e.g. '↑↓'. */
  label: string;
  help: string;
  /** Listened to but not drawn (e.g. Ctrl+C, which every terminal user knows). */
  hidden?: boolean;
}

export const KEYMAP = [
  { scope: 'host', action: 'gpu-prev', keys: ['up', 'k'], label: '↑↓', help: 'GPU type' },
  { scope: 'host', action: 'gpu-next', keys: ['down', 'j'], label: '↑↓', help: 'GPU type', hidden: true },
  { scope: 'host', action: 'count-dec', keys: ['left', '-', 'h'], label: '←→', help: 'GPU count' },
  { scope: 'host', action: 'count-inc', keys: ['right', '+', '=', 'l'], label: '←→', help: 'GPU count', hidden: true },
  { scope: 'host', action: 'next', keys: ['enter'], label: 'enter', help: 'next' },

  // A focused text field (widgets/text-field): readline's keys. They win over the screen's.
  { scope: 'text', action: 'cursor-left', keys: ['left'], label: '←→', help: 'cursor' },
  { scope: 'text', action: 'cursor-right', keys: ['right'], label: '←→', help: 'cursor', hidden: true },
  { scope: 'text', action: 'line-start', keys: ['ctrl+a', 'home'], label: '^A^E^U^W', help: 'edit' },
  { scope: 'text', action: 'line-end', keys: ['ctrl+e', 'end'], label: '^E', help: 'end of line', hidden: true },
  { scope: 'text', action: 'kill-start', keys: ['ctrl+u'], label: '^U', help: 'erase to start', hidden: true },
  { scope: 'text', action: 'kill-end', keys: ['ctrl+k'], label: '^K', help: 'erase to end', hidden: true },
  { scope: 'text', action: 'kill-word', keys: ['ctrl+w'], label: '^W', help: 'erase word', hidden: true },
  // Ink 6 reports Backspace (DEL) and Delete (ESC [3~) both as `delete`, so both erase backwards;
  // Ctrl-D erases forwards, as in readline.
  { scope: 'text', action: 'delete-back', keys: ['backspace'], label: '⌫', help: 'erase', hidden: true },
  { scope: 'text', action: 'delete-forward', keys: ['ctrl+d'], label: '^D', help: 'erase forward', hidden: true },

  { scope: 'model', action: 'field-prev', keys: ['up', 'shift+tab'], label: '↑↓', help: 'field' },
  { scope: 'model', action: 'field-next', keys: ['down', 'tab'], label: '↑↓', help: 'field', hidden: true },
  { scope: 'model', action: 'choice-prev', keys: ['left'], label: '←→', help: 'choose' },
  { scope: 'model', action: 'choice-next', keys: ['right'], label: '←→', help: 'choose', hidden: true },
  { scope: 'model', action: 'recent', keys: ['ctrl+r'], label: '^R', help: 'recent model' },
  { scope: 'model', action: 'next', keys: ['enter'], label: 'enter', help: 'plan' },
  { scope: 'model', action: 'back', keys: ['escape'], label: 'esc', help: 'back' },

  { scope: 'plan', action: 'up', keys: ['up', 'k'], label: '↑↓', help: 'move' },
  { scope: 'plan', action: 'down', keys: ['down', 'j'], label: '↑↓', help: 'move', hidden: true },
  { scope: 'plan', action: 'toggle', keys: ['space'], label: 'space', help: 'toggle' },
  // Short: every help bar fits one line at 80 columns (test/unit/tui/state.test.ts).
  { scope: 'plan', action: 'toggle-stage', keys: ['t'], label: 't', help: 'stage' },
  { scope: 'plan', action: 'dummy-weights', keys: ['d'], label: 'd', help: 'dummy weights' },
  { scope: 'plan', action: 'next', keys: ['enter'], label: 'enter', help: 'run' },
  { scope: 'plan', action: 'back', keys: ['escape'], label: 'esc', help: 'back' },

  // Several variants running at once: up/down picks the row the skip key stops.
  { scope: 'run', action: 'pick-prev', keys: ['up', 'k'], label: '↑↓', help: 'pick' },
  { scope: 'run', action: 'pick-next', keys: ['down', 'j'], label: '↑↓', help: 'pick', hidden: true },
  { scope: 'run', action: 'skip', keys: ['s'], label: 's', help: 'skip' },
  { scope: 'run', action: 'stop-after-stage', keys: ['t'], label: 't', help: 'stop after stage' },
  { scope: 'run', action: 'toggle-log', keys: ['l'], label: 'l', help: 'log' },
  { scope: 'run', action: 'abort', keys: ['x'], label: 'x', help: 'abort' },
  { scope: 'run', action: 'next', keys: ['enter'], label: 'enter', help: 'results' },

  { scope: 'results', action: 'page-prev', keys: ['left', 'h'], label: '←→', help: 'stage' },
  { scope: 'results', action: 'page-next', keys: ['right', 'l', 'tab'], label: '←→', help: 'stage', hidden: true },
  { scope: 'results', action: 'next', keys: ['enter'], label: 'enter', help: 'save' },

  { scope: 'view', action: 'page-prev', keys: ['left', 'h'], label: '←→', help: 'stage' },
  { scope: 'view', action: 'page-next', keys: ['right', 'l', 'tab'], label: '←→', help: 'stage', hidden: true },
  { scope: 'view', action: 'next', keys: ['enter'], label: 'enter', help: 'close' },

  { scope: 'save', action: 'next', keys: ['enter'], label: 'enter', help: 'done' },

  { scope: 'replay', action: 'next', keys: ['enter'], label: 'enter', help: 'run it / done' },
  { scope: 'replay', action: 'toggle-log', keys: ['l'], label: 'l', help: 'log' },
  { scope: 'replay', action: 'abort', keys: ['x'], label: 'x', help: 'abort' },

  { scope: 'global', action: 'quit', keys: ['q'], label: 'q', help: 'quit' },
  { scope: 'global', action: 'interrupt', keys: ['ctrl+c'], label: '^C', help: 'quit', hidden: true },
] as const satisfies readonly Binding[];

export type Action = (typeof KEYMAP)[number]['action'];

/** One stable name per key press: 'enter', 'up', 'ctrl+c', 'shift+tab', 'space', or the character. */
export function keyName(input: string, key: Key): string {
  if (key.return) return 'enter';
  if (key.escape) return 'escape';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.pageUp) return 'pageup';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.pageDown) return 'pagedown';
  if (key.tab) return key.shift ? 'shift+tab' : 'tab';
  if (key.backspace || key.delete) return 'backspace';
  if (key.ctrl && input) return `ctrl+${input.toLowerCase()}`;
  if (input === ' ') return 'space';
  return input;
}

/**
 * Ink splits a chunk of input at escape sequences only, so several plain keys typed faster than
 * they are read (key repeat, a paste, a slow SSH link) arrive as one input: "lll" or "\r\r".
 * The names of the keys in such a burst, one per key; null for a single key or an escape sequence.
 */
export function burstKeyNames(input: string): string[] | null {
  const chars = [...input];
  if (chars.length < 2 || input.includes('\x1b')) return null;
  return chars.map(charKeyName);
}

/** The key name of one character of a burst: 'enter', 'tab', 'space', 'backspace', 'ctrl+w', or itself. */
export function charKeyName(c: string): string {
  if (c === '\r' || c === '\n') return 'enter';
  if (c === '\t') return 'tab';
  if (c === ' ') return 'space';
  if (c === '\x7f' || c === '\b') return 'backspace';
  const code = c.codePointAt(0)!;
  return code < 32 ? `ctrl+${String.fromCharCode(code + 96)}` : c;
}

/** Keys that, while a text field has focus, type into it instead of triggering a binding. */
export function isTextKey(name: string): boolean {
  return name === 'space' || name === 'backspace' || (name.length === 1 && name >= ' ');
}

function bound(scope: Scope, name: string): Action | undefined {
  return KEYMAP.find((b) => b.scope === scope && (b.keys as readonly string[]).includes(name))?.action;
}

/**
 * The action a key triggers in a scope: the scope's own bindings first, then the global ones.
 * With `textEntry` (a text field has focus), printable keys and the field's own keys (the 'text'
 * scope) belong to the field and trigger nothing here. The 'text' scope has no global keys.
 */
export function resolveKey(scope: Scope, name: string, opts: { textEntry?: boolean } = {}): Action | undefined {
  if (scope === 'text') return bound('text', name);
  if (opts.textEntry && (isTextKey(name) || bound('text', name))) return undefined;
  return bound(scope, name) ?? bound('global', name);
}

export interface HelpItem {
  label: string;
  help: string;
}

/**
 * The help bar for a scope: its visible bindings, then the global ones, minus the actions the
 * screen says are unavailable right now (`without`). In text entry, the global letter keys
 * (q) are not available, so they are not shown either.
 */
export function helpItems(scope: Scope, opts: { without?: readonly string[]; textEntry?: boolean } = {}): HelpItem[] {
  const skip = new Set(opts.without ?? []);
  const seen = new Set<string>();
  const out: HelpItem[] = [];
  const scopes: Scope[] = opts.textEntry ? ['text', scope, 'global'] : [scope, 'global'];
  const rows = scopes.flatMap((sc) => (KEYMAP as readonly Binding[]).filter((b) => b.scope === sc));
  for (const b of rows) {
    if ('hidden' in b && b.hidden) continue;
    if (skip.has(b.action)) continue;
    // In text entry the field owns printable keys and its own keys, so bindings on them are not shown.
    if (opts.textEntry && b.scope !== 'text' && b.keys.every((k) => isTextKey(k) || bound('text', k))) continue;
    // A scope may override a global key (e.g. 'q' typed elsewhere); show each label once.
    if (seen.has(b.label + b.help)) continue;
    seen.add(b.label + b.help);
    out.push({ label: b.label, help: b.help });
  }
  return out;
}
