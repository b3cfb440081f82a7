import { lazy, Suspense } from 'react';
import { Loading } from '@web/ui/primitives/loading';
import type { TimeChartProps } from './types';

export type { ChartSeries, ChartSeriesStyle, ChartStrip, ChartUnit, StripTone, TimeChartProps } from './types';

// uPlot (and its stylesheet) load with the first chart shown, in a chunk of their own: pages that draw no
// chart, and the shell, never fetch them.
const UPlotChart = lazy(() => import('./uplot-chart'));

/**
 * The console's one time chart (docs/HEALTH.md "The check graph", docs/VIEWS.md "Panels"): uPlot with axes
 * that carry units, a tooltip with the exact time and values, drag to zoom and an optional result strip.
 */
export function TimeChart(props: TimeChartProps) {
  return (
    <Suspense fallback={<Loading className="py-6" />}>
      <UPlotChart {...props} />
    </Suspense>
  );
}
