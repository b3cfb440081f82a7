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

/**
 * The future picker's value (an end time, e.g. a silence's 'until'): the next `range` from now, or no
 * end at all when `range` is null ('Indefinitely'; spec §3: "'indefinitely' means no end, stored as
 * null"). `direction` keeps it apart from a past RelativeTimeRange, so neither is passed for the other.
 */
export interface FutureRelativeTimeRange {
  type: 'relative';
  direction: 'future';
  display: string;
  range: string | null;
}

/** What the future picker yields: a span ahead of now, or fixed instants typed in the absolute form. */
export type FutureTimeRangeValue = FutureRelativeTimeRange | AbsoluteTimeRange;

/** Bounds of a future range; `to` is null when the range has no end. */
export interface ResolvedFutureTimeRange {
  from: Date;
  to: Date | null;
}
