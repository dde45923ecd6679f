// The live view of `servelab sweep` on a terminal: the chart redrawn as each point lands. The
// command pushes state in; nothing here launches or measures.
import React from 'react';
import { LiveSweep } from './components/FrontierChart.js';
import type { ChartSeries } from '../sweep/chart-scale.js';
import { mount } from './mount.js';
import { ThemeContext, themeFromEnv } from './base/theme.js';

export interface LiveView {
  update(status: string, series?: readonly ChartSeries[]): void;
  close(): void;
}

export function mountLiveSweep(title: string): LiveView {
  const theme = themeFromEnv();
  let series: readonly ChartSeries[] = [];
  const view = (status: string) => (
    <ThemeContext.Provider value={theme}>
      <LiveSweep title={title} status={status} series={series} />
    </ThemeContext.Provider>
  );
  const app = mount(view('starting'), { patchConsole: false });
  return {
    update(status, next) {
      if (next) series = next;
      app.rerender(view(status));
    },
    close() {
      app.unmount();
    },
  };
}
