import path from 'node:path';
import { nth, type OutputSegment, TemplateValueRefused } from './shared';

/**
 * Contextual rendering of an exec script (docs/PLAYBOOKS.md, "Template values in scripts, queries and
 * URLs"): the literal template text is the script's code; each action's value reaches the shell as data.
 *
 * Every value is passed in an environment variable (`WK_TPL_1`, `WK_TPL_2`, … in the order they were
 * printed) and the script gets a reference to it that suits where the value landed, read from the literal
 * text around it with a small POSIX-shell lexer:
 *
 * - unquoted (a word, an argument, after `=`): `"${WK_TPL_n}"` — exactly one word, no splitting or globbing;
 * - inside "…" and in an unquoted here-document: `${WK_TPL_n}`;
 * - inside '…': `'"${WK_TPL_n}"'` (close, insert, reopen); inside $'…': `'"${WK_TPL_n}"$'`;
 * - inside ${…}: `"${WK_TPL_n}"` (or `${WK_TPL_n}` when the ${…} is itself double-quoted);
 * - in a comment: `${WK_TPL_n}` (inert there);
 * - inside a quoted here-document (<<'EOF'): the value as written, which the shell never expands, refused
 *   when it holds the delimiter (it could end the document early);
 * - in arithmetic ($((…)), ((…))): only an integer, since bash evaluates a variable's text as an expression
 *   (and `a[$(cmd)]` there runs cmd); inside [[ … ]] a value holding `[` is refused for the same reason (-eq);
 * - as a here-document delimiter, or in the shebang line: refused.
 *
 * The shell expands a variable once and never parses its result again, so `$(…)`, backticks, `;`, quotes and
 * newlines in a value are text. A backslash or `$` written just before a value stays text too (`\$`).
 *
 * A script whose shebang names another interpreter (python, node, …) gets a value placed as written only
 * when it is a plain word (letters, digits, `_`, and `.` or `-` between them); anything else is refused
 * with a message that says to read it from the environment (exec.env) instead.
 */

export interface RenderedScript {
  script: string;
  /** WK_TPL_n → value: merged into the script's environment. */
  env: Record<string, string>;
}

export const TEMPLATE_ENV_PREFIX = 'WK_TPL_';

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'posh', 'yash']);

/** A value placed as written in a non-shell script: a word that is neither code nor punctuation in any language. */
const PLAIN_WORD = /^(?:[A-Za-z0-9_]+(?:[.-][A-Za-z0-9_]+)*)?$/;

/** The interpreter named by the script's shebang (through /usr/bin/env), or undefined without one. */
export function shebangInterpreter(script: string): string | undefined {
  if (!script.startsWith('#!')) return undefined;
  const first = script.split('\n')[0] ?? '';
  let [interpreter = '', ...args] = first.slice(2).trim().split(/\s+/).filter(Boolean);
  if (path.basename(interpreter) === 'env') {
    while (args[0]?.startsWith('-')) args = args.slice(1);
    interpreter = args[0] ?? '';
  }
  return path.basename(interpreter) || undefined;
}

type Frame =
  | { kind: 'code'; closer: ')' | '`' | undefined; depth: number; dbracket: boolean }
  | { kind: 'squote' }
  | { kind: 'ansi' }
  | { kind: 'dquote' }
  | { kind: 'brace'; depth: number; inDouble: boolean }
  | { kind: 'arith'; depth: number }
  | { kind: 'comment' }
  | { kind: 'heredoc'; delimiter: string; quoted: boolean; strip: boolean; line: string };

interface PendingHeredoc {
  delimiter: string;
  quoted: boolean;
  strip: boolean;
}

const SEPARATOR = /[\s;&|()<>]/;

class ShellLexer {
  readonly stack: Frame[] = [{ kind: 'code', closer: undefined, depth: 0, dbracket: false }];
  /** The previous character was a backslash that escapes this one. */
  escaped = false;
  /** In code: at the start of a word (`#` starts a comment, `((` arithmetic). */
  wordStart = true;
  /** In code: the word so far (to see `[[` and `]]`). */
  word = '';
  /** Reading a here-document's delimiter after << (raw text and whether it is quoted). */
  delimiter: { raw: string; strip: boolean; quote: string | undefined; quoted: boolean } | undefined;
  readonly pending: PendingHeredoc[] = [];
  out = '';

  top(): Frame {
    return this.stack[this.stack.length - 1] as Frame;
  }

