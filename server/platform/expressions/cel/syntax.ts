/**
 * CEL syntax that cel-js's parser does not read, turned into text it does read, before it parses. Every
 * rewrite keeps the text's length and the offset of every token, so the parser's positions (error line and
 * column) stay those of what the user wrote; what the placeholder stands for is kept in `SourceMarks`, keyed
 * by offset, and put back into the syntax tree by rewrite.ts:
 *
 * - optional list and map entries, `[?x, y]` and `{?k: v}`: the `?` becomes `!` and its offset is marked;
 * - raw bytes literals (`br'…'`, `rb"…"`), and bytes literals with non-ASCII characters (whose bytes are
 *   their UTF-8 encoding, where cel-js keeps one byte per character): a blank `b'   '` and the real bytes;
 * - a double literal with no digit before its point (`.99`): zeros, and the real number;
 * - back-quoted field names (`` m.`content-type` ``): an identifier of underscores, and the real name;
 * - `cel.index(N)` and `cel.iterVar(N, M)` (cel.block's slots and its comprehension variables): the
 *   identifiers `_cel_index_N` and `_cel_iterVar_N_M`, padded with spaces.
 */
export interface SourceMarks {
  /** Offset of a literal → its real value (bytes or a double). */
  literals: Map<number, Uint8Array | number>;
  /** Offset of a field name → the back-quoted name it stands for. */
  fields: Map<number, string>;
  /** Offsets of the `!` that stand for the `?` of an optional list or map entry. */
  optionalEntries: Set<number>;
}

interface Token {
  kind: 'ident' | 'number' | 'string' | 'punct' | 'quoted';
  start: number;
  end: number;
  text: string;
}

/** The text as cel-js will parse it, and the marks; `marks` is undefined when nothing was rewritten. */
export function prepareSource(source: string): { text: string; marks?: SourceMarks } {
  // Nothing to do for the common expression: no `?`, backquote, dot-leading number, raw or non-ASCII bytes, cel.
  if (!/[?`]|cel\s*\.|[^\x00-\x7f]|[bBrR][bBrR]['"]|(^|[^\w)\]}\s])\s*\.\d/.test(source)) return { text: source };
  const tokens = tokenize(source);
  if (!tokens) return { text: source }; // the parser reports the lexical error itself
  const chars = source.split('');
  const marks: SourceMarks = { literals: new Map(), fields: new Map(), optionalEntries: new Set() };
  /** Writes `text` (padded with spaces) over a span; a span across lines is left alone (lines must stay). */
  const replace = (start: number, end: number, text: string): boolean => {
    if (/[\n\r]/.test(source.slice(start, end))) return false;
    for (let i = start; i < end; i++) chars[i] = i - start < text.length ? text[i - start]! : ' ';
    return true;
  };
  const stack: Array<'list' | 'map' | 'other'> = [];
  const endsOperand = (token: Token | undefined) => !!token && (token.kind !== 'punct' || token.text === ')' || token.text === ']' || token.text === '}');
  let changed = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const previous = tokens[i - 1];
    if (token.kind === 'punct') {
      if (token.text === '[') stack.push(endsOperand(previous) ? 'other' : 'list');
      else if (token.text === '{') stack.push(previous?.kind === 'ident' ? 'other' : 'map');
      else if (token.text === '(') stack.push('other');
      else if (token.text === ')' || token.text === ']' || token.text === '}') stack.pop();
      else if (token.text === '?' && previous && (previous.text === ',' || previous.text === '[' || previous.text === '{') && previous.kind === 'punct') {
        const context = stack[stack.length - 1];
        if (context === 'list' || context === 'map') {
          replace(token.start, token.end, '!');
          marks.optionalEntries.add(token.start);
          changed = true;
        }
      } else if (token.text === '.' && tokens[i + 1]?.kind === 'number' && tokens[i + 1]!.start === token.end && !endsOperand(previous)) {
        // `.99`: the number token after the dot holds the digits (and exponent)
        const number = tokens[i + 1]!;
        const value = Number(`0.${number.text}`);
        if (/^\d+([eE][-+]?\d+)?$/.test(number.text) && Number.isFinite(value)) {
          replace(token.start, number.end, '0'.repeat(number.end - token.start));
          marks.literals.set(token.start, value);
          changed = true;
          i++;
        }
      }
      continue;
    }
    if (token.kind === 'quoted' && previous?.kind === 'punct' && (previous.text === '.' || previous.text === '?') && replace(token.start, token.end, '_'.repeat(token.end - token.start))) {
      marks.fields.set(token.start, token.text);
      changed = true;
      continue;
    }
    if (token.kind === 'string') {
      const bytes = bytesLiteral(source.slice(token.start, token.end));
      if (bytes) {
        // a blank bytes literal of the same length and lines: b'   ' or b'''⏎ '''
        const quote = /['"]/.exec(token.text)![0];
        const triple = token.text.includes(quote.repeat(3)) && token.end - token.start >= 7;
        const delimiter = triple ? "'''" : "'";
        for (let i = token.start; i < token.end; i++) chars[i] = source[i] === '\n' || source[i] === '\r' ? source[i]! : ' ';
        chars[token.start] = 'b';
        for (let k = 0; k < delimiter.length; k++) {
          chars[token.start + 1 + k] = "'";
          chars[token.end - 1 - k] = "'";
        }
        marks.literals.set(token.start, bytes);
        changed = true;
      }
      continue;
    }
    if (token.kind === 'ident' && token.text === 'cel' && tokens[i + 1]?.text === '.' && tokens[i + 3]?.text === '(') {
      const name = tokens[i + 2]?.text;
      const first = tokens[i + 4];
      if (name === 'index' && first?.kind === 'number' && /^\d+$/.test(first.text) && tokens[i + 5]?.text === ')' && replace(token.start, tokens[i + 5]!.end, `_cel_index_${first.text}`)) {
        changed = true;
        i += 5;
      } else if (name === 'iterVar' && first?.kind === 'number' && tokens[i + 5]?.text === ',' && tokens[i + 6]?.kind === 'number' && tokens[i + 7]?.text === ')' && /^\d+$/.test(first.text) && /^\d+$/.test(tokens[i + 6]!.text) && replace(token.start, tokens[i + 7]!.end, `_cel_iterVar_${first.text}_${tokens[i + 6]!.text}`)) {
        changed = true;
        i += 7;
      }
    }
  }
  return changed ? { text: chars.join(''), marks } : { text: source };
}

const PUNCT3 = new Set<string>();
const PUNCT2 = new Set(['==', '!=', '<=', '>=', '&&', '||']);

/** CEL's tokens, enough to tell strings, numbers, identifiers and punctuation apart; undefined on a lexical error. */
function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    const prefix = /^[bBrR]{1,2}(?=['"])/.exec(source.slice(i, i + 3))?.[0] ?? '';
    if (ch === '"' || ch === "'" || (prefix && (prefix.length === 1 || prefix[0]!.toLowerCase() !== prefix[1]!.toLowerCase()))) {
      const end = stringEnd(source, i + prefix.length, /r/i.test(prefix));
      if (end < 0) return undefined;
      tokens.push({ kind: 'string', start: i, end, text: source.slice(i, end) });
      i = end;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      let end = i + 1;
      while (end < source.length && /[A-Za-z0-9_]/.test(source[end]!)) end++;
      tokens.push({ kind: 'ident', start: i, end, text: source.slice(i, end) });
      i = end;
      continue;
    }
    if (/[0-9]/.test(ch)) {
      const match = /^(0[xX][0-9a-fA-F]+[uU]?|\d+(\.\d+)?([eE][-+]?\d+)?[uU]?)/.exec(source.slice(i))!;
      tokens.push({ kind: 'number', start: i, end: i + match[0].length, text: match[0] });
      i += match[0].length;
      continue;
    }
    if (ch === '`') {
      const end = source.indexOf('`', i + 1);
      if (end < 0) return undefined;
      tokens.push({ kind: 'quoted', start: i, end: end + 1, text: source.slice(i + 1, end) });
      i = end + 1;
      continue;
    }
    const three = source.slice(i, i + 3);
    const two = source.slice(i, i + 2);
    const text = PUNCT3.has(three) ? three : PUNCT2.has(two) ? two : ch;
    tokens.push({ kind: 'punct', start: i, end: i + text.length, text });
    i += text.length;
  }
  return tokens;
}

