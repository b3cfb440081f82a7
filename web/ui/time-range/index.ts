export { absoluteRange, formatInputDate, parseInputDate } from './absolute';
export { FUTURE_RANGE_OPTIONS, futureRange, INDEFINITELY, INDEFINITELY_PARAM } from './future';
export { evaluateExpression, findQuickRange, QUICK_RANGES } from './mapped';
export { readRecentRanges, rememberRange } from './recent';
export { futureDisplay, PAST_RANGE_OPTIONS, parseRelativeRange, relativeDisplay, relativeRange, relativeSpanWords } from './relative';
export { resolveFutureTimeRange, resolveTimeRange } from './resolve';
export { TimeRangePicker } from './time-range-picker';
export type { FutureTimeRangePickerProps, PastTimeRangePickerProps, TimeRangePickerProps } from './time-range-picker';
export type {
  AbsoluteTimeRange,
  FutureRelativeTimeRange,
  FutureTimeRangeValue,
  MappedTimeRange,
  RelativeTimeRange,
  ResolvedFutureTimeRange,
  ResolvedTimeRange,
  TimeRangeValue,
} from './types';
export {
  DEFAULT_TIME_RANGE_KEYS,
  futureTimeRangeFromParams,
  futureTimeRangeToParams,
  timeRangeFromParams,
  timeRangeToParams,
  writeFutureTimeRangeParams,
  writeTimeRangeParams,
} from './url';
export type { TimeRangeKeys } from './url';
