import { CHECK_DURATION_FILTERS } from '@common/constants';

/** Spec §5 message, verbatim. */
export const DURATION_ERROR = 'duration is allowed only in milli seconds & seconds';

export const CUSTOM_DURATION = 'custom';
export type DurationChoice = (typeof CHECK_DURATION_FILTERS)[number] | typeof CUSTOM_DURATION;
export const DURATION_CHOICES: readonly DurationChoice[] = [...CHECK_DURATION_FILTERS, CUSTOM_DURATION];

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s)$/;

/**
 * A duration filter as milliseconds: a number with ms or s (seconds count ×1000, spec §5). 'All' is 0
 * (no filter). Anything else is the spec's error.
 */
export function parseDuration(text: string): { ms: number } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === 'All') return { ms: 0 };
  const match = DURATION.exec(trimmed);
  if (!match) return { error: DURATION_ERROR };
  const amount = Number(match[1]);
  return { ms: Math.round(match[2] === 's' ? amount * 1000 : amount) };
}
