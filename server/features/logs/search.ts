import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import readline from 'node:readline';
import type { LogLineResult } from '../../../common/logs';
import { isRecord } from '../../platform/errors';
import { openAllowed } from './roots';

/** Of a larger file, only the newest this many bytes are read (the answer says it was cut). */
export const MAX_BYTES_PER_FILE = 32 * 1024 * 1024;
/** Files one search reads at most, newest first (the answer says how many were left out). */
export const MAX_FILES_PER_SEARCH = 200;
/** A line longer than this is cut (a minified blob is not a log line anyone reads). */
export const MAX_LINE_LENGTH = 8 * 1024;

/** A log line as POST /api/logs answers it (`id` is `file:line`, the line counted from where reading began). */
export type LogLine = LogLineResult;

export interface LogSearch {
  /** Case-insensitive text a line must contain (anywhere, JSON fields too); empty matches every line. */
  query: string;
  start: Date;
  end: Date;
  limit: number;
  signal?: AbortSignal;
}

export interface LogFile {
  path: string;
  labels: Record<string, string>;
}

export interface LogSearchResult {
  /** Newest first, at most `limit`. */
  results: LogLine[];
  /** Lines that matched in the files read (more than `results` when the limit cut them). */
  total: number;
  files: number;
  /** What was not read: older bytes of large files, files beyond the per-search limit. */
  truncated: string[];
}

// A leading timestamp: 2026-11-22T10:00:00Z, 2026-11-22 10:00:00,123 +0100, [2026-11-22T10:00:00.5+01:00] …
const LEADING_TIME = /^\[?(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:[.,](\d{1,9}))?\s?(Z|[+-]\d{2}:?\d{2})?\]?/;
const PINO_LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const LEVEL_WORD = /\b(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|CRITICAL)\b/;

function leadingTime(line: string): Date | undefined {
  return leadingStamp(line)?.time;
}

/** The leading timestamp of a text line and how many characters it takes. */
function leadingStamp(line: string): { time: Date; length: number } | undefined {
  const match = LEADING_TIME.exec(line);
  if (!match) return undefined;
  const [, date, time, fraction, zone] = match;
  const millis = fraction ? `.${fraction.slice(0, 3).padEnd(3, '0')}` : '';
  const offset = zone ? (zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`) : '';
  const parsed = new Date(`${date}T${time}${millis}${offset}`);
  return Number.isNaN(parsed.getTime()) ? undefined : { time: parsed, length: match[0].length };
}

function timeValue(value: unknown): Date | undefined {
  if (typeof value === 'number') return new Date(value > 1e12 ? value : value * 1000);
  if (typeof value === 'string') {
    const parsed = leadingTime(value) ?? new Date(value);
    return Number.isNaN(parsed.getTime()) ? undefined : parsed;
  }
  return undefined;
}

/** A line's time, message and level: JSON lines (pino and the like) by their fields, text by its leading timestamp. */
export function parseLine(line: string): { time?: Date; message: string; level?: string } {
  if (line.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) {
        const time = timeValue(value.time ?? value.ts ?? value.timestamp ?? value['@timestamp']);
        const message = value.msg ?? value.message;
        const rawLevel = value.level ?? value.severity;
        const level = typeof rawLevel === 'number' ? PINO_LEVELS[rawLevel] : typeof rawLevel === 'string' ? rawLevel.toLowerCase() : undefined;
        return { time, message: typeof message === 'string' ? message : line, ...(level ? { level } : {}) };
      }
    } catch {
      // Not JSON after all: read it as text.
    }
  }
  // The time has its own column: the message is the rest of the line.
  const stamp = leadingStamp(line);
  const message = stamp ? line.slice(stamp.length).trimStart() || line : line;
  const level = LEVEL_WORD.exec(message.slice(0, 80))?.[1]?.toLowerCase();
  return { time: stamp?.time, message, ...(level ? { level: level === 'warning' ? 'warn' : level } : {}) };
}

/** Keeps the newest `limit` matches of one file as they stream by (lines arrive oldest first). */
async function searchFile(file: LogFile, stat: Stats, search: LogSearch, needle: string, truncated: string[]): Promise<{ lines: LogLine[]; total: number }> {
  // Nothing written after the start can hold a line inside the range.
  if (stat.mtime < search.start) return { lines: [], total: 0 };
  // Read only through a descriptor whose real file is under a log root (roots.ts): never through a symlink out.
  const handle = await openAllowed(file.path);
  if (!handle) {
    truncated.push(`${file.path}: not read (outside the log roots, or in the data directory)`);
    return { lines: [], total: 0 };
  }
  const from = Math.max(0, stat.size - MAX_BYTES_PER_FILE);
  if (from > 0) truncated.push(`${file.path}: only the newest ${MAX_BYTES_PER_FILE / 1024 / 1024} MB read`);
  const stream = handle.createReadStream({ start: from, encoding: 'utf8' });
  const reader = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const kept: LogLine[] = [];
  let total = 0;
  let number = 0;
  // A line without its own time (a stack trace's) takes the one before it; the first ones take the file's.
  let current: Date | undefined;
  let skipPartial = from > 0;
  try {
    for await (const raw of reader) {
      if (search.signal?.aborted) break;
      number += 1;
      if (skipPartial) {
        skipPartial = false;
        continue;
      }
      if (raw.trim() === '') continue;
      const line = raw.length > MAX_LINE_LENGTH ? raw.slice(0, MAX_LINE_LENGTH) : raw;
      const parsed = parseLine(line);
      if (parsed.time) current = parsed.time;
      const time = parsed.time ?? current ?? stat.mtime;
      if (time < search.start || time > search.end) continue;
      if (needle && !line.toLowerCase().includes(needle)) continue;
      total += 1;
      kept.push({
        id: `${file.path}:${from > 0 ? '~' : ''}${number}`,
        time: time.toISOString(),
        message: parsed.message,
        ...(parsed.level ? { level: parsed.level } : {}),
        source: file.path,
        labels: file.labels,
      });
      if (kept.length > search.limit * 2) kept.splice(0, kept.length - search.limit);
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return { lines: kept.slice(-search.limit), total };
}

/** Searches the files (newest first, at most MAX_FILES_PER_SEARCH) and merges their lines, newest first. */
export async function searchLogFiles(files: readonly LogFile[], search: LogSearch): Promise<LogSearchResult> {
  const truncated: string[] = [];
  const stated = await Promise.all(files.map(async (file) => ({ file, stat: await fs.stat(file.path).catch(() => undefined) })));
  const dated = stated.flatMap(({ file, stat }) => (stat?.isFile() ? [{ file, stat }] : []));
  dated.sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs);
  if (dated.length > MAX_FILES_PER_SEARCH) truncated.push(`${dated.length - MAX_FILES_PER_SEARCH} older files not read (at most ${MAX_FILES_PER_SEARCH} per search)`);
  const chosen = dated.slice(0, MAX_FILES_PER_SEARCH);
  const needle = search.query.trim().toLowerCase();
  const results: LogLine[] = [];
  let total = 0;
  for (const { file, stat } of chosen) {
    if (search.signal?.aborted) break;
    const found = await searchFile(file, stat, search, needle, truncated);
    total += found.total;
    results.push(...found.lines);
  }
  // Newest first; lines of the same time keep their order in the file (later line first).
  const order = new Map(results.map((line, index) => [line, index]));
  results.sort((a, b) => (a.time === b.time ? (order.get(b) ?? 0) - (order.get(a) ?? 0) : a.time < b.time ? 1 : -1));
  return { results: results.slice(0, search.limit), total, files: chosen.length, truncated };
}
