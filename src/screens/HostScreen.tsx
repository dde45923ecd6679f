// Step 1: what this host has. GPUs (or the simulated host and its GPU choice), engines with
// versions and runtime, and free disk where logs go.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { fmtBytes, fmtMiB } from '../tui/base/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useTheme } from '../tui/base/theme.js';
import type { HostView } from '../tui/services/types.js';
import type { ScreenProps } from '../tui/screen-props.js';

export interface HostScreenProps extends Omit<ScreenProps, 'width' | 'height'> {
  host: HostView | null;
  error?: string;
  gpuType: string;
  gpuCount: number;
  onGpuStep: (dir: 1 | -1) => void;
  onCountStep: (dir: 1 | -1) => void;
  onNext: () => void;
}

/** Identical GPUs on one line: "8 x NVIDIA H200 (141 GiB, cc 9.0)". */
function gpuGroups(host: HostView): string[] {
  const groups = new Map<string, number[]>();
  for (const g of host.gpus) {
    const k = `${g.name} (${fmtMiB(g.memTotalMiB)}${g.arch ? `, ${g.arch}` : g.computeCap ? `, cc ${g.computeCap}` : ''})`;
    groups.set(k, [...(groups.get(k) ?? []), g.index]);
  }
  return [...groups].map(([k, idx]) => `${idx.length} x ${k}  [${idx.join(',')}]`);
}

export function HostScreen(p: HostScreenProps): React.JSX.Element {
  const theme = useTheme();
  useKeymap(
    'host',
    {
      'gpu-prev': () => p.host?.simulated && p.onGpuStep(-1),
      'gpu-next': () => p.host?.simulated && p.onGpuStep(1),
      'count-dec': () => p.host?.simulated && p.onCountStep(-1),
      'count-inc': () => p.host?.simulated && p.onCountStep(1),
      next: p.onNext,
      quit: p.onQuit,
      interrupt: p.onInterrupt ?? p.onQuit,
    },
    { isActive: p.isActive },
  );
  const host = p.host;
  return (
    <Box flexDirection="column">
      <Title step={1} name="Host" note={host?.simulated ? 'simulated' : host && !host.gpus.length && host.cpu ? 'CPU' : undefined} />
      {p.error ? <Text color={theme.bad}>{p.error}</Text> : null}
      {!host ? (
        <Muted>Looking for GPUs and engines…</Muted>
      ) : (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>{!host.simulated && !host.gpus.length && host.cpu ? 'CPU (no GPU)' : 'GPUs'}</Text>
          {host.simulated ? (
            <Box flexDirection="column" marginLeft={2}>
              <Text color={theme.warn}>{host.note ?? 'simulated host'}</Text>
              {/* One text, so that the catalogue's names wrap between words at any width. */}
              <Text wrap="wrap">
                GPU type{' '}
                {host.gpuTypes.map((t) => (
                  <Text
                    key={t}
                    color={t === p.gpuType ? theme.accent : theme.muted}
                    bold={t === p.gpuType}
                    dimColor={t !== p.gpuType && theme.dimMuted}
                  >
                    {t === p.gpuType ? `[${t}]` : ` ${t} `}{' '}
                  </Text>
                ))}
              </Text>
              <Text>
                GPU count{' '}
                <Text color={theme.accent} bold>
                  ‹ {p.gpuCount} ›
                </Text>
              </Text>
            </Box>
          ) : !host.gpus.length && host.cpu ? (
            <CpuRows host={host} cpu={host.cpu} />
          ) : (
            <Box flexDirection="column" marginLeft={2}>
              {gpuGroups(host).map((line) => (
                <Text key={line} wrap="truncate">
                  {line}
                </Text>
              ))}
              {host.driver ? <Muted>driver {host.driver}</Muted> : null}
            </Box>
          )}
          <Box marginTop={1}>
            <Text bold>Engines</Text>
          </Box>
          <EngineRows engines={host.engines} />
          <Box marginTop={1}>
            <Text>
              <Text bold>Logs </Text>
              {host.logDir}
              <Muted>{host.freeDiskBytes !== undefined ? `  ${fmtBytes(host.freeDiskBytes)} free` : '  free space unknown'}</Muted>
            </Text>
          </Box>
        </Box>
      )}
      <Box marginTop={1}>
        <Footer scope="host" without={host?.simulated ? [] : ['gpu-prev', 'count-dec']} />
      </Box>
    </Box>
  );
}

/** A real host without a GPU: what llama.cpp computes on (the CPU, its threads and memory). */
function CpuRows({ host, cpu }: { host: HostView; cpu: NonNullable<HostView['cpu']> }): React.JSX.Element {
  const mem = cpu.memTotalMiB
    ? `${fmtMiB(cpu.memTotalMiB)} memory, ${fmtMiB(cpu.memAvailMiB)} available`
    : `${fmtMiB(cpu.memAvailMiB)} memory available`;
  return (
    <Box flexDirection="column" marginLeft={2}>
      <Muted>{host.note ?? 'no NVIDIA GPU found'}</Muted>
      <Text wrap="truncate">{cpu.model ?? 'CPU model not reported'}</Text>
      <Text wrap="truncate">{`${cpu.threads} thread${cpu.threads === 1 ? '' : 's'} · ${mem}${cpu.amx ? ' · AMX' : ''}`}</Text>
    </Box>
  );
}

/** One row per engine in two columns, so a long note wraps under itself, not under the engine's name. */
function EngineRows({ engines }: { engines: HostView['engines'] }): React.JSX.Element {
  const theme = useTheme();
  // The name column fits the longest name ('llamacpp') plus a space.
  const nameWidth = Math.max(...engines.map((e) => e.engine.length)) + 1;
  return (
    <Box flexDirection="column" marginLeft={2}>
      {engines.map((e) => (
        <Box key={e.engine + e.runtime}>
          <Box flexShrink={0}>
            <Text color={e.installed ? theme.good : theme.muted} dimColor={!e.installed && theme.dimMuted}>
              {(e.installed ? theme.glyph.ok : '-') + ' ' + e.engine.padEnd(nameWidth)}
            </Text>
          </Box>
          <Text>
            {e.installed ? `${(e.version ?? '?').padEnd(10)} ${e.runtime}${e.image ? ` ${e.image}` : ''}` : ''}
            {e.installed && e.detail ? <Muted>{`  ${e.detail}`}</Muted> : null}
            {e.installed && e.path ? <Muted>{`  ${e.path}`}</Muted> : null}
            {!e.installed ? <Muted>{`not found: ${e.detail ?? 'not installed'}`}</Muted> : null}
          </Text>
        </Box>
      ))}
    </Box>
  );
}
