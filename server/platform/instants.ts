/** Relative time units of the health API: 15m, 1h, 2d, 1w, 1mo, 1y (spec §9 ranges). */
const UNITS: Record<string, number> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
  mo: 2_592_000_000,
  M: 2_592_000_000,
  y: 31_536_000_000,
};

/** Milliseconds of a relative duration such as "1h" or "30d", or undefined. */
export function relativeMillis(value: string): number | undefined {
  const match = /^(\d{1,6})(mo|s|m|h|d|w|M|y)$/.exec(value.trim());
  if (!match) return undefined;
  const unit = UNITS[match[2] ?? ''];
  return unit === undefined ? undefined : Number(match[1]) * unit;
}

/**
 * A point in time from the API: "now", a relative duration before `now` ("1h" = an hour ago), or an
 * ISO date-time. Undefined when it is none of these.
 */
export function parseInstant(value: string | undefined, now: Date): Date | undefined {
  if (value === undefined || value.trim() === '' || value.trim() === 'now') return now;
  const relative = relativeMillis(value.replace(/^now-/, ''));
  if (relative !== undefined) return new Date(now.getTime() - relative);
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