  /** The nearest code frame (for [[ … ]]). */
  code(): Extract<Frame, { kind: 'code' }> | undefined {
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const frame = this.stack[index] as Frame;
      if (frame.kind === 'code') return frame;
    }
    return undefined;
  }

  private endWord(frame: Extract<Frame, { kind: 'code' }>): void {
    if (this.word === '[[') frame.dbracket = true;
    else if (this.word === ']]') frame.dbracket = false;
    this.word = '';
  }

  private finishDelimiter(): void {
    const read = this.delimiter;
    this.delimiter = undefined;
    if (!read || read.raw === '') return;
    this.pending.push({ delimiter: read.raw, quoted: read.quoted, strip: read.strip });
  }

  /** Feeds literal template text (the script's code). */
  feed(text: string): void {
    let index = 0;
    const at = (offset: number) => text[index + offset] ?? '';
    /** Copies the rest of a multi-character opener (`$(`, `${`, `$((`) and enters its frame. */
    const open = (frame: Frame, count: number) => {
      this.out += text.slice(index, index + count);
      index += count;
      this.stack.push(frame);
    };
    while (index < text.length) {
      const c = text.charAt(index);
      this.out += c;
      index += 1;
      const frame = this.top();
      if (frame.kind === 'heredoc') {
        if (c === '\n') {
          const line = frame.strip ? frame.line.replace(/^\t+/, '') : frame.line;
          frame.line = '';
          this.escaped = false;
          if (line === frame.delimiter) {
            this.stack.pop();
            this.wordStart = true;
          }
          continue;
        }
        frame.line += c;
        if (frame.quoted) continue;
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        if (c === '\\') this.escaped = true;
        else if (c === '$' && at(0) === '(' && at(1) === '(') open({ kind: 'arith', depth: 0 }, 2);
        else if (c === '$' && at(0) === '(') open({ kind: 'code', closer: ')', depth: 0, dbracket: false }, 1);
        else if (c === '$' && at(0) === '{') open({ kind: 'brace', depth: 0, inDouble: true }, 1);
        else if (c === '`') this.stack.push({ kind: 'code', closer: '`', depth: 0, dbracket: false });
        continue;
      }
      if (frame.kind === 'comment') {
        if (c === '\n') {
          this.stack.pop();
          this.out = this.out.slice(0, -1);
          index -= 1;
        }
        continue;
      }
      if (this.escaped) {
        this.escaped = false;
        if (frame.kind === 'code') {
          this.wordStart = false;
          this.word += c;
        }
        continue;
      }
      switch (frame.kind) {
        case 'squote':
          if (c === "'") this.stack.pop();
          continue;
        case 'ansi':
          if (c === '\\') this.escaped = true;
          else if (c === "'") this.stack.pop();
          continue;
        case 'dquote':
          if (c === '\\') this.escaped = true;
          else if (c === '"') this.stack.pop();
          else if (c === '`') this.stack.push({ kind: 'code', closer: '`', depth: 0, dbracket: false });
          else if (c === '$' && at(0) === '(' && at(1) === '(') open({ kind: 'arith', depth: 0 }, 2);
          else if (c === '$' && at(0) === '(') open({ kind: 'code', closer: ')', depth: 0, dbracket: false }, 1);
          else if (c === '$' && at(0) === '{') open({ kind: 'brace', depth: 0, inDouble: true }, 1);
          continue;
        case 'brace':
          if (c === '\\') this.escaped = true;
          else if (c === '}') {
            if (frame.depth > 0) frame.depth -= 1;
            else this.stack.pop();
          } else if (c === '{') frame.depth += 1;
          else if (c === '"') this.stack.push({ kind: 'dquote' });
          else if (c === "'" && !frame.inDouble) this.stack.push({ kind: 'squote' });
          else if (c === '`') this.stack.push({ kind: 'code', closer: '`', depth: 0, dbracket: false });
          else if (c === '$' && at(0) === '(' && at(1) === '(') open({ kind: 'arith', depth: 0 }, 2);
          else if (c === '$' && at(0) === '(') open({ kind: 'code', closer: ')', depth: 0, dbracket: false }, 1);
          else if (c === '$' && at(0) === '{') open({ kind: 'brace', depth: 0, inDouble: frame.inDouble }, 1);
          continue;
        case 'arith':
          if (c === '(') frame.depth += 1;
          else if (c === ')') {
            if (frame.depth > 0) frame.depth -= 1;
            else {
              this.stack.pop();
              if (at(0) === ')') {
                this.out += ')';
                index += 1;
              }
            }
          } else if (c === '$' && at(0) === '(' && at(1) !== '(') open({ kind: 'code', closer: ')', depth: 0, dbracket: false }, 1);
          else if (c === '$' && at(0) === '{') open({ kind: 'brace', depth: 0, inDouble: true }, 1);
          else if (c === '`') this.stack.push({ kind: 'code', closer: '`', depth: 0, dbracket: false });
          continue;
        case 'code':
          this.code1(frame, c, at, (n) => (index += n));
          continue;
      }
    }
  }

  private code1(frame: Extract<Frame, { kind: 'code' }>, c: string, at: (offset: number) => string, skip: (n: number) => void): void {
    if (this.delimiter) {
      const read = this.delimiter;
      if (read.quote) {
        if (c === read.quote) read.quote = undefined;
        else read.raw += c;
        return;
      }
      if (read.raw === '' && (c === ' ' || c === '\t')) return;
      if (c === "'" || c === '"') {
        read.quote = c;
        read.quoted = true;
        return;
      }
      if (c === '\\') {
        read.quoted = true;
        return;
      }
      if (!SEPARATOR.test(c)) {
        read.raw += c;
        return;
      }
      this.finishDelimiter();
    }
    if (c === '\\') {
      this.escaped = true;
      this.wordStart = false;
      return;
    }
    if (c === "'") {
      this.stack.push({ kind: 'squote' });
      this.wordStart = false;
      this.word += c;
      return;
    }
    if (c === '"') {
      this.stack.push({ kind: 'dquote' });
      this.wordStart = false;
      this.word += c;
      return;
    }
    if (c === '`') {
      if (frame.closer === '`') this.stack.pop();
      else this.stack.push({ kind: 'code', closer: '`', depth: 0, dbracket: false });
      this.wordStart = false;
      return;
    }
    if (c === '$') {
      this.wordStart = false;
      this.word += c;
      const next = at(0);
      if (next === "'") this.copy(at, 1, skip, { kind: 'ansi' });
      else if (next === '(' && at(1) === '(') this.copy(at, 2, skip, { kind: 'arith', depth: 0 });
      else if (next === '(') this.copy(at, 1, skip, { kind: 'code', closer: ')', depth: 0, dbracket: false });
      else if (next === '{') this.copy(at, 1, skip, { kind: 'brace', depth: 0, inDouble: false });
      return;
    }
    if (c === '#' && this.wordStart) {
      this.stack.push({ kind: 'comment' });
      return;
    }
    if (c === '(' && this.wordStart && at(0) === '(') {
      this.copy(at, 1, skip, { kind: 'arith', depth: 0 });
      return;
    }
    if (c === '(' && frame.closer === ')') frame.depth += 1;
    if (c === ')' && frame.closer === ')') {
      if (frame.depth > 0) frame.depth -= 1;
      else {
        this.endWord(frame);
        this.stack.pop();
        this.wordStart = false;
        return;
      }
    }
    if (c === '<' && at(0) === '<' && at(1) !== '<') {
      const strip = at(1) === '-';
      this.out += strip ? '<-' : '<';
      skip(strip ? 2 : 1);
      this.endWord(frame);
      this.delimiter = { raw: '', strip, quote: undefined, quoted: false };
      this.wordStart = true;
      return;
    }
    if (c === '<' && at(0) === '<' && at(1) === '<') {
      this.out += '<<';
      skip(2);
      this.endWord(frame);
      this.wordStart = true;
      return;
    }
    if (c === '\n') {
      this.endWord(frame);
      this.finishDelimiter();
      this.wordStart = true;
      // Here-documents start on the line after their <<, in the order they were named.
      for (const heredoc of this.pending.splice(0).reverse()) this.stack.push({ kind: 'heredoc', ...heredoc, line: '' });
      return;
    }
    if (SEPARATOR.test(c)) {
      this.endWord(frame);
      this.wordStart = true;
      return;
    }
    this.wordStart = false;
    this.word += c;
  }

  /** Copies `count` more characters of an opener (`$(`, `${`, `$((`) and enters its frame. */
  private copy(at: (offset: number) => string, count: number, skip: (n: number) => void, frame: Frame): void {
    for (let offset = 0; offset < count; offset++) this.out += at(offset);
    skip(count);
    this.stack.push(frame);
  }
}

