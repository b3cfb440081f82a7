/**
 * What the engine needs of Go's strconv: reading number and string literals as the Go parser does
 * (strconv.ParseInt/ParseUint/ParseFloat with base 0, Unquote), quoting (Quote) and formatting float64
 * (FormatFloat with 'e', 'f', 'g', shortest or with a precision, rounding half to even on the exact
 * binary value as Go does).
 */

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;
const MAX_UINT64 = 18446744073709551615n;

/** Go's underscoreOK: underscores only between digits (a base prefix counts as a digit). */
function underscoreOK(text: string): boolean {
  let saw = '^';
  let index = 0;
  if (text.startsWith('+') || text.startsWith('-')) index++;
  let hex = false;
  if (text.length - index >= 2 && text[index] === '0' && 'xXbBoO'.includes(text[index + 1] ?? '')) {
    hex = text[index + 1] === 'x' || text[index + 1] === 'X';
    index += 2;
    saw = '0';
  }
  for (; index < text.length; index++) {
    const char = text.charAt(index);
    if ((char >= '0' && char <= '9') || (hex && /[a-fA-F]/.test(char))) {
      saw = '0';
      continue;
    }
    if (char === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseUint(text, 0, 64): undefined when it fails. */
export function parseGoUint(text: string): bigint | undefined {
  if (text === '' || text.startsWith('+') || text.startsWith('-')) return undefined;
  let base = 10;
  let digits = text;
  if (text.length >= 2 && text[0] === '0') {
    const prefix = text[1];
    if (prefix === 'x' || prefix === 'X') [base, digits] = [16, text.slice(2)];
    else if (prefix === 'o' || prefix === 'O') [base, digits] = [8, text.slice(2)];
    else if (prefix === 'b' || prefix === 'B') [base, digits] = [2, text.slice(2)];
    else [base, digits] = [8, text.slice(1)];
  }
  if (text.includes('_')) {
    if (!underscoreOK(text)) return undefined;
    digits = digits.replaceAll('_', '');
  }
  if (digits === '') return undefined;
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : base === 2 ? /^[01]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return undefined;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  const value = BigInt(prefix + digits);
  return value > MAX_UINT64 ? undefined : value;
}

/** strconv.ParseInt(text, 0, 64). */
export function parseGoInt(text: string): bigint | undefined {
  const negative = text.startsWith('-');
  const body = text.startsWith('+') || negative ? text.slice(1) : text;
  const magnitude = parseGoUint(body);
  if (magnitude === undefined) return undefined;
  const value = negative ? -magnitude : magnitude;
  return value > MAX_INT64 || value < MIN_INT64 ? undefined : value;
}

/** strconv.ParseFloat(text, 64) for the forms a template can hold; undefined on error or overflow. */
export function parseGoFloat(text: string): number | undefined {
  if (text.includes('_') && !underscoreOK(text)) return undefined;
  const clean = text.replaceAll('_', '');
  const sign = clean.startsWith('-') ? -1 : 1;
  const body = clean.startsWith('+') || clean.startsWith('-') ? clean.slice(1) : clean;
  let value: number;
  const hex = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(body);
  if (hex) {
    const [, whole = '', fraction = '', exponent = '0'] = hex;
    if (whole === '' && fraction === '') return undefined;
    const mantissa = Number.parseInt(`${whole}${fraction}` || '0', 16);
    value = mantissa * 2 ** (Number(exponent) - 4 * fraction.length);
  } else {
    if (!/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(body)) return undefined;
    value = Number(body);
  }
  if (!Number.isFinite(value)) return undefined;
  return sign * value;
}

const simpleEscapes: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** strconv.UnquoteChar: one (possibly escaped) character at `at`; undefined when malformed. */
export function unquoteChar(text: string, at: number, quote: string): { value: string; next: number; byte?: number } | undefined {
  const char = text.codePointAt(at);
  if (char === undefined) return undefined;
  if (String.fromCodePoint(char) === quote && (quote === "'" || quote === '"')) return undefined;
  if (char !== 0x5c) {
    const value = String.fromCodePoint(char);
    return { value, next: at + value.length };
  }
  const kind = text[at + 1];
  if (kind === undefined) return undefined;
  if (Object.hasOwn(simpleEscapes, kind)) return { value: simpleEscapes[kind] ?? '', next: at + 2 };
  if (kind === "'" || kind === '"') return kind === quote ? { value: kind, next: at + 2 } : undefined;
  if (kind === 'x' || kind === 'u' || kind === 'U') {
    const size = kind === 'x' ? 2 : kind === 'u' ? 4 : 8;
    const hex = text.slice(at + 2, at + 2 + size);
    if (hex.length !== size || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
    const code = Number.parseInt(hex, 16);
    if (kind === 'x') return { value: String.fromCharCode(code), next: at + 2 + size, byte: code };
    if (code > 0x10ffff || (code >= 0xd800 && code < 0xe000)) return undefined;
    return { value: String.fromCodePoint(code), next: at + 2 + size };
  }
  if (kind >= '0' && kind <= '7') {
    const octal = text.slice(at + 1, at + 4);
    if (!/^[0-7]{3}$/.test(octal)) return undefined;
    const code = Number.parseInt(octal, 8);
    if (code > 255) return undefined;
    return { value: String.fromCharCode(code), next: at + 4, byte: code };
  }
  return undefined;
}

/**
 * strconv.Unquote of a "…", `…` or '…' literal. Escaped bytes (\xNN, \NNN) above 0x7f are decoded as
 * UTF-8 sequences, as Go strings are bytes.
 */
export function unquote(literal: string): string | undefined {
  const quote = literal[0];
  if (literal.length < 2 || literal[literal.length - 1] !== quote) return undefined;
  const body = literal.slice(1, -1);
  if (quote === '`') return body.includes('`') ? undefined : body.replaceAll('\r', '');
  if (quote !== '"' && quote !== "'") return undefined;
  if (quote === '"' && body.includes('\n')) return undefined;
  let out = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length > 0) out += new TextDecoder().decode(new Uint8Array(bytes));
    bytes = [];
  };
  for (let at = 0; at < body.length; ) {
    const step = unquoteChar(body, at, quote);
    if (!step) return undefined;
    if (step.byte !== undefined && step.byte > 0x7f) bytes.push(step.byte);
    else {
      flush();
      out += step.value;
    }
    at = step.next;
  }
  flush();
  if (quote === "'" && [...out].length !== 1) return undefined;
  return out;
}

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function isPrint(char: string): boolean {
  return char === ' ' || printable.test(char);
}

const quoteEscapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

/** strconv.Quote (and QuoteToASCII when `ascii`), or the rune form for `'`. */
export function quote(text: string, quoteChar = '"', ascii = false): string {
  let out = quoteChar;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === quoteChar || char === '\\') {
      out += `\\${char}`;
    } else if (code < 0x80 ? isPrint(char) : !ascii && isPrint(char)) {
      out += char;
    } else if (Object.hasOwn(quoteEscapes, char)) {
      out += quoteEscapes[char];
    } else if (code < 0x20 || code === 0x7f) {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else if (code >= 0xd800 && code < 0xe000) {
      out += '\\ufffd';
    } else if (code < 0x10000) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      out += `\\U${code.toString(16).padStart(8, '0')}`;
    }
  }
  return out + quoteChar;
}

