import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { entriesOf, fail, isMap, isNumber, listOf, stringOf, toInt, toStr, typeName, type Registrar } from './support';

// ---- cel-go's strings extension ----------------------------------------------------------------

/** Go's strconv.Quote (`%q`): escapes, quotes; printable Unicode kept. */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0x80 && code < 0xa0) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function charAt(text: string, index: unknown): string {
  const chars = Array.from(text);
  const at = toInt(index, 'charAt');
  if (at < 0 || at > chars.length) return fail(`charAt: index ${at} out of range`);
  return chars[at] ?? '';
}

function replace(text: string, from: unknown, to: unknown, limit?: unknown): string {
  const search = stringOf(from, 'replace');
  const replacement = stringOf(to, 'replace');
  let n = limit === undefined ? -1 : toInt(limit, 'replace');
  if (n === 0) return text;
  if (n < 0) return text.split(search).join(replacement);
  let out = '';
  let rest = text;
  while (n-- > 0) {
    const at = rest.indexOf(search);
    if (at < 0) break;
    out += rest.slice(0, at) + replacement;
    rest = rest.slice(at + search.length);
    if (search === '') {
      out += rest.slice(0, 1);
      rest = rest.slice(1);
    }
  }
  return out + rest;
}

/**
 * cel-go's `'…'.format([args])` (its strings extension, formatter v2): %s %d %f %e %x %X %o %b %% with an
 * optional precision (%.2f); each clause takes the types cel-go's does and fails on any other.
 */
function format(template: string, args: unknown): string {
  const values = listOf(args, 'format');
  let next = 0;
  return template.replace(/%(\.(\d+))?(.|$)/gs, (_all, _p, precision: string | undefined, verb: string) => {
    if (verb === '%' && precision === undefined) return '%';
    if (next >= values.length) return fail(`format: index ${next} out of range for ${JSON.stringify(template)}`);
    const value = values[next++];
    const digits = precision === undefined ? 6 : Number(precision);
    if (digits > 100) return fail(`format: precision ${digits} is too large`);
    const clause = (kinds: string) => fail(`format: %${verb} can only be used on ${kinds}, was given ${typeName(value)}`);
    switch (verb) {
      case 's':
        return formatString(value);
      case 'd':
        if (typeof value === 'bigint' || value instanceof UnsignedInt) return String(value.valueOf());
        if (typeof value === 'number') return goFloatF(value);
        return clause('ints, uints and doubles');
      case 'f':
      case 'e': {
        if (!isNumber(value)) return clause('ints, uints and doubles');
        const number = Number(value.valueOf());
        if (!Number.isFinite(number)) return goFloatF(number);
        return verb === 'f' ? fixed(number, digits) : scientific(number, digits);
      }
      case 'x':
      case 'X': {
        let text: string;
        if (typeof value === 'string' || value instanceof Uint8Array) text = Buffer.from(value).toString('hex');
        else if (typeof value === 'bigint' || value instanceof UnsignedInt) text = value.valueOf().toString(16);
        else return clause('ints, uints, bytes and strings');
        return verb === 'X' ? text.toUpperCase() : text;
      }
      case 'o':
        if (typeof value === 'bigint' || value instanceof UnsignedInt) return value.valueOf().toString(8);
        return clause('ints and uints');
      case 'b':
        if (typeof value === 'boolean') return value ? '1' : '0';
        if (typeof value === 'bigint' || value instanceof UnsignedInt) return value.valueOf().toString(2);
        return clause('ints, uints and bools');
      default:
        return fail(`format: unrecognized formatting clause %${precision === undefined ? '' : `.${precision}`}${verb}`);
    }
  });
}

/** A CEL type value (`type('x')`): cel-js's Type, named by its `name`. */
function typeValueName(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
  return typeof tag === 'string' && tag.startsWith('Type<') ? String((value as { name?: unknown }).name) : undefined;
}

