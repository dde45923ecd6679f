// Step 2: the model (id or local path, recent ones) with what its config says and its weight
// size per dtype, and the workload: scenario, lengths, prompts, seed, objective and SLOs.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { fmtBytes, fmtNum, fmtParams, truncate, wrapLines } from '../tui/base/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useTheme } from '../tui/base/theme.js';
import { focusedField, focusedText, visibleFields, type FieldSpec, type WizardAction, type WizardState } from '../tui/state/wizard.js';
import { TextField } from '../tui/widgets/text-field/TextField.js';
import type { TextFieldState } from '../tui/widgets/text-field/state.js';
import { useTextField } from '../tui/widgets/text-field/use-text-field.js';
import type { ModelView } from '../tui/services/types.js';
import type { ScreenProps } from '../tui/screen-props.js';

export interface ModelScreenProps extends Omit<ScreenProps, 'height'> {
  wizard: WizardState;
  dispatch: (a: WizardAction) => void;
  model: ModelView | null;
  recent: readonly string[];
  /** Problems with the form that block going on (bad SLO, missing dataset...). */
  problems: readonly string[];
  onNext: () => void;
  onBack: () => void;
}

function ModelFacts({ m }: { m: ModelView | null }): React.JSX.Element {
  const theme = useTheme();
  if (!m) return <Muted>…</Muted>;
  if (!m.known) return <Text color={theme.warn}>{m.note ?? 'no config.json found for this model: sizes unknown'}</Text>;
  const kind = m.moe ? `(${fmtParams(m.activeParamsB)} active) · MoE ${m.moe.experts} experts, ${m.moe.perToken}/token` : '· dense';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        {m.architecture ?? '?'} · {fmtParams(m.paramsB)} params {kind}
      </Text>
      <Text wrap="truncate">
        {fmtNum(m.layers)} layers · {fmtNum(m.heads)} heads / {fmtNum(m.kvHeads)} KV · context {fmtNum(m.contextLen)} · checkpoint{' '}
        {m.checkpointDtype ?? '?'}
      </Text>
      {m.note ? <Muted wrap="truncate">{m.note}</Muted> : null}
      <Text wrap="truncate">
        weights{' '}
        {m.weights.map((w) => (
          <Text key={w.dtype}>
            <Text color={theme.accent}>{w.dtype}</Text> {fmtBytes(w.bytes)}
            {'  '}
          </Text>
        ))}
      </Text>
    </Box>
  );
}

function FieldRow({
  f,
  focused,
  value,
  width,
}: {
  f: FieldSpec;
  focused: boolean;
  value: TextFieldState;
  width: number;
}): React.JSX.Element {
  const theme = useTheme();
  const labelW = 14;
  const valueW = Math.max(10, width - labelW - 4);
  return (
    <Text wrap="truncate">
      <Text color={focused ? theme.accent : undefined} bold={focused}>
        {(focused ? theme.glyph.focus : ' ') + ' ' + f.label.padEnd(labelW)}
      </Text>
      {f.kind === 'choice' ? (
        <Text>{truncate(focused ? `‹ ${value.value} ›` : value.value, valueW)}</Text>
      ) : (
        <TextField state={value} width={valueW} focused={focused} {...(f.hint ? { hint: f.hint } : {})} />
      )}
    </Text>
  );
}

export function ModelScreen(p: ModelScreenProps): React.JSX.Element {
  const theme = useTheme();
  const field = focusedField(p.wizard);
  const textEntry = field.kind !== 'choice';
  const isActive = p.isActive ?? true;
  useKeymap(
    'model',
    {
      'field-prev': () => p.dispatch({ type: 'field-step', dir: -1 }),
      'field-next': () => p.dispatch({ type: 'field-step', dir: 1 }),
      'choice-prev': () => p.dispatch({ type: 'choice-step', dir: -1 }),
      'choice-next': () => p.dispatch({ type: 'choice-step', dir: 1 }),
      recent: () => p.dispatch({ type: 'recent', models: p.recent }),
      next: () => p.problems.length === 0 && p.onNext(),
      back: p.onBack,
      quit: p.onQuit,
      interrupt: p.onInterrupt ?? p.onQuit,
    },
    { isActive, textEntry },
  );
  // The focused text field reads its own keys (readline editing); the screen keeps the rest.
  useTextField((edit) => p.dispatch({ type: 'edit', edit }), { isActive: isActive && textEntry });
  return (
    <Box flexDirection="column">
      <Title step={2} name="Model and workload" />
      {visibleFields(p.wizard.form).map((f) => {
        const focused = f.key === field.key;
        const value = focused ? focusedText(p.wizard) : { value: String(p.wizard.form[f.key]), cursor: 0 };
        return (
          <Box key={f.key} flexDirection="column">
            <FieldRow f={f} focused={focused} value={value} width={p.width} />
            {f.key === 'model' ? (
              <Box flexDirection="column" marginLeft={4}>
                <ModelFacts m={p.model} />
                {p.recent.length ? <Muted wrap="truncate">recent: {p.recent.slice(0, 3).join(', ')}</Muted> : null}
              </Box>
            ) : null}
          </Box>
        );
      })}
      {p.problems.flatMap((m) =>
        // Wrapped, not cut: the advice (what to type) is at the end of the --auto wording.
        wrapLines(m, p.width, 3).map((l, i) => (
          <Text key={`${m}:${i}`} color={theme.bad}>
            {l}
          </Text>
        )),
      )}
      <Box marginTop={1}>
        <Footer scope="model" textEntry={textEntry} without={p.recent.length ? [] : ['recent']} />
      </Box>
    </Box>
  );
}
