// The Run screen's notes under the live panels: requests in flight (skip, stop after stage,
// abort), the last errors and warning, wrapped (a warning's advice is at its end); and the line
// that says how the run ended.
import React from 'react';
import { Box, Text } from 'ink';
import { wrapLines } from '../../base/format.js';
import type { RunState } from '../../state/run.js';
import { useTheme } from '../../base/theme.js';

export interface MessageLine {
  text: string;
  tone: 'warn' | 'bad';
}

/** The lines RunMessages draws (the screen counts them to size the live panels). */
export function messageLines(run: RunState, width: number): MessageLine[] {
  // Once the run has ended the requests are done and say nothing more.
  const requests =
    run.status === 'finished'
      ? []
      : [
          run.requests.abort ? 'aborting: stopping the server first…' : '',
          run.requests.skip
            ? run.live.length > 1
              ? `skipping ${run.labels[run.requests.skip] ?? run.requests.skip}…`
              : 'skipping this variant…'
            : '',
          run.requests.stopAfterStage ? 'will stop after this stage' : '',
        ].filter(Boolean);
  const notes = [...run.errors.slice(-2).map((m) => ({ m, bad: true })), ...run.warnings.slice(-1).map((m) => ({ m, bad: false }))];
  return [
    ...requests.map((text): MessageLine => ({ text, tone: 'warn' })),
    ...notes.flatMap(({ m, bad }) => wrapLines(m, width, 3).map((text): MessageLine => ({ text, tone: bad ? 'bad' : 'warn' }))),
  ];
}

export function RunMessages({ lines }: { lines: readonly MessageLine[] }): React.JSX.Element {
  const theme = useTheme();
  return (
    <>
      {lines.map((l, i) => (
        <Text key={i} color={theme[l.tone]}>
          {l.text}
        </Text>
      ))}
    </>
  );
}

export function RunFinished({ run }: { run: RunState }): React.JSX.Element {
  const theme = useTheme();
  const code = run.outcome?.exitCode;
  return (
    <Box flexDirection="column">
      <Text color={code === 0 ? theme.good : theme.warn}>
        {code === 0
          ? 'Tuning finished.'
          : code === 130
            ? 'Aborted; finished variants are kept in the journal.'
            : 'The run ended without a winner.'}
      </Text>
      {run.outcome?.profilePath ? <Text wrap="truncate">profile {run.outcome.profilePath}</Text> : null}
    </Box>
  );
}