function refuse(where: string, index: number, why: string): never {
  throw new TemplateValueRefused(where, `${nth(index)} ${why}`);
}

/**
 * The script with every action's value replaced by a reference to an environment variable that holds it,
 * and those variables. Throws TemplateValueRefused where a value cannot be placed safely.
 */
export function renderScript(where: string, segments: readonly OutputSegment[]): RenderedScript {
  if (!segments.some((segment) => segment.action)) return { script: segments.map((segment) => segment.text).join(''), env: {} };
  const first = segments[0];
  const shebang = first && !first.action ? shebangInterpreter(first.text) : undefined;
  if (first && !first.action && first.text.startsWith('#!') && !first.text.includes('\n')) refuse(where, 0, 'is in the shebang line: the interpreter is never chosen by a value');
  if (shebang !== undefined && !SHELLS.has(shebang)) return plainWords(where, segments, shebang);
  const lexer = new ShellLexer();
  const env: Record<string, string> = {};
  let count = 0;
  for (const segment of segments) {
    if (!segment.action) {
      lexer.feed(segment.text);
      continue;
    }
    const value = segment.text;
    const index = count;
    count += 1;
    const name = `${TEMPLATE_ENV_PREFIX}${count}`;
    if (value.includes('\0')) refuse(where, index, 'holds a NUL character, which no environment variable can carry');
    env[name] = value;
    const placed = placeValue(where, lexer, index, name, value);
    lexer.out += placed;
  }
  return { script: lexer.out, env };
}

