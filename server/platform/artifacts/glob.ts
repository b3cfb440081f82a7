import fs from 'node:fs/promises';
import path from 'node:path';

/** Bounds on a walk, so `/**` cannot make a run read the whole disk. */
const MAX_MATCHES = 1000;
const MAX_VISITS = 20_000;
const MAX_DEPTH = 32;

const GLOB_CHARS = /[*?[{]/;

/** `{a,b}` alternatives expanded (doublestar, which duty's artifact globs use, reads them too). */
function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open === -1) return [pattern];
  let depth = 0;
  for (let index = open; index < pattern.length; index += 1) {
    if (pattern[index] === '{') depth += 1;
    else if (pattern[index] === '}' && --depth === 0) {
      const inner = pattern.slice(open + 1, index);
      const parts: string[] = [];
      let level = 0;
      let start = 0;
      for (let at = 0; at < inner.length; at += 1) {
        if (inner[at] === '{') level += 1;
        else if (inner[at] === '}') level -= 1;
        else if (inner[at] === ',' && level === 0) {
          parts.push(inner.slice(start, at));
          start = at + 1;
        }
      }
      parts.push(inner.slice(start));
      const rest = pattern.slice(index + 1);
      return parts.flatMap((part) => expandBraces(`${pattern.slice(0, open)}${part}${rest}`));
    }
  }
  return [pattern];
}

/** One glob segment (`*`, `?`, `[…]`, `[!…]`) as a regular expression. */
function segmentRegex(segment: string): RegExp {
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    const char = segment[index] ?? '';
    if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = segment.indexOf(']', index + 2);
      if (end === -1) source += '\\[';
      else {
        const body = segment.slice(index + 1, end).replace(/^[!^]/, '^').replace(/\\/g, '\\\\');
        source += `[${body}]`;
        index = end;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  // As Go's globs (and unlike shells), `*` matches names starting with a dot too.
  return new RegExp(`^${source}$`);
}

export interface GlobMatch {
  path: string;
  directory: boolean;
}

/**
 * The paths an artifact pattern names, sorted: an absolute pattern as it is, a relative one under `cwd`.
 * `*` `?` `[…]` match within a path segment and `**` across segments; a pattern without any of them names
 * that one path when it exists. Directories are reported as such (artifacts are files).
 */
export async function globPaths(pattern: string, cwd: string): Promise<GlobMatch[]> {
  const found = new Map<string, boolean>();
  let visits = 0;
  for (const expanded of expandBraces(pattern)) {
    const absolute = path.resolve(cwd, expanded);
    if (!GLOB_CHARS.test(absolute)) {
      const stat = await fs.stat(absolute).catch(() => undefined);
      if (stat) found.set(absolute, stat.isDirectory());
      continue;
    }
    const segments = absolute.split('/').filter((segment, index) => index === 0 || segment !== '');
    const first = segments.findIndex((segment) => GLOB_CHARS.test(segment));
    const root = segments.slice(0, first).join('/') || '/';
    const rest = segments.slice(first);
    const visit = async (dir: string, at: number, depth: number): Promise<void> => {
      if (at >= rest.length || depth > MAX_DEPTH || found.size >= MAX_MATCHES || visits >= MAX_VISITS) return;
      const segment = rest[at] ?? '';
      let entries;
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      if (segment === '**') {
        // A final `**` is every file below; elsewhere it is zero or more directories: the next segment
        // here, or this one again one level down.
        if (at === rest.length - 1) {
          for (const entry of entries) {
            visits += 1;
            const child = path.join(dir, entry.name);
            if (entry.isFile()) found.set(child, false);
            else if (entry.isDirectory()) await visit(child, at, depth + 1);
          }
          return;
        }
        await visit(dir, at + 1, depth);
        for (const entry of entries) {
          visits += 1;
          if (entry.isDirectory()) await visit(path.join(dir, entry.name), at, depth + 1);
        }
        return;
      }
      const regex = segmentRegex(segment);
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        visits += 1;
        if (!regex.test(entry.name)) continue;
        const child = path.join(dir, entry.name);
        const directory = entry.isDirectory() || (entry.isSymbolicLink() && (await fs.stat(child).catch(() => undefined))?.isDirectory() === true);
        if (at === rest.length - 1) found.set(child, directory);
        else if (directory) await visit(child, at + 1, depth + 1);
      }
    };
    await visit(root, 0, 0);
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([file, directory]) => ({ path: file, directory }));
}