/** A decimal reading of a float64: 0.DIGITS × 10^dp. */
interface Decimal {
  digits: string;
  dp: number;
}

/** The shortest digits that read back as `value` (value > 0), as Go's shortest formatting finds them. */
function shortestDecimal(value: number): Decimal {
  const text = value.toExponential();
  const e = text.indexOf('e');
  const digits = text.slice(0, e).replace('.', '');
  return { digits, dp: Number(text.slice(e + 1)) + 1 };
}

/** Every digit of `value` (value > 0): a float64 is a finite binary fraction, so a finite decimal. */
function exactDecimal(value: number): Decimal {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & 0xfffffffffffffn;
  let exponent: number;
  if (exponentBits === 0) exponent = -1074;
  else {
    mantissa |= 1n << 52n;
    exponent = exponentBits - 1075;
  }
  let digits: string;
  let dp: number;
  if (exponent >= 0) {
    digits = (mantissa << BigInt(exponent)).toString();
    dp = digits.length;
  } else {
    digits = (mantissa * 5n ** BigInt(-exponent)).toString();
    dp = digits.length + exponent;
  }
  const trimmed = digits.replace(/0+$/, '');
  return { digits: trimmed, dp };
}

/** Go's decimal.Round: keep `nd` digits, rounding half to even on the exact value. */
function roundDecimal(decimal: Decimal, nd: number): Decimal {
  const { digits, dp } = decimal;
  if (nd < 0 || nd >= digits.length) return decimal;
  const next = digits.charCodeAt(nd) - 48;
  let up: boolean;
  if (next === 5 && nd + 1 === digits.length) up = nd > 0 && (digits.charCodeAt(nd - 1) - 48) % 2 === 1;
  else up = next >= 5;
  if (!up) return { digits: digits.slice(0, nd).replace(/0+$/, ''), dp };
  let index = nd - 1;
  while (index >= 0 && digits[index] === '9') index--;
  if (index < 0) return { digits: '1', dp: dp + 1 };
  return { digits: digits.slice(0, index) + String.fromCharCode(digits.charCodeAt(index) + 1), dp };
}

function formatE(neg: boolean, decimal: Decimal, prec: number, letter: string): string {
  const { digits, dp } = decimal;
  let out = neg ? '-' : '';
  out += digits.length === 0 ? '0' : digits[0];
  if (prec > 0) {
    out += '.';
    const fraction = digits.slice(1, Math.min(digits.length, prec + 1));
    out += fraction + '0'.repeat(prec - fraction.length);
  }
  const exp = digits.length === 0 ? 0 : dp - 1;
  const sign = exp < 0 ? '-' : '+';
  const magnitude = Math.abs(exp);
  return `${out}${letter}${sign}${magnitude < 10 ? `0${magnitude}` : magnitude}`;
}

