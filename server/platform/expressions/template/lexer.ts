/**
 * The scanner of Go's text/template (src/text/template/parse/lex.go): text, actions between the
 * delimiters, trim markers (`{{- ` and ` -}}`), comments, and the tokens inside actions.
 */
export enum Item {
  Error,
  Bool,
  Char,
  CharConstant,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  // Keywords come after this marker.
  Keyword,
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Token {
  type: Item;
  /** Offset in the template text where the token starts. */
  pos: number;
  val: string;
}

const keywords: Record<string, Item> = {
  '.': Item.Dot,
  block: Item.Block,
  break: Item.Break,
  continue: Item.Continue,
  define: Item.Define,
  else: Item.Else,
  end: Item.End,
  if: Item.If,
  range: Item.Range,
  nil: Item.Nil,
  template: Item.Template,
  with: Item.With,
};

export function keywordOf(word: string): Item | undefined {
  return Object.hasOwn(keywords, word) ? keywords[word] : undefined;
}

const spaceChars = ' \t\r\n';
const leftComment = '/*';
const rightComment = '*/';

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\r' || char === '\n';
}

const alphaNumeric = /^[\p{L}\p{Nd}_]$/u;

function isAlphaNumeric(char: string | undefined): boolean {
  if (char === undefined) return false;
  const code = char.charCodeAt(0);
  if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95) return true;
  return code > 127 && alphaNumeric.test(char);
}

function isPrintableAscii(char: string): boolean {
  const code = char.charCodeAt(0);
  return code >= 0x20 && code < 0x7f;
}

function hasLeftTrimMarker(text: string, at: number): boolean {
  return text[at] === '-' && isSpace(text[at + 1]);
}

function hasRightTrimMarker(text: string, at: number): boolean {
  return isSpace(text[at]) && text[at + 1] === '-';
}

