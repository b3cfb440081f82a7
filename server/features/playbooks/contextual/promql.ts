import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of a PromQL query (prometheus.query) or a LogQL one (logs.loki.query), docs/PLAYBOOKS.md.
 * Both write strings as `"…"` and `'…'` (backslash escapes) and `` `…` `` (raw), and comments from `#`. Each
 * action's value is data where it lands:
 *
 * - inside `"…"` or `'…'`: escaped for it (backslash, the quote, line ends);
 * - inside `` `…` ``: as written; a value holding a backtick is refused;
 * - in a comment: without line ends;
 * - elsewhere: a name (`job`, `http_requests_total`, not an operator keyword), a number or a duration (`5m`)
 *   as written; anything else as a string literal `"…"` (so `{job={{.params.job}}}` still matches).
 */

const NAME = /^[A-Za-z_:][A-Za-z0-9_:]*$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DURATION = /^(?:\d+(?:ms|[smhdwy]))+$/;
const KEYWORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset', 'bool', 'atan2']);

function escapeQuoted(value: string, quote: string): string {
  return value.replace(/[\\\n\r\t]/g, (char) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[char] ?? char).replaceAll(quote, `\\${quote}`);
}

export function renderPromql(where: string, segments: readonly OutputSegment[]): string {
  let out = '';
  let context: 'code' | '"' | "'" | '`' | 'comment' = 'code';
  let escaped = false;
  let count = 0;
  for (const segment of segments) {
    if (segment.action) {
      const index = count;
      count += 1;
      const value = segment.text;
      if (escaped) throw new TemplateValueRefused(where, `${nth(index)} follows a backslash inside a quoted string, which would escape its first character`);
      if (/\0/.test(value)) throw new TemplateValueRefused(where, `${nth(index)} holds a NUL character`);
      switch (context) {
        case '"':
        case "'":
          out += escapeQuoted(value, context);
          break;
        case '`':
          if (value.includes('`')) throw new TemplateValueRefused(where, `${nth(index)} holds a backtick, which ends a \`…\` string: write the value inside "…"`);
          out += value;
          break;
        case 'comment':
          out += value.replace(/[\r\n]+/g, ' ');
          break;
        case 'code':
          out += (NAME.test(value) && !KEYWORDS.has(value.toLowerCase())) || NUMBER.test(value) || DURATION.test(value) ? value : `"${escapeQuoted(value, '"')}"`;
          break;
      }
      continue;
    }
    for (const char of segment.text) {
      if (context === 'code') {
        if (char === '"' || char === "'" || char === '`') context = char;
        else if (char === '#') context = 'comment';
      } else if (context === 'comment') {
        if (char === '\n') context = 'code';
      } else if (context === '`') {
        if (char === '`') context = 'code';
      } else if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === context) context = 'code';
    }
    out += segment.text;
  }
  return out;
}
