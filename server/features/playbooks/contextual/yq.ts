import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of a gitops patch's `yq` (docs/PLAYBOOKS.md). The yq this console applies is a list of
 * assignments `.path.to.key = value` joined by `|` or line ends (actions/gitops.ts); the literal template text
 * is that expression and each action's value is data in it, read with the same quoting rules as the
 * assignments' splitter:
 *
 * - before the `=` (a key): a plain name or index as written, anything else as a quoted key `"…"`;
 * - after the `=` (a value): a plain word (`3`, `true`, `nginx:1.25`) as written, one JSON value as compact
 *   JSON, anything else as a quoted string — never a `|` or line end that would start another assignment;
 * - inside `"…"`: escaped as JSON escapes (the splitter and YAML read them alike);
 * - inside `'…'`: `'` doubled; a backslash or line end is refused (the two readers disagree on them).
 */

const PLAIN_KEY = /^(?:[A-Za-z_][\w-]*|\d+)$/;
/** A word YAML reads as a plain scalar: not starting with `.` or `@`, not ending with `:` (that would make a map). */
const PLAIN_VALUE = /^[\w/+-](?:[\w.:/@+-]*[\w./@+-])?$/;

function valueLiteral(value: string): string {
  if (PLAIN_VALUE.test(value)) return value;
  const trimmed = value.trim();
  if (trimmed !== '') {
    try {
      return JSON.stringify(JSON.parse(trimmed));
    } catch {
      // Not JSON: a string.
    }
  }
  return JSON.stringify(value);
}

export function renderYq(where: string, segments: readonly OutputSegment[]): string {
  let out = '';
  let quote = '';
  let escaped = false;
  /** An `=` was seen in this assignment: what follows is its value. */
  let assigned = false;
  let count = 0;
  for (const segment of segments) {
    if (segment.action) {
      const index = count;
      count += 1;
      const value = segment.text;
      if (escaped) throw new TemplateValueRefused(where, `${nth(index)} follows a backslash inside a quoted text, which would escape its first character`);
      if (quote === '"') out += JSON.stringify(value).slice(1, -1);
      else if (quote === "'") {
        if (/[\\\r\n]/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} holds a backslash or line end, which a '…' text cannot carry here: write the value inside "…"`);
        out += value.replaceAll("'", "''");
      } else if (assigned) out += valueLiteral(value);
      else out += PLAIN_KEY.test(value) ? value : JSON.stringify(value);
      continue;
    }
    const text = segment.text;
    for (let at = 0; at < text.length; at += 1) {
      const char = text.charAt(at);
      if (quote) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === quote) quote = '';
      } else if (char === '"' || char === "'") quote = char;
      else if (char === '\n' || (char === '|' && text[at + 1] !== '=')) assigned = false;
      else if (char === '=' && text[at + 1] !== '=' && !/[=!<>|]/.test(text[at - 1] ?? out[out.length - 1] ?? '')) assigned = true;
    }
    out += text;
  }
  return out;
}