/** The offset after a string literal whose quote is at `quoteAt`; -1 when it does not end. */
function stringEnd(source: string, quoteAt: number, raw: boolean): number {
  const quote = source[quoteAt]!;
  const triple = source.startsWith(quote.repeat(3), quoteAt);
  const closing = triple ? quote.repeat(3) : quote;
  let i = quoteAt + closing.length;
  while (i < source.length) {
    if (source.startsWith(closing, i)) return i + closing.length;
    if (!triple && (source[i] === '\n' || source[i] === '\r')) return -1;
    if (source[i] === '\\' && !raw) i++;
    else if (source[i] === '\\' && raw && source[i + 1] === quote) i++;
    i++;
  }
  return -1;
}

/**
 * The bytes of a bytes literal cel-js would read wrongly (raw, or with non-ASCII characters), as CEL defines
 * them: characters as UTF-8, escapes (\xNN, \NNN octal, \n…) as single bytes. Undefined for any other literal.
 */
export function bytesLiteral(literal: string): Uint8Array | undefined {
  const prefix = /^[bBrR]*/.exec(literal)![0];
  if (!/b/i.test(prefix)) return undefined;
  const raw = /r/i.test(prefix);
  const body = literal.slice(prefix.length);
  const quoteLength = body.startsWith(body[0]!.repeat(3)) && body.length >= 6 ? 3 : 1;
  const content = body.slice(quoteLength, body.length - quoteLength);
  if (!raw && !/[^\x00-\x7f]/.test(content)) return undefined;
  if (raw) return new Uint8Array(Buffer.from(content, 'utf8'));
  const out: number[] = [];
  const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, '?': 63, '"': 34, "'": 39, '`': 96 };
  for (let i = 0; i < content.length; ) {
    const ch = content[i]!;
    if (ch !== '\\') {
      const point = content.codePointAt(i)!;
      out.push(...Buffer.from(String.fromCodePoint(point), 'utf8'));
      i += point > 0xffff ? 2 : 1;
      continue;
    }
    const next = content[i + 1] ?? '';
    if (next in simple) {
      out.push(simple[next]!);
      i += 2;
    } else if ((next === 'x' || next === 'X') && /^[0-9a-fA-F]{2}$/.test(content.slice(i + 2, i + 4))) {
      out.push(Number.parseInt(content.slice(i + 2, i + 4), 16));
      i += 4;
    } else if (/^[0-3][0-7]{2}$/.test(content.slice(i + 1, i + 4))) {
      out.push(Number.parseInt(content.slice(i + 1, i + 4), 8));
      i += 4;
    } else {
      return undefined; // an invalid escape: let the parser say so
    }
  }
  return new Uint8Array(out);
}
