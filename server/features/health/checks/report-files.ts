import fs from 'node:fs/promises';
import path from 'node:path';

/** Bounds on a walk, so a pattern such as /**\/*.xml cannot make a check read the whole disk. */
const MAX_FILES = 500;
const MAX_VISITS = 20_000;

const GLOB_CHARS = /[*?[]/;

/** A glob (`*`, `?`, `[…]` within a segment, `**` across segments) as a regular expression over `/` paths. */
function globRegex(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index] ?? '';
    if (char === '*' && pattern[index + 1] === '*') {
      const slash = pattern[index + 2] === '/';
      source += slash ? '(?:.*/)?' : '.*';
      index += slash ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '[') {
      const end = pattern.indexOf(']', index + 1);
      if (end === -1) source += '\\[';
      else {
        source += `[${pattern.slice(index + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        index = end;
      }
    } else source += char.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

async function walk(root: string, keep: (relative: string) => boolean, maxDepth: number): Promise<string[]> {
  const found: string[] = [];
  let visits = 0;
  const visit = async (dir: string, relative: string, depth: number): Promise<void> => {
    if (depth > maxDepth || found.length >= MAX_FILES || visits >= MAX_VISITS) return;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      visits += 1;
      if (found.length >= MAX_FILES || visits >= MAX_VISITS) return;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await visit(path.join(dir, entry.name), child, depth + 1);
      else if (entry.isFile() && keep(child)) found.push(path.join(dir, entry.name));
    }
  };
  await visit(root, '', 1);
  return found;
}

/**
 * The report files a `testResults` value names: a file, every *.xml file under a directory (as
 * canary-checker finds them in its pod), or a glob such as /var/reports/**\/TEST-*.xml. Relative paths are
 * read from the server's working directory.
 */
export async function reportFiles(pattern: string): Promise<string[]> {
  const absolute = path.resolve(pattern);
  if (!GLOB_CHARS.test(absolute)) {
    const stat = await fs.stat(absolute).catch(() => undefined);
    if (stat?.isFile()) return [absolute];
    if (stat?.isDirectory()) return walk(absolute, (relative) => relative.toLowerCase().endsWith('.xml'), 20);
    return [];
  }
  const segments = absolute.split(path.sep);
  const first = segments.findIndex((segment) => GLOB_CHARS.test(segment));
  const root = segments.slice(0, first).join(path.sep) || path.sep;
  const rest = segments.slice(first).join('/');
  const regex = globRegex(rest);
  return walk(root, (relative) => regex.test(relative), rest.includes('**') ? 20 : segments.length - first);
}
