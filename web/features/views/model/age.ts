/**
 * 'Refreshed 3 minutes ago': the age the server reported (ageSeconds, on its clock) plus the time since
 * the answer arrived, so a skewed browser clock does not change it.
 */
export function currentAgeSeconds(ageSeconds: number | null | undefined, receivedAt: number, now: number): number | null {
  if (ageSeconds === null || ageSeconds === undefined) return null;
  return Math.max(0, ageSeconds + Math.floor((now - receivedAt) / 1000));
}

const UNITS: Array<[string, number]> = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

export function refreshAgeText(age: number | null): string {
  if (age === null) return 'Not refreshed yet';
  if (age < 60) return 'Refreshed just now';
  for (const [unit, size] of UNITS) {
    if (age >= size) {
      const count = Math.floor(age / size);
      return `Refreshed ${count} ${unit}${count === 1 ? '' : 's'} ago`;
    }
  }
  return 'Refreshed just now';
}
