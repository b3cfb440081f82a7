const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** Bytes in binary steps of 1024 up to YB (spec §9): 1536 → '1.5 KB'. Empty for a missing value. */
export function formatBytes(bytes: number | null | undefined, decimals = 1): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '';
  const sign = bytes < 0 ? '-' : '';
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  // Number() drops trailing zeros: '1 KB', not '1.0 KB'.
  return `${sign}${Number(value.toFixed(unit === 0 ? 0 : decimals))} ${UNITS[unit]}`;
}
