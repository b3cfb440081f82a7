const STEPS = [
  ['s', 60],
  ['m', 60],
  ['h', 24],
  ['d', 30],
  ['mo', 12],
] as const;

/**
 * The age of a moment in the largest whole unit: '45s', '1m', '5h', '2d', '1mo', '1y' (spec §9). A moment
 * in the future reads as its distance too. Empty for a missing or invalid date.
 */
export function formatRelative(value: Date | string | number | null | undefined, now: Date = new Date()): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  const time = date.getTime();
  if (Number.isNaN(time)) return '';
  let amount = Math.floor(Math.abs(now.getTime() - time) / 1000);
  for (const [unit, size] of STEPS) {
    if (amount < size) return `${amount}${unit}`;
    amount = Math.floor(amount / size);
  }
  return `${amount}y`;
}
