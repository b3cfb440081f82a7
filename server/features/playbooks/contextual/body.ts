import { joined, nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of documents an action sends or writes (docs/PLAYBOOKS.md): an http body, a github
 * workflow's `input`, a gitops file's content. The literal template text is the document; each action's value
 * is data in it:
 *
 * - JSON: inside a string, the value escaped for it (`"`, `\`, line ends, control characters); elsewhere,
 *   a value that is itself one JSON value (a number, `true`, an object from `toJSON`) as written, and any
 *   other value as a JSON string. A value can never close a string or add a key the author did not write.
 *   A value right after a backslash inside a string is refused (the backslash would escape its first character).
 * - form (`application/x-www-form-urlencoded`): each value percent-encoded (`&`, `=` cannot start a field).
 * - XML: `&`, `<`, `>`, `"` and `'` as entities.
 * - any other text: the value as written (no language to break out of).
 *
 * A document that is nothing but one value (`body: '{{.params.body}}'`) is that value as written: the author
 * wrote no structure for it to break.
 */

export type DocumentKind = 'json' | 'form' | 'xml' | 'text';

/** The literal text of a template's output (what the author wrote, inside {{if}}/{{range}} too). */
function literalText(segments: readonly OutputSegment[]): string {
  return segments.filter((segment) => !segment.action).map((segment) => segment.text).join('');
}

/**
 * What kind of document a body is: JSON when its written text starts with `{` or `[`, XML with `<` (so a value
 * in a Content-Type header cannot change how the body's values are placed); otherwise by the Content-Type.
 */
export function bodyKind(segments: readonly OutputSegment[], contentType: string | undefined): DocumentKind {
  const start = literalText(segments).trimStart()[0];
  if (start === '{' || start === '[') return 'json';
  if (start === '<') return 'xml';
  const type = (contentType ?? '').toLowerCase();
  if (/[/+]json\b/.test(type)) return 'json';
  if (type.includes('x-www-form-urlencoded')) return 'form';
  if (/[/+]xml\b/.test(type)) return 'xml';
  return 'text';
}

/** A value as one JSON value where the document has a value (outside a string). */
function jsonValue(value: string): string {
  const trimmed = value.trim();
  if (trimmed !== '') {
    try {
      JSON.parse(trimmed);
      return trimmed;
    } catch {
      // Not one JSON value: a string.
    }
  }
  return JSON.stringify(value);
}

function renderJson(where: string, segments: readonly OutputSegment[]): string {
  let out = '';
  let inString = false;
  let escaped = false;
  let count = 0;
  for (const segment of segments) {
    if (segment.action) {
      const index = count;
      count += 1;
      if (inString && escaped) throw new TemplateValueRefused(where, `${nth(index)} follows a backslash inside a JSON string, which would escape its first character`);
      out += inString ? JSON.stringify(segment.text).slice(1, -1) : jsonValue(segment.text);
      continue;
    }
    for (const char of segment.text) {
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
    }
    out += segment.text;
  }
  return out;
}

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function encodeForm(where: string, index: number, value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    throw new TemplateValueRefused(where, `${nth(index)} is not valid text (a lone surrogate) and cannot be put in a form`);
  }
}

/** The document with each action's value placed as data for its kind. */
export function renderDocument(where: string, segments: readonly OutputSegment[], kind: DocumentKind): string {
  if (segments.every((segment) => segment.action || segment.text.trim() === '') && segments.filter((segment) => segment.action).length === 1) {
    return joined(segments);
  }
  switch (kind) {
    case 'json':
      return renderJson(where, segments);
    case 'form': {
      let count = 0;
      return segments.map((segment) => (segment.action ? encodeForm(where, count++, segment.text) : segment.text)).join('');
    }
    case 'xml':
      return segments.map((segment) => (segment.action ? segment.text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char] ?? char) : segment.text)).join('');
    case 'text':
      return joined(segments);
  }
}

/** A file's kind by its name: JSON for `.json`, text otherwise. */
export function fileKind(path: unknown): DocumentKind {
  return typeof path === 'string' && /\.json$/i.test(path.trim()) ? 'json' : 'text';
}
