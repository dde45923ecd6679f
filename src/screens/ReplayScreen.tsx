// `servelab replay PROFILE` on a terminal: the profile and what differs on this host, the exact
// command and a consent key; then the server's lifecycle and live panels; then recorded vs now
// with the verdict. The replay itself (prepareReplay/executeReplay) is the profiles module's.
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import type { ReplaySetup, ReplayOutcome } from '../profiles/replay.js';
import type { MetricDelta } from '../profiles/verdict.js';
import { Command } from '../tui/components/Command.js';
import { Footer } from '../tui/components/Footer.js';
import { Muted } from '../tui/components/Title.js';
import { Table, type Column } from '../tui/components/Table.js';
import { LivePanel } from '../tui/components/run/LivePanel.js';
import { LogTail } from '../tui/components/run/LogTail.js';
import { fmtCommand, fmtMs, fmtPct, fmtTokS, wrapLines } from '../tui/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useNow } from '../tui/hooks/useNow.js';
import type { RunState } from '../tui/state/run.js';
import { useTheme } from '../tui/theme.js';
import { Lifecycle } from './RunScreen.js';

export type ReplayPhase = 'confirm' | 'running' | 'done';

export interface ReplayScreenProps {
  setup: ReplaySetup;
  phase: ReplayPhase;
  run: RunState;
  outcome: ReplayOutcome | null;
  onConfirm: () => void;
  onAbort: () => void;
  onDone: () => void;
  width: number;
  height: number;
}

const fmtDelta = (d: MetricDelta, v: number | null) => (d.unit === 'ms' ? fmtMs(v) : fmtTokS(v));

const deltaColumns: Column<MetricDelta>[] = [
  { key: 'metric', header: 'metric', width: 22, render: (d) => d.label },
  { key: 'rec', header: 'recorded', width: 10, align: 'right', render: (d) => fmtDelta(d, d.recorded) },
  { key: 'now', header: 'now', width: 10, align: 'right', render: (d) => fmtDelta(d, d.now) },
  {
    key: 'delta',
    header: 'delta',
    width: 8,
    align: 'right',
    render: (d) => fmtPct(d.deltaPct, true),
    tone: (d) => (d.deltaPct === null || Math.abs(d.deltaPct) < 0.05 ? undefined : (d.deltaPct > 0) === (d.better === 'higher') ? 'good' : 'bad'),
  },
];

