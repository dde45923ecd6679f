// The Results screen for `servelab view RUN_DIR`, fed by the projection of the run's events.
import React, { useState } from 'react';
import { render, useApp } from 'ink';
import type { SessionView } from '../core/view.js';
import { ResultsScreen } from './ResultsScreen.js';
import { useTerminalSize } from '../tui/hooks/useTerminalSize.js';
import { finalWinner, stageTables, validationBaselineId, validationRows } from '../tui/state/results.js';

export function ViewResults({ view, price }: { view: SessionView; price?: number }): React.JSX.Element {
  const { exit } = useApp();
  const size = useTerminalSize();
  const [page, setPage] = useState(0);
  const labels = view.labels;
  const name = (id: string) => labels[id] ?? id;
  const winner = finalWinner(view);
  const baselineId = validationBaselineId(view);
  const gpus = view.plan?.host.gpuCount ?? 1;
  const interrupted = view.status === 'interrupted';
  return (
    <ResultsScreen
      tables={stageTables(view, { labels, ...(price !== undefined ? { pricePerGpuHour: price } : {}), gpus })}
      labels={labels}
      validation={validationRows(view)}
      {...(winner ? { winner, winnerLabel: name(winner.variantId) } : {})}
      {...(baselineId ? { validationBaseline: name(baselineId), validationBaselineIsWinner: baselineId === winner?.variantId } : {})}
      objectiveLabel={`${interrupted ? 'INTERRUPTED · ' : ''}${view.runDir ?? ''}`}
      priced={price !== undefined}
      simulated={view.simulated}
      aborted={interrupted}
      page={page}
      onPage={(dir, pages) => setPage((p) => Math.max(0, Math.min(pages - 1, p + dir)))}
      onNext={() => exit()}
      onQuit={() => exit()}
      width={size.columns}
      height={size.rows}
    />
  );
}

export async function showResults(view: SessionView, price?: number): Promise<number> {
  const instance = render(<ViewResults view={view} {...(price !== undefined ? { price } : {})} />, { exitOnCtrlC: false, maxFps: 10 });
  await instance.waitUntilExit();
  return 0;
}
