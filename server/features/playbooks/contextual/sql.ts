import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of a sql action's query (docs/PLAYBOOKS.md): the literal template text is SQL; each
 * action's value is a value, quoted for where it landed, read from the literal text with a small lexer of
 * the dialect:
 *
 * - unquoted: a string literal holding the value — PostgreSQL `E'…'` (backslash and quote escaped, which
 *   reads the same whatever standard_conforming_strings says), MySQL `'…'` (quote doubled, backslash
 *   doubled: safe with and without NO_BACKSLASH_ESCAPES). A literal of unknown type is what a bound
 *   parameter is too: `WHERE id = {{.params.id}}` and `LIMIT {{.params.n}}` (PostgreSQL) work as before.
 * - inside '…': the value escaped for that literal (PostgreSQL: quote doubled; when the value holds a
 *   backslash the query is sent after `SET standard_conforming_strings = on;` on its own connection, so a
 *   backslash is a backslash); inside E'…' (PostgreSQL) or MySQL strings also backslash doubled.
 * - inside "…": PostgreSQL quoted identifier (`"` doubled); MySQL string (or ANSI_QUOTES identifier): `"`
 *   and backslash doubled. Inside `…` (MySQL identifier): backtick doubled.
 * - in a comment: line ends (`--`, `#`) and comment ends (`*\/`) taken out.
 * - inside a PostgreSQL dollar-quoted body ($$…$$, often a function's code): refused.
 * - a NUL character: refused (no SQL text carries one).
 */

export type SqlDialect = 'postgres' | 'mysql';

type Context = 'code' | 'squote' | 'estring' | 'dquote' | 'backtick' | 'dollar' | 'line' | 'block';

const IDENT = /[A-Za-z0-9_$]/;

class SqlLexer {
  context: Context = 'code';
  /** The previous character was a backslash that escapes this one (E'…' and MySQL strings). */
  escaped = false;
  dollarTag = '';
  blockDepth = 0;
  out = '';

  constructor(private readonly dialect: SqlDialect) {}

  feed(text: string): void {
    let index = 0;
    const at = (offset: number) => text[index + offset] ?? '';
    while (index < text.length) {
      const c = text.charAt(index);
      this.out += c;
      index += 1;
      const copy = (count: number) => {
        this.out += text.slice(index, index + count);
        index += count;
      };
      if (this.escaped) {
        this.escaped = false;
        continue;
      }
      switch (this.context) {
        case 'code': {
          const before = this.out.length >= 2 ? this.out.charAt(this.out.length - 2) : '';
          if (c === "'") {
            const prefix = this.out.slice(0, -1);
            const isE = this.dialect === 'postgres' && /(^|[^A-Za-z0-9_$])[eE]$/.test(prefix);
            this.context = isE || this.dialect === 'mysql' ? 'estring' : 'squote';
          } else if (c === '"') this.context = 'dquote';
          else if (c === '`' && this.dialect === 'mysql') this.context = 'backtick';
          else if (c === '-' && at(0) === '-' && (this.dialect === 'postgres' || /^[\s]?$/.test(at(1)) || at(1) === '')) {
            copy(1);
            this.context = 'line';
          } else if (c === '#' && this.dialect === 'mysql') this.context = 'line';
          else if (c === '/' && at(0) === '*') {
            // MySQL's /*! … */ and /*+ … */ are code the server runs: not comments.
            if (this.dialect === 'mysql' && (at(1) === '!' || at(1) === '+')) copy(2);
            else {
              copy(1);
              this.context = 'block';
              this.blockDepth = 1;
            }
          } else if (c === '$' && this.dialect === 'postgres' && !IDENT.test(before)) {
            const match = /^([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(text.slice(index));
            if (match) {
              copy(match[0].length);
              this.dollarTag = `$${match[1] ?? ''}$`;
              this.context = 'dollar';
            }
          }
          continue;
        }
        case 'squote':
          if (c === "'") {
            if (at(0) === "'") copy(1);
            else this.context = 'code';
          }
          continue;
        case 'estring':
          if (c === '\\') this.escaped = true;
          else if (c === "'") {
            if (at(0) === "'") copy(1);
            else this.context = 'code';
          }
          continue;
        case 'dquote':
          if (c === '\\' && this.dialect === 'mysql') this.escaped = true;
          else if (c === '"') {
            if (at(0) === '"') copy(1);
            else this.context = 'code';
          }
          continue;
        case 'backtick':
          if (c === '`') {
            if (at(0) === '`') copy(1);
            else this.context = 'code';
          }
          continue;
        case 'dollar':
          if (c === '$' && this.out.endsWith('$') && `$${text.slice(index, index + this.dollarTag.length - 1)}` === this.dollarTag) {
            copy(this.dollarTag.length - 1);
            this.context = 'code';
          }
          continue;
        case 'line':
          if (c === '\n' || c === '\r') this.context = 'code';
          continue;
        case 'block':
          if (c === '*' && at(0) === '/') {
            copy(1);
            if (this.dialect === 'postgres') this.blockDepth -= 1;
            else this.blockDepth = 0;
            if (this.blockDepth <= 0) this.context = 'code';
          } else if (c === '/' && at(0) === '*' && this.dialect === 'postgres') {
            copy(1);
            this.blockDepth += 1;
          }
          continue;
      }
    }
  }
}

const backslashes = (value: string) => value.replace(/\\/g, '\\\\');
const quotes = (value: string, quote: string) => value.split(quote).join(quote + quote);

export interface RenderedQuery {
  query: string;
}

/** The query with every action's value quoted for its place; TemplateValueRefused where it cannot be. */
export function renderQuery(where: string, segments: readonly OutputSegment[], dialect: SqlDialect): RenderedQuery {
  const lexer = new SqlLexer(dialect);
  let count = 0;
  let conformingStrings = false;
  for (const segment of segments) {
    if (!segment.action) {
      lexer.feed(segment.text);
      continue;
    }
    const index = count;
    count += 1;
    const value = segment.text;
    if (value.includes('\0')) throw new TemplateValueRefused(where, `${nth(index)} holds a NUL character, which SQL text cannot carry`);
    // A backslash written just before the value escapes nothing of it: it stays a backslash.
    const escapedBefore = lexer.escaped ? '\\' : '';
    lexer.escaped = false;
    switch (lexer.context) {
      case 'code':
        lexer.out += dialect === 'postgres' ? `E'${quotes(backslashes(value), "'")}'` : `'${quotes(backslashes(value), "'")}'`;
        break;
      case 'squote':
        if (value.includes('\\')) conformingStrings = true;
        lexer.out += quotes(value, "'");
        break;
      case 'estring':
        lexer.out += escapedBefore + quotes(backslashes(value), "'");
        break;
      case 'dquote':
        lexer.out += dialect === 'postgres' ? quotes(value, '"') : escapedBefore + quotes(backslashes(value), '"');
        break;
      case 'backtick':
        lexer.out += quotes(value, '`');
        break;
      case 'dollar':
        throw new TemplateValueRefused(
          where,
          `${nth(index)} is inside a dollar-quoted body (${lexer.dollarTag}…${lexer.dollarTag}), which may be code (a function or DO block): put it where a value goes (WHERE x = {{…}}) instead`,
        );
      case 'line':
        lexer.out += value.replace(/[\r\n]/g, ' ');
        break;
      case 'block':
        lexer.out += value.replace(/\*\//g, '* /').replace(/\/\*/g, '/ *');
        break;
    }
  }
  const query = lexer.out;
  return { query: conformingStrings && dialect === 'postgres' ? `SET standard_conforming_strings = on;\n${query}` : query };
}

/** The dialect a sql action names (driver, else its url's scheme); undefined when only its connection says. */
export function dialectOf(driver: string | undefined, url: string | undefined): SqlDialect | undefined {
  const named = driver?.trim().toLowerCase();
  if (named === 'postgres' || named === 'postgresql') return 'postgres';
  if (named === 'mysql' || named === 'mariadb') return 'mysql';
  const text = url?.trim() ?? '';
  if (/^postgres(ql)?:\/\//i.test(text)) return 'postgres';
  if (/^(mysql|mariadb):\/\//i.test(text)) return 'mysql';
  return undefined;
}