/** Scans the whole template into tokens; the last one is EOF or an Error. */
export function lex(input: string, leftDelim = '{{', rightDelim = '}}'): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let start = 0;
  let parenDepth = 0;

  const emit = (type: Item) => {
    tokens.push({ type, pos: start, val: input.slice(start, pos) });
    start = pos;
  };
  const fail = (message: string): Token[] => {
    tokens.push({ type: Item.Error, pos: start, val: message });
    return tokens;
  };
  /** A code point, so letters outside the BMP stay whole. */
  const next = (): string | undefined => {
    if (pos >= input.length) {
      pos = input.length + 1;
      return undefined;
    }
    const code = input.codePointAt(pos) ?? 0;
    const char = String.fromCodePoint(code);
    pos += char.length;
    return char;
  };
  const backup = (char: string | undefined) => {
    pos -= char === undefined ? 1 : char.length;
  };
  const peek = (): string | undefined => {
    const char = next();
    backup(char);
    return char;
  };
  const accept = (valid: string): boolean => {
    const char = next();
    if (char !== undefined && valid.includes(char)) return true;
    backup(char);
    return false;
  };
  const acceptRun = (valid: string) => {
    for (;;) {
      const char = next();
      if (char === undefined || !valid.includes(char)) {
        backup(char);
        return;
      }
    }
  };
  const atRightDelim = (): { delim: boolean; trim: boolean } => {
    if (hasRightTrimMarker(input, pos) && input.startsWith(rightDelim, pos + 2)) return { delim: true, trim: true };
    if (input.startsWith(rightDelim, pos)) return { delim: true, trim: false };
    return { delim: false, trim: false };
  };
  const atTerminator = (): boolean => {
    const char = peek();
    if (isSpace(char)) return true;
    switch (char) {
      case undefined:
      case '.':
      case ',':
      case '|':
      case ':':
      case ')':
      case '(':
        return true;
    }
    return input.startsWith(rightDelim, pos);
  };
  const leftTrimLength = (from: number): number => {
    let end = from;
    while (end < input.length && spaceChars.includes(input.charAt(end))) end++;
    return end - from;
  };

  const scanNumber = (): boolean => {
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (isAlphaNumeric(peek())) {
      next();
      return false;
    }
    return true;
  };

  // The states of Go's lexer, as a loop: text, then an action, then text again.
  for (;;) {
    // Text up to the next left delimiter, minus trailing spaces when the action starts with "{{- ".
    const found = input.indexOf(leftDelim, pos);
    if (found < 0) {
      pos = input.length;
      if (pos > start) emit(Item.Text);
      emit(Item.EOF);
      return tokens;
    }
    pos = found;
    let trimLength = 0;
    if (hasLeftTrimMarker(input, pos + leftDelim.length)) {
      const text = input.slice(start, pos);
      trimLength = text.length - text.replace(/[ \t\r\n]+$/, '').length;
    }
    pos -= trimLength;
    if (pos > start) emit(Item.Text);
    pos += trimLength;
    start = pos;

    // The left delimiter, maybe a comment.
    pos += leftDelim.length;
    const trimLeft = hasLeftTrimMarker(input, pos);
    const afterMarker = trimLeft ? 2 : 0;
    if (input.startsWith(leftComment, pos + afterMarker)) {
      pos += afterMarker;
      start = pos;
      pos += leftComment.length;
      const close = input.indexOf(rightComment, pos);
      if (close < 0) return fail('unclosed comment');
      pos = close + rightComment.length;
      const { delim, trim } = atRightDelim();
      if (!delim) return fail('comment ends before closing delimiter');
      if (trim) pos += 2;
      pos += rightDelim.length;
      if (trim) pos += leftTrimLength(pos);
      start = pos;
      continue;
    }
    emit(Item.LeftDelim);
    pos += afterMarker;
    start = pos;
    parenDepth = 0;

    // Inside the action, up to the right delimiter.
    for (;;) {
      const { delim } = atRightDelim();
      if (delim) {
        if (parenDepth !== 0) return fail('unclosed left paren');
        const trim = hasRightTrimMarker(input, pos);
        if (trim) {
          pos += 2;
          start = pos;
        }
        pos += rightDelim.length;
        emit(Item.RightDelim);
        if (trim) {
          pos += leftTrimLength(pos);
          start = pos;
        }
        break;
      }
      const char = next();
      if (char === undefined) return fail('unclosed action');
      if (isSpace(char)) {
        // Spaces, minding a trim-marked right delimiter that starts with a space.
        backup(char);
        let spaces = 0;
        while (isSpace(peek())) {
          next();
          spaces++;
        }
        if (hasRightTrimMarker(input, pos - 1) && input.startsWith(rightDelim, pos - 1 + 2)) {
          pos -= 1;
          if (spaces === 1) continue;
        }
        emit(Item.Space);
        continue;
      }
      switch (char) {
        case '=':
          emit(Item.Assign);
          continue;
        case ':':
          if (next() !== '=') return fail('expected :=');
          emit(Item.Declare);
          continue;
        case '|':
          emit(Item.Pipe);
          continue;
        case '"': {
          for (;;) {
            const c = next();
            if (c === '\\') {
              const escaped = next();
              if (escaped !== undefined && escaped !== '\n') continue;
              return fail('unterminated quoted string');
            }
            if (c === undefined || c === '\n') return fail('unterminated quoted string');
            if (c === '"') break;
          }
          emit(Item.String);
          continue;
        }
        case '`': {
          const close = input.indexOf('`', pos);
          if (close < 0) return fail('unterminated raw quoted string');
          pos = close + 1;
          emit(Item.RawString);
          continue;
        }
        case '$': {
          if (atTerminator()) {
            emit(Item.Variable);
            continue;
          }
          const error = scanFieldOrVariable(Item.Variable);
          if (error) return fail(error);
          continue;
        }
        case "'": {
          for (;;) {
            const c = next();
            if (c === '\\') {
              const escaped = next();
              if (escaped !== undefined && escaped !== '\n') continue;
              return fail('unterminated character constant');
            }
            if (c === undefined || c === '\n') return fail('unterminated character constant');
            if (c === "'") break;
          }
          emit(Item.CharConstant);
          continue;
        }
        case '(':
          emit(Item.LeftParen);
          parenDepth++;
          continue;
        case ')':
          emit(Item.RightParen);
          parenDepth--;
          if (parenDepth < 0) return fail('unexpected right paren U+0029 \')\'');
          continue;
      }
      if (char === '.') {
        const following = input.charCodeAt(pos);
        if (pos < input.length && (following < 48 || following > 57)) {
          const error = scanFieldOrVariable(Item.Field);
          if (error) return fail(error);
          continue;
        }
      }
      if (char === '.' || char === '+' || char === '-' || (char >= '0' && char <= '9')) {
        backup(char);
        if (!scanNumber()) return fail(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`);
        const sign = peek();
        if (sign === '+' || sign === '-') {
          if (!scanNumber() || input[pos - 1] !== 'i') return fail(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`);
          emit(Item.Complex);
        } else {
          emit(Item.Number);
        }
        continue;
      }
      if (isAlphaNumeric(char)) {
        let c: string | undefined;
        for (c = next(); isAlphaNumeric(c); c = next());
        backup(c);
        if (!atTerminator()) return fail(`bad character ${describeRune(c)}`);
        const word = input.slice(start, pos);
        const keyword = keywordOf(word);
        if (keyword !== undefined && keyword > Item.Keyword) emit(keyword);
        else if (word === 'true' || word === 'false') emit(Item.Bool);
        else emit(Item.Identifier);
        continue;
      }
      if (isPrintableAscii(char)) {
        emit(Item.Char);
        continue;
      }
      return fail(`unrecognized character in action: ${describeRune(char)}`);
    }
  }

  /** After "." or "$": the rest of the name; undefined when it scanned, else the error. */
  function scanFieldOrVariable(type: Item.Field | Item.Variable): string | undefined {
    if (atTerminator()) {
      emit(type === Item.Variable ? Item.Variable : Item.Dot);
      return undefined;
    }
    let c: string | undefined;
    for (c = next(); isAlphaNumeric(c); c = next());
    backup(c);
    if (!atTerminator()) return `bad character ${describeRune(c)}`;
    emit(type);
    return undefined;
  }
}

/** Go's %#U of a rune: U+0041 'A'. */
export function describeRune(char: string | undefined): string {
  if (char === undefined) return 'U+FFFFFFFF';
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char) ? `U+${hex} '${char}'` : `U+${hex}`;
}
