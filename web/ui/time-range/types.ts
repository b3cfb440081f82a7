/**
 * A time range as spec §3 describes it: type, display, from, to, range.
 * - relative: the last `range` ('2d', '6M') up to now;
 * - absolute: fixed ISO instants `from` and `to`;
 * - mapped: a named calendar range in Grafana-style expressions, e.g. Yesterday = now-1d/d .. now-1d/d.
 */
export type TimeRangeValue = RelativeTimeRange | AbsoluteTimeRange | MappedTimeRange;

export interface RelativeTimeRange {
  type: 'relative';
  display: string;
  range: string;
}

export interface AbsoluteTimeRange {
  type: 'absolute';
  display: string;
  from: string;
  to: string;
}

export interface MappedTimeRange {
  type: 'mapped';
  display: string;
  from: string;
  to: string;
}

/** Concrete bounds of a range at a moment. */
export interface ResolvedTimeRange {
  from: Date;
  to: Date;
}
