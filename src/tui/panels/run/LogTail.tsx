import React from 'react';
import { Box, Text } from 'ink';
import { truncate } from '../../base/format.js';
import { Muted } from '../../components/Title.js';

/** The last `lines` lines of a server's log, each cut to the width (never wrapping the layout). */
export function LogTail({ lines, count, width }: { lines: readonly string[]; count: number; width: number }): React.JSX.Element {
  const tail = lines.slice(-count);
  return (
    <Box flexDirection="column" height={count}>
      {tail.length === 0 ? <Muted>(no output yet)</Muted> : null}
      {tail.map((l, i) => (
        <Text key={i}>
          <Muted>{truncate(l.replace(/\t/g, '  ').replace(/[\r\x1b]/g, ''), width - 2)}</Muted>
        </Text>
      ))}
    </Box>
  );
}
