const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A duration as days, hours, minutes and seconds ('1d 2h 3m 4s'), zero parts left out; under one second
 * in milliseconds ('250ms') (spec §9). Empty for a missing or negative value.
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < SECOND) return `${Math.round(ms)}ms`;
  const parts: string[] = [];
  let rest = Math.floor(ms / SECOND) * SECOND;
  for (const [unit, size] of [['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', SECOND]] as const) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count}${unit}`);
  }
  return parts.join(' ');
}
