import fs from 'node:fs/promises';
import path from 'node:path';
import { CORE_SCHEMA, loadAll, YAMLException } from 'js-yaml';
import { isRecord, messageOf } from '../../../platform/errors';
import type { RawResult } from '../types';

/** Most files one entry reads: a glob that matches more is a mistake, reported rather than followed. */
export const MAX_FILES = 50_000;

function escapeRegex(text: string): string {
  return text.replace(/[.+^$()|[\]\\]/g, '\\$&');
}

/** A glob (`*`, `**`, `?`, `{a,b}`) as a regular expression over '/'-separated paths. */
export function globRegex(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i] ?? '';
    if (char === '*') {
      if (glob[i + 1] === '*') {
        // '**/' matches any number of directories, including none.
        if (glob[i + 2] === '/') {
          out += '(?:.*/)?';
          i += 2;
        } else {
          out += '.*';
          i += 1;
        }
      } else out += '[^/]*';
    } else if (char === '?') out += '[^/]';
    else if (char === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) out += '\\{';
      else {
        out += `(?:${glob
          .slice(i + 1, end)
          .split(',')
          .map((part) => escapeRegex(part).replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = end;
      }
    } else out += escapeRegex(char);
  }
  return new RegExp(`^${out}$`);
}

const hasMagic = (part: string) => /[*?{]/.test(part);

async function walk(directory: string, out: string[], signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  let entries;
  try {
    entries = await fs.readdir(directory, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === '.git' || entry.name === 'node_modules') continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) await walk(full, out, signal);
    else if (entry.isFile()) out.push(full);
    if (out.length > MAX_FILES) return;
  }
}

/**
 * The files a path names, sorted: a file, every file under a directory, or the files matching a glob.
 * Relative paths are read from `base`.
 */
export async function expandPaths(patterns: readonly string[], base: string, signal: AbortSignal, ignore: readonly string[] = []): Promise<{ files: string[]; unmatched: string[] }> {
  const found = new Set<string>();
  const unmatched: string[] = [];
  const ignored = ignore.map(globRegex);
  for (const pattern of patterns) {
    const absolute = path.resolve(base, pattern);
    const parts = absolute.split('/');
    const firstMagic = parts.findIndex(hasMagic);
    let matched: string[] = [];
    if (firstMagic < 0) {
      const stat = await fs.stat(absolute).catch(() => undefined);
      if (stat?.isFile()) matched = [absolute];
      else if (stat?.isDirectory()) await walk(absolute, matched, signal);
    } else {
      const root = parts.slice(0, firstMagic).join('/') || '/';
      const all: string[] = [];
      await walk(root, all, signal);
      const regex = globRegex(absolute);
      matched = all.filter((file) => regex.test(file));
    }
    if (matched.length === 0) unmatched.push(pattern);
    for (const file of matched) {
      const relative = path.relative(base, file);
      if (!ignored.some((regex) => regex.test(relative) || regex.test(file))) found.add(file);
    }
    if (found.size > MAX_FILES) throw new Error(`${pattern}: matches more than ${MAX_FILES} files`);
  }
  return { files: [...found].sort(), unmatched };
}

/**
 * The documents of a file's text: JSON (one value), YAML (every document of a multi-document file), a
 * Kubernetes `List` split into its items. `format` overrides what the extension says.
 */
export function parseDocuments(file: string, content: string, format?: string): unknown[] {
  const ext = path.extname(file).toLowerCase();
  let documents: unknown[];
  if (format === 'json' || (format === undefined && ext === '.json')) {
    const parsed: unknown = JSON.parse(content);
    documents = [parsed];
  } else if (format === 'properties') {
    const values: Record<string, string> = {};
    for (const line of content.split(/\r?\n/)) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue;
      const at = trimmed.search(/[=:]/);
      if (at < 0) values[trimmed] = '';
      else values[trimmed.slice(0, at).trim()] = trimmed.slice(at + 1).trim();
    }
    documents = [values];
  } else {
    // js-yaml with the YAML 1.2 core schema (dates stay text, as the yaml package reads them): several
    // times faster on the large multi-document exports scrapers read.
    try {
      documents = loadAll(content, undefined, { schema: CORE_SCHEMA }).filter((value) => value !== null && value !== undefined);
    } catch (error) {
      // One line: where and what, without the snippet js-yaml draws.
      if (error instanceof YAMLException) throw new Error(`not valid YAML at line ${error.mark.line + 1}: ${error.reason}`);
      throw error;
    }
  }
  return documents.flatMap((document) => (isRecord(document) && document.kind === 'List' && Array.isArray(document.items) ? document.items : [document]));
}

/** Reads and parses files; a file that cannot be read or parsed is reported and skipped. */
export async function readDocuments(files: readonly string[], options: { base: string; format?: string | undefined; error(message: string): void; signal: AbortSignal }): Promise<RawResult[]> {
  const results: RawResult[] = [];
  for (const file of files) {
    if (options.signal.aborted) break;
    const relative = path.relative(options.base, file);
    const shown = relative === '' || relative.startsWith('..') ? file : relative;
    try {
      const content = await fs.readFile(file, 'utf8');
      for (const config of parseDocuments(file, content, options.format)) results.push({ config, source: shown });
    } catch (error) {
      options.error(`${shown}: ${messageOf(error)}`);
    }
  }
  return results;
}