function formatF(neg: boolean, decimal: Decimal, prec: number): string {
  const { digits, dp } = decimal;
  let out = neg ? '-' : '';
  if (dp > 0) {
    const whole = digits.slice(0, Math.min(digits.length, dp));
    out += whole + '0'.repeat(dp - whole.length);
  } else {
    out += '0';
  }
  if (prec > 0) {
    out += '.';
    for (let index = 1; index <= prec; index++) {
      const at = dp + index - 1;
      out += at >= 0 && at < digits.length ? digits[at] : '0';
    }
  }
  return out;
}

export type FloatFormat = 'e' | 'E' | 'f' | 'g' | 'G';

/** strconv.FormatFloat(value, format, prec, 64); prec < 0 asks for the shortest form. */
export function formatFloat(value: number, format: FloatFormat, prec: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const neg = value < 0 || Object.is(value, -0);
  const abs = Math.abs(value);
  const shortest = prec < 0;
  let decimal: Decimal;
  if (abs === 0) decimal = { digits: '', dp: 0 };
  else if (shortest) decimal = shortestDecimal(abs);
  else {
    decimal = exactDecimal(abs);
    if (format === 'e' || format === 'E') decimal = roundDecimal(decimal, prec + 1);
    else if (format === 'f') decimal = roundDecimal(decimal, decimal.dp + prec);
    else {
      if (prec === 0) prec = 1;
      decimal = roundDecimal(decimal, prec);
    }
  }
  const nd = decimal.digits.length;
  if (shortest) {
    if (format === 'e' || format === 'E') prec = Math.max(nd - 1, 0);
    else if (format === 'f') prec = Math.max(nd - decimal.dp, 0);
    else prec = nd;
  }
  switch (format) {
    case 'e':
    case 'E':
      return formatE(neg, decimal, prec, format);
    case 'f':
      return formatF(neg, decimal, prec);
    case 'g':
    case 'G': {
      let eprec = prec;
      if (eprec > nd && nd >= decimal.dp) eprec = nd;
      if (shortest) eprec = 6;
      const exp = decimal.dp - 1;
      if (exp < -4 || exp >= eprec) return formatE(neg, decimal, Math.min(prec, nd) - 1, format === 'g' ? 'e' : 'E');
      if (prec > decimal.dp) prec = nd;
      return formatF(neg, decimal, Math.max(prec - decimal.dp, 0));
    }
  }
}

/** The sign, biased exponent and mantissa bits of a float64. */
function float64Bits(value: number): { neg: boolean; exp: number; mant: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  return { neg: bits >> 63n === 1n, exp: Number((bits >> 52n) & 0x7ffn), mant: bits & ((1n << 52n) - 1n) };
}

/**
 * strconv.FormatFloat(value, 'b' | 'x' | 'X', prec, 64) (strconv/ftoa.go's fmtB and fmtX): the binary
 * exponent forms, `4503599627370496p-52` and `0x1.9p+07`; prec < 0 asks for the shortest hex form.
 */
export function formatFloatBinary(value: number, format: 'b' | 'x' | 'X', prec: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const bits = float64Bits(value);
  let { exp, mant } = bits;
  if (exp === 0) exp++;
  else mant |= 1n << 52n;
  exp -= 1023;
  const sign = bits.neg ? '-' : '';
  if (format === 'b') {
    exp -= 52;
    return `${sign}${mant}p${exp >= 0 ? '+' : ''}${exp}`;
  }
  if (mant === 0n) exp = 0;
  const top = 1n << 60n;
  mant <<= 8n;
  while (mant !== 0n && (mant & top) === 0n) {
    mant <<= 1n;
    exp--;
  }
  if (prec >= 0 && prec < 15) {
    const shift = BigInt(prec * 4);
    const extra = (mant << shift) & (top - 1n);
    mant >>= 60n - shift;
    if ((extra | (mant & 1n)) > 1n << 59n) mant++;
    mant <<= 60n - shift;
    if ((mant & (1n << 61n)) !== 0n) {
      mant >>= 1n;
      exp++;
    }
  }
  const hex = format === 'X' ? '0123456789ABCDEF' : '0123456789abcdef';
  let out = `${sign}0${format}${(mant >> 60n) & 1n}`;
  const mask = (1n << 64n) - 1n;
  mant = (mant << 4n) & mask;
  const digit = () => {
    const d = hex[Number((mant >> 60n) & 15n)] ?? '0';
    mant = (mant << 4n) & mask;
    return d;
  };
  if (prec < 0 && mant !== 0n) {
    out += '.';
    while (mant !== 0n) out += digit();
  } else if (prec > 0) {
    out += '.';
    for (let index = 0; index < prec; index++) out += digit();
  }
  out += format === 'X' ? 'P' : 'p';
  out += exp < 0 ? '-' : '+';
  const magnitude = Math.abs(exp);
  return out + (magnitude < 10 ? `0${magnitude}` : String(magnitude));
}

/** fmt's %v of a float64: %g, shortest. */
export function formatFloatV(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e6 && !Object.is(value, -0)) return String(value);
  return formatFloat(value, 'g', -1);
}
