// Semantic colours: screens say what a thing is (good, bad, muted), never which colour it is.
// NO_COLOR (https://no-color.org: present and not empty) drops every colour; meaning never rests
// on colour alone (pruned rows also say "pruned", the focused row also has a marker).
import { createContext, useContext } from 'react';

export interface Theme {
  /** Colour names as Ink's <Text color> takes them, or undefined for the terminal default. */
  accent?: string;
  good?: string;
  bad?: string;
  warn?: string;
  info?: string;
  muted?: string;
  /** Whether muted text is also dimmed (kept under NO_COLOR: dim is not a colour). */
  dimMuted: boolean;
  /** Glyphs, so a dumb terminal can get plain ASCII. */
  glyph: { focus: string; on: string; off: string; ok: string; fail: string; spark: string[]; barFull: string; barEmpty: string };
}

const glyph = {
  focus: '›',
  on: '[x]',
  off: '[ ]',
  ok: '✓',
  fail: '✗',
  spark: ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'],
  barFull: '█',
  barEmpty: '░',
};

export const colourTheme: Theme = {
  accent: 'cyan',
  good: 'green',
  bad: 'red',
  warn: 'yellow',
  info: 'blue',
  muted: 'gray',
  dimMuted: false,
  glyph,
};

export const plainTheme: Theme = { dimMuted: true, glyph };

/** NO_COLOR counts when set to any non-empty value. */
export function noColorRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  return typeof env.NO_COLOR === 'string' && env.NO_COLOR !== '';
}

export function themeFromEnv(env: NodeJS.ProcessEnv = process.env): Theme {
  return noColorRequested(env) ? plainTheme : colourTheme;
}

export const ThemeContext = createContext<Theme>(colourTheme);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
