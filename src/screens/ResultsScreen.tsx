// Step 5: per-stage tables (variant, tok/s, gain vs the stage's reference, TTFT, TPOT, start-up,
// $/Mtok when priced, status with the failure reason), the winner's command, and the
// validation table (baseline vs winner on the scenario set). One page per stage.
import React from 'react';
import { Box } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Title } from '../tui/components/Title.js';
import { ResultsBody, resultPages } from '../tui/panels/results/ResultsBody.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { usePagedTable } from '../tui/widgets/paged-table/use-paged-table.js';
import type { ScreenProps } from '../tui/screen-props.js';
import type { ResultsData } from '../tui/state/results.js';

export interface ResultsScreenProps extends ResultsData, ScreenProps {
  objectiveLabel: string;
  simulated: boolean;
  page: number;
  onPage: (dir: 1 | -1, pages: number) => void;
  onNext: () => void;
}

export function ResultsScreen(p: ResultsScreenProps): React.JSX.Element {
  const pages = resultPages(p);
  usePagedTable('results', (dir) => p.onPage(dir, pages), { isActive: p.isActive });
  useKeymap('results', { next: p.onNext, quit: p.onQuit, interrupt: p.onInterrupt ?? p.onQuit }, { isActive: p.isActive });
  return (
    <Box flexDirection="column">
      <Title step={5} name="Results" note={`${p.objectiveLabel}${p.simulated ? ' · simulated' : ''}`} />
      <ResultsBody {...p} />
      <Box marginTop={1}>
        <Footer scope="results" />
      </Box>
    </Box>
  );
}
