import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseDuration } from '../../../platform/units';

/** A file as canary-checker's folder check describes it (with our relative `path` added). */
export interface FolderFile {
  name: string;
  /** Relative to the checked folder (differs from name in recursive scans). */
  path: string;
  size: number;
  mode: string;
  /** ISO date-time of the last modification. */
  modified: string;
  is_dir: boolean;
}

export interface FolderFilter {
  minAgeMs?: number;
  maxAgeMs?: number;
  minSize?: number;
  maxSize?: number;
  regex?: RegExp;
  /** Files modified before this are left out. */
  since?: Date;
}

/** Files looked at in one run at most: bounds a check pointed at a huge tree. */
export const MAX_SCANNED = 100_000;

/**
 * canary-checker's `filter.since`: an RFC 3339 date-time, or `now`, `now-6h`, `now-7d` (date math). As
 * there, one second is added so a previous result's newest.modified can serve as `since`.
 */
export function parseSince(text: string, now = Date.now()): Date | undefined {
  const trimmed = text.trim();
  const math = /^now(?:([+-])(.+))?$/.exec(trimmed);
  let at: number | undefined;
  if (math) {
    const offset = math[2] === undefined ? 0 : parseDuration(math[2]);
    if (offset === undefined) return undefined;
    at = math[1] === '-' ? now - offset : now + offset;
  } else if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(trimmed) && !Number.isNaN(Date.parse(trimmed))) {
    at = Date.parse(trimmed);
  }
  return at === undefined ? undefined : new Date(at + 1000);
}

/** The permission string Go prints for a file mode: -rw-r--r--, drwxr-xr-x, lrwxrwxrwx. */
function modeString(stats: Stats): string {
  const type = stats.isDirectory() ? 'd' : stats.isSymbolicLink() ? 'L' : stats.isFIFO() ? 'p' : stats.isSocket() ? 'S' : stats.isCharacterDevice() ? 'c' : stats.isBlockDevice() ? 'D' : '-';
  const bits = 'rwxrwxrwx';
  let permissions = '';
  for (let index = 0; index < 9; index += 1) permissions += stats.mode & (1 << (8 - index)) ? bits[index] : '-';
  return `${type}${permissions}`;
}

function passes(filter: FolderFilter, name: string, stats: Stats, now: number): boolean {
  const age = now - stats.mtimeMs;
  if (filter.maxAgeMs !== undefined && age > filter.maxAgeMs) return false;
  if (filter.minAgeMs !== undefined && age < filter.minAgeMs) return false;
  if (filter.minSize !== undefined && stats.size < filter.minSize) return false;
  if (filter.maxSize !== undefined && stats.size > filter.maxSize) return false;
  if (filter.regex && !filter.regex.test(name)) return false;
  if (filter.since && stats.mtime < filter.since) return false;
  return true;
}

export interface Scan {
  files: FolderFile[];
  /** True when MAX_SCANNED entries were reached and the rest was not looked at. */
  truncated: boolean;
}

/**
 * The files of a folder that pass the filter. Symbolic links are listed, not followed; with `recursive`,
 * sub-folders are walked (their files count, the folders themselves do not).
 */
export async function scanFolder(root: string, recursive: boolean, filter: FolderFilter, signal: AbortSignal): Promise<Scan> {
  const files: FolderFile[] = [];
  const now = Date.now();
  let scanned = 0;
  const pending = [''];
  while (pending.length > 0) {
    if (signal.aborted) throw new Error('the folder was not read before the timeout');
    const relative = pending.shift() ?? '';
    const entries = await readdir(path.join(root, relative), { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      scanned += 1;
      if (scanned > MAX_SCANNED) return { files, truncated: true };
      const child = relative ? path.join(relative, entry.name) : entry.name;
      if (entry.isDirectory()) {
        if (recursive) pending.push(child);
        continue;
      }
      const stats = await lstat(path.join(root, child));
      if (!passes(filter, entry.name, stats, now)) continue;
      files.push({ name: entry.name, path: child, size: stats.size, mode: modeString(stats), modified: stats.mtime.toISOString(), is_dir: false });
    }
  }
  return { files, truncated: false };
}
