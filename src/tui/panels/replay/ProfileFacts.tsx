// What `servelab replay` shows before and after it runs: the profile's facts and what differs on
// this host (with the exact command), and recorded vs now per metric.
import React from 'react';
import { Box, Text } from 'ink';
import type { ReplaySetup } from '../../../tune/replay/replay.js';
import type { MetricDelta } from '../../../profiles/report/verdict.js';
import { fmtMs, fmtPct, fmtTokS, wrapLines } from '../../base/format.js';
import { formatCommand } from '../../../core/shell-quote.js';
import { useTheme } from '../../base/theme.js';
import { Command } from '../../components/Command.js';
import type { Column } from '../../components/Table.js';
import { Muted } from '../../components/Title.js';

const fmtDelta = (d: MetricDelta, v: number | null) => (d.unit === 'ms' ? fmtMs(v) : fmtTokS(v));

export const deltaColumns: Column<MetricDelta>[] = [
  { key: 'metric', header: 'metric', width: 22, render: (d) => d.label },
  { key: 'rec', header: 'recorded', width: 10, align: 'right', render: (d) => fmtDelta(d, d.recorded) },
  { key: 'now', header: 'now', width: 10, align: 'right', render: (d) => fmtDelta(d, d.now) },
  {
    key: 'delta',
    header: 'delta',
    width: 8,
    align: 'right',
    render: (d) => fmtPct(d.deltaPct, true),
    tone: (d) =>
      d.deltaPct === null || Math.abs(d.deltaPct) < 0.05 ? undefined : d.deltaPct > 0 === (d.better === 'higher') ? 'good' : 'bad',
  },
];

export function ProfileFacts({
  setup,
  width,
  withCommand,
  maxDiffs,
}: {
  setup: ReplaySetup;
  width: number;
  withCommand: boolean;
  maxDiffs: number;
}): React.JSX.Element {
  const theme = useTheme();
  const p = setup.profile;
  const m = p.metrics;
  const row = (label: string, value: string) => (
    <Text wrap="truncate">
      <Text bold>{label.padEnd(11)}</Text>
      {value}
    </Text>
  );
  return (
    <Box flexDirection="column">
      {row('model', `${p.model}  ·  ${p.engine.name} ${p.engine.version} (${p.engine.runtime.kind})`)}
      {row(
        'tuned on',
        `${p.host.gpuCount} x ${p.host.gpuName}${p.host.simulated ? ' (simulated)' : ''}  ·  ${p.createdAt.slice(0, 10)}${p.source === 'study' ? ' (published study)' : ''}`,
      )}
      {row(
        'recorded',
        `${fmtTokS(m.total_token_throughput)} tok/s total  ·  TTFT ${fmtMs(m.mean_ttft_ms)}  ·  TPOT ${fmtMs(m.mean_tpot_ms)}`,
      )}
      {row('workload', `${setup.scenario.label ?? setup.scenario.name}  ·  ${setup.scenario.numPrompts} prompts`)}
      {setup.differences.length === 0
        ? row('this host', 'same GPU type and count as when tuned')
        : setup.differences.slice(0, maxDiffs).map((d, i) => (
            <Text key={i} color={theme.warn}>
              {wrapLines(d, width - 11, 2)
                .map((l, k) => (k === 0 && i === 0 ? 'differs' : '').padEnd(11) + l)
                .join('\n')}
            </Text>
          ))}
      {withCommand ? (
        <Box marginTop={1} flexDirection="column">
          <Text bold>It will run:</Text>
          <Command command={formatCommand(setup.spec.engineArgv, setup.profile.env)} width={width} />
          {setup.spec.argv[0] !== setup.spec.engineArgv[0] ? (
            <>
              <Muted>on the simulated host, as:</Muted>
              <Command command={formatCommand(setup.spec.argv)} width={width} muted />
            </>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
