import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of an http action's URL (docs/PLAYBOOKS.md): each action's value is
 * percent-encoded for its place in the URL the literal text builds, so it stays inside that place:
 *
 * - a path segment, a query name or value, the fragment: every character outside A–Z a–z 0–9 - _ . ! ~ * ' ( )
 *   is %-encoded (`/`, `?`, `#`, `&`, `=`, `@`, `\`, `%`, spaces, line ends); a value that makes a path segment
 *   `.` or `..` is refused (a URL parser would resolve it and climb out of the path);
 * - the host (after `://`, before the path): only a host name, address or port (letters, digits, `.`, `-`,
 *   `_`, `~`); anything else is refused — a value never changes where the request goes;
 * - before any `://` (the scheme): refused, except a value that is the URL's whole start
 *   (`{{.config.url}}/restart`): that value is the base URL, taken as written and checked to be an http(s)
 *   URL with a host, and what follows it is placed as above.
 */

function encode(where: string, index: number, value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new TemplateValueRefused(where, `${nth(index)} is not valid text (a lone surrogate) and cannot be put in a URL`);
  }
}

type Place = 'scheme' | 'host' | 'path' | 'query' | 'fragment';

/** Where the next character of `text` (a URL's start) falls. */
function placeAfter(text: string): Place {
  const scheme = text.indexOf('://');
  if (scheme < 0) return 'scheme';
  const rest = text.slice(scheme + 3);
  if (rest.includes('#')) return 'fragment';
  if (rest.includes('?')) return 'query';
  if (/[/\\]/.test(rest)) return 'path';
  return 'host';
}

/** The URL with every action's value encoded for its place; TemplateValueRefused where it cannot go. */
export function renderUrl(where: string, segments: readonly OutputSegment[]): string {
  let out = '';
  let count = 0;
  const inPath: Array<{ start: number; end: number; index: number }> = [];
  for (const [position, segment] of segments.entries()) {
    if (!segment.action) {
      out += segment.text;
      continue;
    }
    const index = count;
    count += 1;
    const value = segment.text;
    if (position === 0 || (out.trim() === '' && segments.slice(0, position).every((item) => !item.action))) {
      const base = value.trim();
      const parsed = URL.canParse(base) ? new URL(base) : undefined;
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname || /[\s]/.test(base)) {
        throw new TemplateValueRefused(where, `${nth(index)} starts the URL, so it must be an http:// or https:// URL with a host`);
      }
      out += base;
      continue;
    }
    const place = placeAfter(out);
    switch (place) {
      case 'scheme':
        throw new TemplateValueRefused(where, `${nth(index)} is in the URL's scheme: a value never chooses the scheme or host`);
      case 'host': {
        const authority = out.slice(out.indexOf('://') + 3).split('@').pop() ?? '';
        if (authority.includes(':') && !authority.startsWith('[') && !/^\d*$/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} is in the URL's port and is not a number`);
        if (!/^[A-Za-z0-9._~-]*$/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} is in the URL's host and is not a host name, address or port: a value never changes where the request goes`);
        out += value;
        break;
      }
      case 'path': {
        const start = out.length;
        out += encode(where, index, value);
        inPath.push({ start, end: out.length, index });
        break;
      }
      case 'query':
      case 'fragment':
        out += encode(where, index, value);
        break;
    }
  }
  // A value that makes a whole path segment "." or ".." would be resolved away by the URL parser.
  if (inPath.length > 0) {
    const scheme = out.indexOf('://');
    const pathStart = out.slice(scheme + 3).search(/[/\\]/) + scheme + 3;
    const tail = out.slice(pathStart);
    const pathEnd = pathStart + (tail.search(/[?#]/) < 0 ? tail.length : tail.search(/[?#]/));
    let segmentStart = pathStart + 1;
    for (let cursor = pathStart + 1; cursor <= pathEnd; cursor++) {
      if (cursor < pathEnd && out[cursor] !== '/' && out[cursor] !== '\\') continue;
      const text = out.slice(segmentStart, cursor).replace(/%2e/gi, '.');
      const touched = inPath.find((item) => item.start < cursor && item.end > segmentStart);
      if (touched && (text === '.' || text === '..')) throw new TemplateValueRefused(where, `${nth(touched.index)} makes the URL path segment "${text}", which would climb out of the path`);
      segmentStart = cursor + 1;
    }
  }
  return out;
}

/** A header value from a template: no line ends or NUL (they would start another header). */
export function checkHeaderValue(where: string, value: string): string {
  if (/[\r\n\0]/.test(value)) throw new TemplateValueRefused(where, 'holds a line end or NUL character, which a header value cannot carry');
  return value;
}
