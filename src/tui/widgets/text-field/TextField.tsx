// The text field's view: the value with the cursor drawn as an inverse cell (a bar at the end),
// scrolled so the cursor stays visible, and a dimmed hint while it is empty.
import React from 'react';
import { Text } from 'ink';
import { Muted } from '../../components/Title.js';
import { truncate } from '../../base/format.js';
import { visibleSlice, type TextFieldState } from './state.js';

export interface TextFieldProps {
  state: TextFieldState;
  /** Cells the field may use. */
  width: number;
  focused: boolean;
  hint?: string;
}

export function TextField({ state, width, focused, hint }: TextFieldProps): React.JSX.Element {
  if (!focused) {
    return state.value ? <Text>{truncate(state.value, width)}</Text> : <Muted>{hint ? truncate(hint, width) : ''}</Muted>;
  }
  const { text, cursor } = visibleSlice(state, width);
  const chars = [...text];
  const under = chars[cursor];
  return (
    <Text>
      {chars.slice(0, cursor).join('')}
      {under === undefined ? '▏' : <Text inverse>{under}</Text>}
      {chars.slice(cursor + 1).join('')}
      {state.value === '' && hint ? <Muted>{truncate(` ${hint}`, Math.max(0, width - 1))}</Muted> : null}
    </Text>
  );
}
