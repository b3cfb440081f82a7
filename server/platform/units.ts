import { z } from 'zod';

const DURATION_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
  y: 365 * 86_400_000,
};

/**
 * Milliseconds of a duration as canary-checker writes them: Go's form (`1h30m`, `500ms`) plus days, weeks
 * and years (`7d`, `2w`, `1y`). Undefined when the text is not a duration.
 */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '0') return trimmed === '0' ? 0 : undefined;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d|w|y)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = part.exec(trimmed); match; match = part.exec(trimmed)) {
    const unit = DURATION_UNITS[match[2] ?? ''];
    if (unit === undefined) return undefined;
    total += Number(match[1]) * unit;
    consumed = part.lastIndex;
  }
  return consumed === trimmed.length ? total : undefined;
}

/** A short human form of milliseconds: 850ms, 42s, 3h12m, 5d2h. */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1000) return `${sign}${Math.round(abs)}ms`;
  const seconds = Math.floor(abs / 1000);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return `${sign}${days}d${hours ? `${hours}h` : ''}`;
  if (hours > 0) return `${sign}${hours}h${minutes ? `${minutes}m` : ''}`;
  if (minutes > 0) return `${sign}${minutes}m${rest ? `${rest}s` : ''}`;
  return `${sign}${rest}s`;
}

/** A duration field: the text as written, checked, read as milliseconds. */
export const durationSchema = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a duration (e.g. 30s, 15m, 2h, 7d)` });
      return z.NEVER;
    }
    return ms;
  });

// canary-checker reads sizes with c2h5oh/datasize: every unit is a power of 1024, with or without "i"/"B".
const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5, e: 1024 ** 6 };

/** Bytes of a size such as 512, 10Ki, 10KB, 1.5G or 2TiB; undefined when the text is not a size. */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgtpe]?)(i?)(b?)\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = SIZE_UNITS[(match[2] ?? '').toLowerCase()];
  if (unit === undefined || (match[3] && !match[2])) return undefined;
  return Math.round(Number(match[1]) * unit);
}

/** A short human form of bytes: 512B, 1.5KiB, 10MiB. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let index = 0;
  while (Math.abs(value) >= 1024 && index < units.length - 1) {
    value /= 1024;
    index += 1;
  }
  return `${index === 0 ? value : Number(value.toFixed(1))}${units[index]}`;
}

/** A size field (a text such as 10Mi or 1G, or a number of bytes), read as bytes. */
export const sizeSchema = z.union([z.string(), z.number().nonnegative()]).transform((value, ctx) => {
  const bytes = typeof value === 'number' ? value : parseSize(value);
  if (bytes === undefined) {
    ctx.addIssue({ code: 'custom', message: `"${String(value)}" is not a size (e.g. 512, 10Ki, 10Mi, 1G)` });
    return z.NEVER;
  }
  return bytes;
});
