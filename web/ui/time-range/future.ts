import { FUTURE_INDEFINITELY, PAST_RELATIVE_RANGES } from '@common/constants';
import { futureDisplay } from './relative';
import type { FutureRelativeTimeRange } from './types';

/** How 'Indefinitely' is written in a URL, the spec's own text for no end (spec §3 silences). */
export const INDEFINITELY_PARAM = 'indefinitely';

/** The next `range` from now; null means no end ('Indefinitely'). */
export function futureRange(range: string | null): FutureRelativeTimeRange {
  return { type: 'relative', direction: 'future', display: range === null ? FUTURE_INDEFINITELY : futureDisplay(range), range };
}

export const INDEFINITELY: FutureRelativeTimeRange = futureRange(null);

/** Spec §9: the past lengths (5m … 5y) counted forward, and the future list adds Indefinitely. */
export const FUTURE_RANGE_OPTIONS: readonly FutureRelativeTimeRange[] = [...PAST_RELATIVE_RANGES.map(futureRange), INDEFINITELY];
