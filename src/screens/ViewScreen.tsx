// `servelab view RUN_DIR` on a terminal: the Results page of a finished or interrupted run, fed
// by the projection of its events.jsonl. Its own keys: page through the stages, close.
import React, { useState } from 'react';
import { Box, useApp } from 'ink';
import type { SessionView } from '../core/session-view.js';
import { Footer } from '../tui/components/Footer.js';
import { Title } from '../tui/components/Title.js';
import { ResultsBody, resultPages } from '../tui/panels/results/ResultsBody.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useTerminalSize } from '../tui/hooks/useTerminalSize.js';
import { resultsData } from '../tui/state/results.js';
import { pageStep } from '../tui/widgets/paged-table/state.js';
import { usePagedTable } from '../tui/widgets/paged-table/use-paged-table.js';

export function ViewScreen({ view, price }: { view: SessionView; price?: number }): React.JSX.Element {
  const { exit } = useApp();
  const size = useTerminalSize();
  const [page, setPage] = useState(0);
  const data = resultsData(view, {
    labels: view.labels,
    ...(price !== undefined ? { pricePerGpuHour: price } : {}),
    gpus: view.plan?.host.gpuCount ?? 1,
  });
  const pages = resultPages(data);
  usePagedTable('view', (dir) => setPage((p) => pageStep(p, dir, pages)));
  useKeymap('view', { next: exit, quit: exit, interrupt: exit });
  const interrupted = view.status === 'interrupted';
  return (
    <Box flexDirection="column">
      <Title
        step={5}
        name="Results"
        note={`${interrupted ? 'INTERRUPTED · ' : ''}${view.runDir ?? ''}${view.simulated ? ' · simulated' : ''}`}
      />
      <ResultsBody {...data} aborted={interrupted} page={page} width={size.columns} height={size.rows} />
      <Box marginTop={1}>
        <Footer scope="view" />
      </Box>
    </Box>
  );
}