/** The reference (or text) that stands for a value where the lexer is. */
function placeValue(where: string, lexer: ShellLexer, index: number, name: string, value: string): string {
  const ref = `\${${name}}`;
  if (lexer.delimiter) refuse(where, index, 'is a here-document delimiter (after <<): a delimiter is never chosen by a value');
  const frame = lexer.top();
  // A `$` written just before the value stays a `$`: the value never names a variable to expand.
  const dollarBefore = !lexer.escaped && lexer.out.endsWith('$') && frame.kind !== 'squote' && frame.kind !== 'ansi' && frame.kind !== 'comment' && !(frame.kind === 'heredoc' && frame.quoted);
  if (dollarBefore) lexer.out = `${lexer.out.slice(0, -1)}\\$`;
  const escaped = lexer.escaped;
  lexer.escaped = false;
  const code = lexer.code();
  const checkBrackets = () => {
    if (code?.dbracket && value.includes('[')) refuse(where, index, 'holds "[" inside [[ … ]], where bash may evaluate it as arithmetic (a[$(…)] runs commands)');
  };
  switch (frame.kind) {
    case 'code':
      // A backslash before the value would escape the reference's quote: the value is text anyway.
      if (escaped) lexer.out = lexer.out.slice(0, -1);
      checkBrackets();
      lexer.wordStart = false;
      lexer.word += '\0';
      return `"${ref}"`;
    case 'dquote':
      checkBrackets();
      return escaped ? `\\${ref}` : ref;
    case 'squote':
      return `'"${ref}"'`;
    case 'ansi':
      return `${escaped ? '\\' : ''}'"${ref}"$'`;
    case 'brace':
      if (escaped) lexer.out = lexer.out.slice(0, -1);
      return frame.inDouble ? ref : `"${ref}"`;
    case 'arith':
      if (escaped) lexer.out = lexer.out.slice(0, -1);
      if (!/^\s*[+-]?\d+\s*$/.test(value)) refuse(where, index, 'is in an arithmetic expression and is not an integer');
      return ref;
    case 'comment':
      return ref;
    case 'heredoc':
      frame.line += '\0';
      if (frame.quoted) {
        if (value.includes(frame.delimiter)) refuse(where, index, `holds the here-document's delimiter ${JSON.stringify(frame.delimiter)}`);
        return value;
      }
      return escaped ? `\\${ref}` : ref;
  }
}

/** A script for another interpreter: plain words as written, anything else refused. */
function plainWords(where: string, segments: readonly OutputSegment[], interpreter: string): RenderedScript {
  let count = 0;
  let script = '';
  for (const segment of segments) {
    if (!segment.action) {
      script += segment.text;
      continue;
    }
    const index = count;
    count += 1;
    if (!PLAIN_WORD.test(segment.text)) {
      refuse(
        where,
        index,
        `is not a plain word (letters, digits, "_", and "." or "-" between them), and the script runs with ${interpreter}, where it would be code: ` +
          'pass it in exec.env ({name: NAME, value: "{{…}}"}) and read the environment variable in the script',
      );
    }
    script += segment.text;
  }
  return { script, env: {} };
}
