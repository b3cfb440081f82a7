/**
 * What the console's time chart draws (web/ui/charts/time-chart.tsx): series of values over shared times,
 * each read on the axis of its unit, and optionally a strip of result tones under the plot.
 */

/** How a series' values read: the axis title and each value's text (ticks and tooltip), unit included. */
export interface ChartUnit {
  /** Series with the same key share one y axis. */
  key: string;
  /** The axis title, e.g. 'Latency'. */
  label: string;
  /** A value with its unit, e.g. '120ms', '4 pods'. */
  format: (value: number) => string;
}

export type ChartSeriesStyle = 'lines' | 'area' | 'points' | 'steps' | 'bars';

export interface ChartSeries {
  label: string;
  /** One value per time of the chart; null leaves a gap. */
  values: ReadonlyArray<number | null>;
  color: string;
  unit: ChartUnit;
  style?: ChartSeriesStyle | undefined;
  dashed?: boolean | undefined;
  /** Draw across nulls (a series sampled at other times than its neighbours) instead of breaking there. */
  joinGaps?: boolean | undefined;
}

/** A result strip's tone (spec §4 colours): green passed, red failed, orange both. */
export type StripTone = 'pass' | 'fail' | 'mixed';

export interface ChartStrip {
  /** What the strip shows, for screen readers: 'Results: 3 passed, 1 failed'. */
  label: string;
  /** One tone per time of the chart; null where the time has no result. */
  tones: ReadonlyArray<StripTone | null>;
}

export interface TimeChartProps {
  /** What the chart shows, read by screen readers (the canvas itself is not). */
  label: string;
  /** Epoch milliseconds, ascending. */
  times: readonly number[];
  series: readonly ChartSeries[];
  /** The x axis spans this range instead of the first to the last time (the page's time range). */
  span?: { from: number; to: number } | undefined;
  /** The width of a bucket (ms): a bar and a strip segment cover their bucket. */
  step?: number | undefined;
  strip?: ChartStrip | undefined;
  /** More lines of the tooltip at a time (e.g. '2 passed, 1 failed'). */
  details?: ((index: number) => string[]) | undefined;
  /**
   * Called with the range dragged over: the page takes it as its time range. Without it a drag zooms the
   * chart itself, and a double click zooms back out.
   */
  onZoom?: ((from: Date, to: Date) => void) | undefined;
  /** Show the series' names under the chart (always when there are several). */
  legend?: 'horizontal' | 'vertical' | 'none' | undefined;
  /** Height of the plot in CSS pixels, axes included. */
  height?: number | undefined;
  className?: string | undefined;
}