function ProfileFacts({ setup, width, withCommand, maxDiffs }: { setup: ReplaySetup; width: number; withCommand: boolean; maxDiffs: number }): React.JSX.Element {
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
      {row('tuned on', `${p.host.gpuCount} x ${p.host.gpuName}${p.host.simulated ? ' (simulated)' : ''}  ·  ${p.createdAt.slice(0, 10)}${p.source === 'study' ? ' (published study)' : ''}`)}
      {row('recorded', `${fmtTokS(m.total_token_throughput)} tok/s total  ·  TTFT ${fmtMs(m.mean_ttft_ms)}  ·  TPOT ${fmtMs(m.mean_tpot_ms)}`)}
      {row('workload', `${setup.scenario.label ?? setup.scenario.name}  ·  ${setup.scenario.numPrompts} prompts`)}
      {setup.differences.length === 0 ? (
        row('this host', 'same GPU type and count as when tuned')
      ) : (
        setup.differences.slice(0, maxDiffs).map((d, i) => (
          <Text key={i} color={theme.warn}>
            {wrapLines(d, width - 11, 2)
              .map((l, k) => (k === 0 && i === 0 ? 'differs' : '').padEnd(11) + l)
              .join('\n')}
          </Text>
        ))
      )}
      {withCommand ? (
        <Box marginTop={1} flexDirection="column">
          <Text bold>It will run:</Text>
          <Command command={fmtCommand(setup.spec.engineArgv)} width={width} />
          {setup.spec.argv[0] !== setup.spec.engineArgv[0] ? (
            <>
              <Muted>on the simulated host, as:</Muted>
              <Command command={fmtCommand(setup.spec.argv)} width={width} muted />
            </>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

export function ReplayScreen(p: ReplayScreenProps): React.JSX.Element {
  const theme = useTheme();
  const [showLog, setShowLog] = useState(false);
  const c = p.run.current;
  const now = useNow(250, p.phase === 'running' && Boolean(c));
  useKeymap('replay', {
    next: () => (p.phase === 'confirm' ? p.onConfirm() : p.phase === 'done' ? p.onDone() : undefined),
    abort: () => p.phase === 'running' && p.onAbort(),
    'toggle-log': () => setShowLog((v) => !v),
    quit: () => (p.phase === 'running' ? p.onAbort() : p.onDone()),
    interrupt: () => (p.phase === 'running' ? p.onAbort() : p.onDone()),
  });
  const j = p.outcome?.judgement ?? null;
  const failure = p.outcome?.result.failure;
  const verdictTone = !p.outcome ? theme.warn : j?.verdict === 'regression' || !j ? theme.bad : theme.good;
  const without = p.phase === 'confirm' ? ['toggle-log', 'abort'] : p.phase === 'running' ? ['next'] : ['toggle-log', 'abort'];
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text bold color={theme.accent}>
          servelab · replay {fileName(p.setup.file)}
        </Text>
        {p.setup.host.simulated ? <Text color={theme.warn}>simulated host</Text> : null}
      </Box>
      <ProfileFacts setup={p.setup} width={p.width} withCommand={p.phase === 'confirm' || p.height >= 40} maxDiffs={p.height >= 30 ? 4 : 2} />
      {p.phase === 'confirm' ? (
        <Box marginTop={1}>
          <Text color={theme.warn}>Run this command on this host? enter runs it, q cancels.</Text>
        </Box>
      ) : null}
      {p.phase === 'running' ? (
        <Box marginTop={1} flexDirection="column">
          {c ? <Lifecycle c={c} label={p.setup.profile.variant.label ?? c.variantId} now={now} width={p.width} /> : <Muted>starting…</Muted>}
          {c && (showLog || c.phase === 'launching') ? <LogTail lines={c.logTail} count={Math.max(3, Math.min(8, p.height - 18))} width={p.width} /> : null}
          {c && !showLog && c.phase === 'bench' ? <LivePanel current={c} width={p.width} now={now} simulated={p.run.simulated || p.setup.host.simulated} /> : null}
          {p.run.requests.abort ? <Text color={theme.warn}>aborting: stopping the server first…</Text> : null}
        </Box>
      ) : null}
      {p.phase === 'done' ? (
        <Box marginTop={1} flexDirection="column">
          {j ? (
            <Table
              columns={deltaColumns}
              rows={p.height >= 40 ? j.deltas : j.deltas.filter((d) => d.recorded !== null)}
              rowKey={(d) => d.key}
              maxWidth={p.width}
            />
          ) : null}
          {wrapLines(
            !p.outcome
              ? 'aborted: nothing recorded'
              : j
                ? `verdict: ${j.verdict}${j.reasons.length ? ` (${j.reasons.join('; ')})` : ''}`
                : `verdict: failed to ${failure?.kind === 'bench-failed' ? 'measure' : 'start'}: ${failure?.reason ?? 'unknown'}`,
            p.width,
            4,
          ).map((l, i) => (
            <Text key={`verdict${i}`} bold color={verdictTone}>
              {l}
            </Text>
          ))}
          {failure?.hint ? <Text color={theme.warn}>hint: {failure.hint}</Text> : null}
          {p.setup.notes.slice(0, 2).map((n, i) => (
            <Muted key={i}>{wrapLines(`note: ${n}`, p.width, 2).join('\n')}</Muted>
          ))}
        </Box>
      ) : null}
      <Box marginTop={1}>
        <Footer scope="replay" without={without} />
      </Box>
    </Box>
  );
}

function fileName(file: string): string {
  return file.split('/').pop() ?? file;
}