/** `%s` as cel-go prints a value: lists `[a, b]`, maps `{k: v}` ordered by the printed key, RFC 3339 timestamps, durations in seconds. */
function formatString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (typeof value === 'boolean' || typeof value === 'bigint' || value instanceof UnsignedInt) return String(value.valueOf());
  if (typeof value === 'number') return goFloatF(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (value instanceof Date) return rfc3339(value);
  if (value instanceof Duration) return `${goFloatF(Number(value.seconds) + value.nanos / 1e9)}s`;
  if (Array.isArray(value)) return `[${value.map(formatString).join(', ')}]`;
  const type = typeValueName(value);
  if (type !== undefined) return type;
  if (value instanceof Map || (isMap(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value)))) {
    const entries = entriesOf(value, 'format').map(([key, item]) => [formatString(key), formatString(item)] as const);
    entries.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${entries.map(([key, item]) => `${key}: ${item}`).join(', ')}}`;
  }
  return fail(`format: %s cannot print a value of type ${typeName(value)}`);
}

/** Go's time.RFC3339Nano in UTC: no fraction when it is zero, no trailing zeros in it. */
function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.(\d*?)0*Z$/, (_all, fraction: string) => (fraction === '' ? 'Z' : `.${fraction}Z`));
}

/** Go's strconv.FormatFloat(x, 'f', -1, 64): the shortest digits, never an exponent; NaN and ±Infinity as CEL spells them. */
function goFloatF(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const text = String(Math.abs(value));
  const match = /^(\d+)(?:\.(\d+))?e([-+]\d+)$/.exec(text);
  if (!match) return sign + text;
  const digits = (match[1] ?? '') + (match[2] ?? '');
  const point = (match[1] ?? '').length + Number(match[3]);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A finite double exactly, as an integer and a count of decimal places: |x| = digits / 10^places. */
function exactDecimal(value: number): { digits: bigint; places: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
  const power = (exponent === 0 ? 1 : exponent) - 1075;
  if (power >= 0) return { digits: mantissa << BigInt(power), places: 0 };
  return { digits: mantissa * 5n ** BigInt(-power), places: -power };
}

/** digits / 10^drop rounded half to even, as Go's fmt rounds. */
function roundHalfEven(digits: bigint, drop: number): bigint {
  if (drop <= 0) return digits * 10n ** BigInt(-drop);
  const unit = 10n ** BigInt(drop);
  const quotient = digits / unit;
  const twice = (digits % unit) * 2n;
  return twice > unit || (twice === unit && quotient % 2n === 1n) ? quotient + 1n : quotient;
}

/** Go's %.Nf. */
function fixed(value: number, precision: number): string {
  const { digits, places } = exactDecimal(value);
  const text = roundHalfEven(digits, places - precision).toString().padStart(precision + 1, '0');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return precision === 0 ? sign + text : `${sign}${text.slice(0, -precision)}.${text.slice(-precision)}`;
}

/** Go's %.Ne: d.ddde±XX. */
function scientific(value: number, precision: number): string {
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const { digits, places } = exactDecimal(value);
  let mantissa = '0'.repeat(precision + 1);
  let exponent = 0;
  if (digits !== 0n) {
    const length = digits.toString().length;
    let rounded = roundHalfEven(digits, length - precision - 1).toString();
    exponent = length - 1 - places;
    if (rounded.length > precision + 1) {
      rounded = rounded.slice(0, precision + 1);
      exponent += 1;
    }
    mantissa = rounded;
  }
  const body = precision === 0 ? mantissa : `${mantissa.slice(0, 1)}.${mantissa.slice(1)}`;
  return `${sign}${body}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** cel-go's lowerAscii / upperAscii: only A–Z and a–z change. */
function asciiCase(text: string, upper: boolean): string {
  return upper ? text.replace(/[a-z]+/g, (run) => run.toUpperCase()) : text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

/** Go's unicode.IsSpace set, which cel-go's trim() removes (JS's trim() adds U+FEFF and misses U+0085). */
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

function goTrim(text: string): string {
  return text.replace(GO_TRIM, '');
}

/**
 * cel-js's own lowerAscii(), upperAscii() and trim() differ from cel-go's and cannot be registered over, so a
 * compiled expression's calls are renamed to these (useGoStringMethods); errors name them back (goMethodName).
 */
const GO_METHODS: Record<string, string> = { lowerAscii: 'lowerAscii_go', upperAscii: 'upperAscii_go', trim: 'trim_go' };

/** Renames `x.lowerAscii()`, `x.upperAscii()` and `x.trim()` in a parsed expression to cel-go's versions. */
export function useGoStringMethods(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) useGoStringMethods(item);
    return;
  }
  if (typeof node !== 'object' || node === null || typeof (node as { op?: unknown }).op !== 'string') return;
  const { op, args } = node as { op: string; args: unknown };
  if (op === 'value') return;
  if (op === 'rcall' && Array.isArray(args) && Array.isArray(args[2]) && args[2].length === 0 && typeof args[0] === 'string' && GO_METHODS[args[0]]) args[0] = GO_METHODS[args[0]];
  useGoStringMethods(args);
}

/** An error message with the renamed methods named as the user wrote them. */
export function goMethodName(message: string): string {
  return message.replace(/\b(lowerAscii|upperAscii|trim)_go\b/g, '$1');
}

/** cel-go's strings extension: charAt, replace, reverse, format, quote, and its lowerAscii, upperAscii, trim. */
export function registerCelGoStrings(r: Registrar): void {
  // cel-go strings extension (the rest — indexOf, lastIndexOf, substring, split, join — is cel-js's own;
  // its lowerAscii, upperAscii and trim are replaced by cel-go's, see useGoStringMethods).
  r.env.registerFunction('string.charAt(int): string', (text: string, index: bigint) => charAt(text, index));
  r.env.registerFunction('string.replace(string, string): string', (text: string, from: string, to: string) => replace(text, from, to));
  r.env.registerFunction('string.replace(string, string, int): string', (text: string, from: string, to: string, limit: bigint) => replace(text, from, to, limit));
  r.names.add('.charAt').add('.replace');
  r.method('string', 'reverse', 0, (text: string) => Array.from(text).reverse().join(''), 'string');
  r.env.registerFunction('string.format(list): string', (text: string, args: unknown) => format(text, args));
  r.env.registerFunction('string.lowerAscii_go(): string', (text: string) => asciiCase(text, false));
  r.env.registerFunction('string.upperAscii_go(): string', (text: string) => asciiCase(text, true));
  r.env.registerFunction('string.trim_go(): string', (text: string) => goTrim(text));
  r.names.add('.format');
  r.method('string', 'quote', 0, (text: string) => goQuote(text), 'string');
  r.fn('strings.quote', 1, (text: unknown) => goQuote(toStr(text)), 'string');
}
