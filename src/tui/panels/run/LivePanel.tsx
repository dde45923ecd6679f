// The benchmark in flight: tok/s over time, latencies so far, progress with ETA, server state.
import React from 'react';
import { Box, Text } from 'ink';
import type { CurrentVariant } from '../../state/live.js';
import { etaSeconds } from '../../state/live.js';
import { fmtMs, fmtNum, fmtPct, fmtTokS } from '../../base/format.js';
import { durationText } from '../../../core/duration-text.js';
import { useTheme } from '../../base/theme.js';
import { Sparkline } from '../../components/Sparkline.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { Muted } from '../../components/Title.js';

export interface LivePanelProps {
  current: CurrentVariant;
  width: number;
  /** Wall-clock ms now, for the ETA (the snapshot's own clock is simulated on the simulated host). */
  now: number;
  simulated?: boolean;
}

export function LivePanel({ current, width, now, simulated }: LivePanelProps): React.JSX.Element {
  const theme = useTheme();
  const s = current.snapshot;
  const sparkW = Math.max(8, Math.min(40, Math.floor((width - 44) / 2)));
  const done = s ? s.completed + s.failed : 0;
  const total = s?.total ?? current.numPrompts ?? 0;
  const kv = current.server;
  const wallS = Math.max(0, (now - current.phaseAt) / 1000);
  // The figures take what they need; the bar gets the rest (the figures are never cut).
  const progress = ` ${fmtNum(done)}/${fmtNum(total)}  ${total ? fmtPct((done / total) * 100) : '-'}  ETA ${durationText(etaSeconds(s, wallS))}  elapsed ${durationText(wallS)}${simulated ? ` · sim ${durationText(s?.elapsedS)}` : ''}`;
  // A steady reserve for the figures so the bar does not change length as they change.
  const barW = Math.max(8, Math.min(40, width - 1 - Math.max(progress.length, simulated ? 52 : 40)));
  const lat = (name: string, mean: number | undefined, p99: number | undefined) =>
    `${name.padEnd(5)}${fmtMs(mean).padStart(9)}${fmtMs(p99).padStart(9)}`;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Muted>out </Muted>
        <Sparkline values={current.outHistory} width={sparkW} />
        <Text bold>{` ${fmtTokS(s?.outputTokPerS).padStart(8)}`}</Text>
        <Muted>{' tok/s   total '}</Muted>
        <Sparkline values={current.totalHistory} width={sparkW} />
        <Text bold>{` ${fmtTokS(s?.totalTokPerS).padStart(8)}`}</Text>
        <Muted> tok/s</Muted>
      </Text>
      <Box>
        <Box flexDirection="column" width={25}>
          <Muted>{'         mean      p99'}</Muted>
          <Text>{lat('TTFT', s?.meanTtftMs, s?.p99TtftMs)}</Text>
          {/* TPOT is known only once a request has finished; before that the snapshot holds 0. */}
          <Text>{lat('TPOT', s?.completed ? s.meanTpotMs : undefined, s?.completed ? s.p99TpotMs : undefined)}</Text>
          <Text>{lat('ITL', s?.meanItlMs || undefined, s?.p99ItlMs || undefined)}</Text>
        </Box>
        <Box flexDirection="column" marginLeft={3}>
          <Text>
            running <Text bold>{fmtNum(s?.running)}</Text>
            {kv ? <Muted>{`  server: ${fmtNum(kv.running)} running, ${fmtNum(kv.waiting)} waiting`}</Muted> : null}
          </Text>
          {kv?.genTokPerS ? <Muted>{`server's own gauge: ${fmtTokS(kv.genTokPerS)} tok/s per sequence`}</Muted> : null}
          <Text>
            KV cache{' '}
            <Text bold color={kv?.kvUsage !== undefined && kv.kvUsage > 0.95 ? theme.warn : undefined}>
              {kv?.kvUsage !== undefined ? fmtPct(kv.kvUsage * 100) : '-'}
            </Text>
            {kv && kv.kvUsage === undefined ? <Muted> not reported by the server</Muted> : null}
            {kv && kv.preemptions > 0 ? <Text color={theme.warn}>{`  ${fmtNum(kv.preemptions)} preemptions`}</Text> : null}
          </Text>
          <Text>
            <Text color={s && s.failed > 0 ? theme.bad : undefined}>errors {fmtNum(s?.failed ?? 0)}</Text>
            {/* On traffic that resends prefixes: what the server's prefix cache served so far. */}
            {s?.cacheHitRate !== undefined ? <Text>{`   prefix cache hit ${fmtPct(s.cacheHitRate * 100)}`}</Text> : null}
          </Text>
          {s?.clientBound ? <Text color={theme.warn}>client-bound: the load generator is the bottleneck</Text> : <Text> </Text>}
        </Box>
      </Box>
      <Text wrap="truncate">
        <ProgressBar ratio={total ? done / total : 0} width={barW} />
        {progress}
      </Text>
    </Box>
  );
}
