import { createHash, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Duration, UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { semverMap, semverSatisfies } from '../shared/semver';
import { entriesOf, fail, isMap, isNumber, listOf, stringOf, toInt, toStr, typeName, type Handler, type Registrar } from './support';

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

// ---- gomplate's strings ----------------------------------------------------------------------

/** Apache commons-lang abbreviate (goutils.AbbreviateFull). */
function abbreviate(text: string, offsetIn: number, maxWidth: number): string {
  if (maxWidth < 4) return fail('abbrev: the width must be at least 4');
  if (text.length <= maxWidth) return text;
  let offset = Math.min(offsetIn, text.length);
  if (text.length - offset < maxWidth - 3) offset = text.length - (maxWidth - 3);
  if (offset <= 4) return `${text.slice(0, maxWidth - 3)}...`;
  if (maxWidth < 7) return fail('abbrev: with an offset the width must be at least 7');
  if (offset + maxWidth - 3 < text.length) return `...${abbreviate(text.slice(offset), 0, maxWidth - 3)}`;
  return `...${text.slice(text.length - (maxWidth - 3))}`;
}

function abbrev(args: unknown[]): string {
  if (args.length === 2) return abbreviate(toStr(args[1]), 0, toInt(args[0], 'abbrev'));
  return abbreviate(toStr(args[2]), toInt(args[0], 'abbrev'), toInt(args[1], 'abbrev'));
}

/** Words of a string for the case functions: split on non-alphanumerics and at lower→upper boundaries. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function casedWith(text: string, separator: string): string {
  const parts = words(text);
  return parts.map((word, i) => (i === 0 ? word[0] + word.slice(1).toLowerCase() : word.toLowerCase())).join(separator);
}

function camelCase(text: string): string {
  const parts = words(text);
  return parts.map((word, i) => (i === 0 ? word : (word[0]?.toUpperCase() ?? '') + word.slice(1))).join('');
}

function title(text: string): string {
  return text.replace(/[\p{L}\p{N}'’]+/gu, (word) => (word[0]?.toUpperCase() ?? '') + word.slice(1).toLowerCase());
}

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function indent(args: unknown[]): string {
  const input = toStr(args[args.length - 1]);
  let width = 1;
  let pad = ' ';
  if (args.length === 2) {
    if (typeof args[0] === 'string') pad = args[0];
    else width = toInt(args[0], 'indent');
  } else if (args.length === 3) {
    width = toInt(args[0], 'indent');
    pad = stringOf(args[1], 'indent');
  }
  const prefix = pad.repeat(Math.max(0, width));
  return input
    .split('\n')
    .map((line) => (line === '' ? line : prefix + line))
    .join('\n');
}

/** gomplate's WordWrap: greedy, never breaking a word; width 80 and "\n" unless given. */
function wordWrap(args: unknown[]): string {
  const input = toStr(args[args.length - 1]);
  let width = 80;
  let breakWith = '\n';
  if (args.length === 2) {
    if (typeof args[0] === 'string') breakWith = args[0];
    else width = toInt(args[0], 'wordWrap');
  } else if (args.length === 3) {
    width = toInt(args[0], 'wordWrap');
    breakWith = toStr(args[1]);
  }
  return input
    .split('\n')
    .map((paragraph) => {
      const lines: string[] = [];
      let line = '';
      for (const word of paragraph.split(/ +/)) {
        if (line === '') line = word;
        else if (line.length + 1 + word.length <= width) line += ` ${word}`;
        else {
          lines.push(line);
          line = word;
        }
      }
      lines.push(line);
      return lines.join(breakWith);
    })
    .join('\n');
}

function shellQuote(value: unknown): string {
  const one = (text: string) => `'${text.replace(/'/g, `'"'"'`)}'`;
  if (Array.isArray(value)) return value.map((item) => one(toStr(item))).join(' ');
  return one(toStr(value));
}

function trunc(length: number, text: string): string {
  if (length < 0) return text;
  return Array.from(text).slice(0, length).join('');
}

function trimCutset(text: string, cutset: string): string {
  const set = new Set(Array.from(cutset));
  const chars = Array.from(text);
  let start = 0;
  let end = chars.length;
  while (start < end && set.has(chars[start] ?? '')) start++;
  while (end > start && set.has(chars[end - 1] ?? '')) end--;
  return chars.slice(start, end).join('');
}

function goSplitN(text: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  const parts = sep === '' ? Array.from(text) : text.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

function sortStrings(value: unknown): unknown {
  if (typeof value === 'string') return Array.from(value).sort().join('');
  return listOf(value, 'Sort')
    .map(toStr)
    .sort();
}

// ---- regexp (Go RE2 syntax, translated) --------------------------------------------------------

const regexCache = new Map<string, RegExp>();

/** A Go (RE2) pattern as a JS RegExp: leading (?flags), (?P<name>…), \A and \z. */
export function goRegex(pattern: string, global = false): RegExp {
  const key = `${global ? 'g' : ''}:${pattern}`;
  const cached = regexCache.get(key);
  if (cached) return new RegExp(cached);
  let source = pattern;
  let flags = global ? 'g' : '';
  const inline = /^\(\?([imsU]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const flag of inline[1] ?? '') if (flag !== 'U' && !flags.includes(flag)) flags += flag;
  }
  source = source.replace(/\(\?P</g, '(?<').replace(/\\A/g, '^').replace(/\\z/g, '$');
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (error) {
    return fail(`invalid regular expression ${JSON.stringify(pattern)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (regexCache.size > 1000) regexCache.clear();
  regexCache.set(key, regex);
  return new RegExp(regex);
}

function findAll(pattern: string, input: string, n = -1): string[] {
  if (n === 0) return [];
  const out: string[] = [];
  for (const match of input.matchAll(goRegex(pattern, true))) {
    out.push(match[0]);
    if (n > 0 && out.length >= n) break;
  }
  return out;
}

/** Go's Regexp.Split(s, n). */
function regexSplit(pattern: string, input: string, n: number): string[] {
  if (n === 0) return [];
  if (pattern.length > 0 && input.length === 0) return [''];
  const out: string[] = [];
  let begin = 0;
  let end = 0;
  for (const match of input.matchAll(goRegex(pattern, true))) {
    if (n > 0 && out.length === n - 1) break;
    const start = match.index ?? 0;
    const stop = start + match[0].length;
    end = start;
    if (stop !== 0) out.push(input.slice(begin, end));
    begin = stop;
  }
  if (end !== input.length) out.push(input.slice(begin));
  return out;
}

/** Go's replacement template ($1, ${1}, $name, ${name}) as JS's. */
function goReplacement(template: string): string {
  return template.replace(/\$(\$|\{([^}]*)\}|([A-Za-z0-9_]+))/g, (all, _x, braced: string | undefined, bare: string | undefined) => {
    if (all === '$$') return '$$';
    const name = braced ?? bare ?? '';
    return /^\d+$/.test(name) ? `$${name}` : `$<${name}>`;
  });
}

function quoteMeta(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

// ---- filepath (POSIX, as Go on Linux) ----------------------------------------------------------

function clean(p: string): string {
  if (p === '') return '.';
  const normalized = path.posix.normalize(p);
  return normalized.length > 1 ? normalized.replace(/\/+$/, '') : normalized;
}

function base(p: string): string {
  if (p === '') return '.';
  const trimmed = p.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function ext(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

function globRegex(pattern: string): RegExp {
  let out = '^';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] ?? '';
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else if (ch === '\\') out += `\\${pattern[++i] ?? ''}`;
    else if (ch === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close < 0) return fail(`filepath.Match: syntax error in pattern ${JSON.stringify(pattern)}`);
      out += `[${pattern.slice(i + 1, close).replace(/^\^/, '^').replace(/\\/g, '\\\\')}]`;
      i = close;
    } else out += ch.replace(/[.+^${}()|\]\\]/g, '\\$&');
  }
  return new RegExp(`${out}$`);
}

// ---- uuid --------------------------------------------------------------------------------------

let clockSequence = randomBytes(2).readUInt16BE(0) & 0x3fff;
let lastV1 = 0n;
const v1Node = randomBytes(6);
v1Node[0] = (v1Node[0] ?? 0) | 0x01;

function uuidV1(): string {
  let ticks = BigInt(Date.now()) * 10_000n + 0x01b21dd213814000n;
  if (ticks <= lastV1) {
    ticks = lastV1 + 1n;
  }
  lastV1 = ticks;
  if (ticks === 0n) clockSequence = (clockSequence + 1) & 0x3fff;
  const low = (ticks & 0xffffffffn).toString(16).padStart(8, '0');
  const mid = ((ticks >> 32n) & 0xffffn).toString(16).padStart(4, '0');
  const high = (((ticks >> 48n) & 0x0fffn) | 0x1000n).toString(16).padStart(4, '0');
  const seq = (clockSequence | 0x8000).toString(16).padStart(4, '0');
  return `${low}-${mid}-${high}-${seq}-${v1Node.toString('hex')}`;
}

const UUID = /^(urn:uuid:)?\{?([0-9a-f]{8})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{4})-?([0-9a-f]{12})\}?$/i;

function parseUuid(text: string): string {
  const match = UUID.exec(text.trim());
  if (!match) return fail(`uuid.Parse: "${text}" is not a UUID`);
  return `${match[2]}-${match[3]}-${match[4]}-${match[5]}-${match[6]}`.toLowerCase();
}

// ---- url ---------------------------------------------------------------------------------------

/** Go's url.QueryEscape. */
function queryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function queryUnescape(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return fail(`urldecode: invalid escape in ${JSON.stringify(text)}`);
  }
}

function bytesOf(value: unknown): Buffer {
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (Array.isArray(value)) return Buffer.from(value.map((item) => toInt(item, 'base64')));
  return Buffer.from(toStr(value), 'utf8');
}

function hash(algorithm: string, value: unknown): Buffer {
  return createHash(algorithm).update(bytesOf(value)).digest();
}

export function registerStrings(r: Registrar): void {
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

  // gomplate's string functions as methods.
  r.method('string', 'abbrev', [1, 2], (text: string, ...args: unknown[]) => abbrev([...args, text]), 'string');
  r.method('string', 'camelCase', 0, (text: string) => camelCase(text), 'string');
  r.method('string', 'kebabCase', 0, (text: string) => casedWith(text, '-'), 'string');
  r.method('string', 'snakeCase', 0, (text: string) => casedWith(text, '_'), 'string');
  r.method('string', 'indent', [1, 2], (text: string, ...args: unknown[]) => indent([...args, text]), 'string');
  r.method('string', 'repeat', 1, (text: string, count: unknown) => text.repeat(Math.max(0, toInt(count, 'repeat'))), 'string');
  r.method('string', 'replaceAll', 2, (text: string, from: unknown, to: unknown) => text.split(toStr(from)).join(toStr(to)), 'string');
  r.method('string', 'runeCount', 0, (text: string) => BigInt(Array.from(text).length), 'int');
  r.method('string', 'shellQuote', 0, (text: string) => shellQuote(text), 'string');
  r.method('string', 'slug', 0, (text: string) => slug(text), 'string');
  r.method('string', 'squote', 0, (text: string) => `'${text.replace(/'/g, "''")}'`, 'string');
  r.method('string', 'title', 0, (text: string) => title(text), 'string');
  r.method('string', 'trimPrefix', 1, (text: string, prefix: unknown) => (text.startsWith(toStr(prefix)) ? text.slice(toStr(prefix).length) : text), 'string');
  r.method('string', 'trimSuffix', 1, (text: string, suffix: unknown) => (toStr(suffix) !== '' && text.endsWith(toStr(suffix)) ? text.slice(0, -toStr(suffix).length) : text), 'string');
  r.method('string', 'wordWrap', [1, 2], (text: string, ...args: unknown[]) => wordWrap([...args, text]), 'string');
  r.method('string', 'find', 1, (text: string, pattern: unknown) => findAll(toStr(pattern), text, 1)[0] ?? '', 'string');
  r.method('string', 'findAll', [1, 2], (text: string, pattern: unknown, n?: unknown) => findAll(toStr(pattern), text, n === undefined ? -1 : toInt(n, 'findAll')), 'list');

  // gomplate's string functions (arguments last, for pipelines), bare and under `strings.`.
  const both = (name: string, arity: number | number[], handler: Handler, returns = 'dyn') => {
    r.fn(name, arity, handler, returns);
    r.fn(`strings.${name}`, arity, handler, returns);
  };
  both('Abbrev', [2, 3], (...args: unknown[]) => abbrev(args), 'string');
  both('ReplaceAll', 3, (from: unknown, to: unknown, s: unknown) => toStr(s).split(toStr(from)).join(toStr(to)), 'string');
  both('Contains', 2, (sub: unknown, s: unknown) => toStr(s).includes(toStr(sub)), 'bool');
  both('HasPrefix', 2, (prefix: unknown, s: unknown) => toStr(s).startsWith(toStr(prefix)), 'bool');
  both('HasSuffix', 2, (suffix: unknown, s: unknown) => toStr(s).endsWith(toStr(suffix)), 'bool');
  both('Repeat', 2, (count: unknown, s: unknown) => {
    const n = toInt(count, 'Repeat');
    if (n < 0) return fail(`Repeat: negative count ${n}`);
    return toStr(s).repeat(n);
  }, 'string');
  both('Sort', 1, (list: unknown) => sortStrings(list));
  both('Split', 2, (sep: unknown, s: unknown) => goSplitN(toStr(s), toStr(sep), -1), 'list');
  both('SplitN', 3, (sep: unknown, n: unknown, s: unknown) => goSplitN(toStr(s), toStr(sep), toInt(n, 'SplitN')), 'list');
  both('Trim', 2, (cutset: unknown, s: unknown) => trimCutset(toStr(s), toStr(cutset)), 'string');
  both('TrimPrefix', 2, (prefix: unknown, s: unknown) => (toStr(s).startsWith(toStr(prefix)) ? toStr(s).slice(toStr(prefix).length) : toStr(s)), 'string');
  both('TrimSuffix', 2, (suffix: unknown, s: unknown) => {
    const text = toStr(s);
    const end = toStr(suffix);
    return end !== '' && text.endsWith(end) ? text.slice(0, -end.length) : text;
  }, 'string');
  both('Title', 1, (s: unknown) => title(toStr(s)), 'string');
  both('ToUpper', 1, (s: unknown) => toStr(s).toUpperCase(), 'string');
  both('ToLower', 1, (s: unknown) => toStr(s).toLowerCase(), 'string');
  both('TrimSpace', 1, (s: unknown) => toStr(s).trim(), 'string');
  both('Trunc', 2, (length: unknown, s: unknown) => trunc(toInt(length, 'Trunc'), toStr(s)), 'string');
  both('Indent', [1, 2, 3], (...args: unknown[]) => indent(args), 'string');
  both('Slug', 1, (s: unknown) => slug(toStr(s)), 'string');
  both('Quote', 1, (s: unknown) => goQuote(toStr(s)), 'string');
  both('ShellQuote', 1, (s: unknown) => shellQuote(s), 'string');
  both('Squote', 1, (s: unknown) => `'${toStr(s).replace(/'/g, "''")}'`, 'string');
  both('SnakeCase', 1, (s: unknown) => casedWith(toStr(s), '_'), 'string');
  both('CamelCase', 1, (s: unknown) => camelCase(toStr(s)), 'string');
  both('KebabCase', 1, (s: unknown) => casedWith(toStr(s), '-'), 'string');
  both('WordWrap', [1, 2, 3], (...args: unknown[]) => wordWrap(args), 'string');
  both('RuneCount', [1, 2, 3, 4], (...args: unknown[]) => BigInt(Array.from(args.map(toStr).join('')).length), 'int');
  both('Semver', 1, (s: unknown) => semverMap(toStr(s), 'Semver'), 'map');
  both('SemverCompare', 2, (constraint: unknown, version: unknown) => semverSatisfies(toStr(constraint), toStr(version), 'SemverCompare'), 'bool');

  // regexp (Go syntax).
  r.fn('regexp.Find', 2, (pattern: unknown, input: unknown) => findAll(toStr(pattern), toStr(input), 1)[0] ?? '', 'string');
  r.fn('regexp.FindAll', [2, 3], (...args: unknown[]) =>
    args.length === 2 ? findAll(toStr(args[0]), toStr(args[1])) : findAll(toStr(args[0]), toStr(args[2]), toInt(args[1], 'regexp.FindAll')), 'list');
  r.fn('regexp.Match', 2, (pattern: unknown, input: unknown) => goRegex(toStr(pattern)).test(toStr(input)), 'bool');
  r.fn('regexp.QuoteMeta', 1, (text: unknown) => quoteMeta(toStr(text)), 'string');
  r.fn('regexp.Replace', 3, (pattern: unknown, replacement: unknown, input: unknown) => toStr(input).replace(goRegex(toStr(pattern), true), goReplacement(toStr(replacement))), 'string');
  r.fn('regexp.ReplaceLiteral', 3, (pattern: unknown, replacement: unknown, input: unknown) => toStr(input).replace(goRegex(toStr(pattern), true), () => toStr(replacement)), 'string');
  r.fn('regexp.Split', [2, 3], (...args: unknown[]) =>
    args.length === 2 ? regexSplit(toStr(args[0]), toStr(args[1]), -1) : regexSplit(toStr(args[0]), toStr(args[2]), toInt(args[1], 'regexp.Split')), 'list');

  // base64: cel-go's encoders (bytes ↔ string) and gomplate's (text ↔ text).
  r.fn('base64.encode', 1, (value: unknown) => bytesOf(value).toString('base64'), 'string');
  r.fn('base64.decode', 1, (value: unknown) => new Uint8Array(Buffer.from(stringOf(value, 'base64.decode'), 'base64')), 'bytes');
  r.fn('base64.Encode', 1, (value: unknown) => bytesOf(value).toString('base64'), 'string');
  r.fn('base64.Decode', 1, (value: unknown) => Buffer.from(toStr(value), 'base64').toString('utf8'), 'string');

  // crypto: hex digests of the text (or bytes); the *Bytes forms return bytes.
  for (const [name, algorithm] of [['SHA1', 'sha1'], ['SHA224', 'sha224'], ['SHA256', 'sha256'], ['SHA384', 'sha384'], ['SHA512', 'sha512'], ['SHA512_224', 'sha512-224'], ['SHA512_256', 'sha512-256']] as const) {
    r.fn(`crypto.${name}`, 1, (value: unknown) => hash(algorithm, value).toString('hex'), 'string');
    r.fn(`crypto.${name}Bytes`, 1, (value: unknown) => new Uint8Array(hash(algorithm, value)), 'bytes');
  }

  // uuid.
  r.fn('uuid.V1', 0, () => uuidV1(), 'string');
  r.fn('uuid.V4', 0, () => randomUUID(), 'string');
  r.fn('uuid.Nil', 0, () => '00000000-0000-0000-0000-000000000000', 'string');
  r.fn('uuid.IsValid', 1, (value: unknown) => UUID.test(toStr(value).trim()), 'bool');
  r.fn('uuid.Parse', 1, (value: unknown) => parseUuid(toStr(value)), 'string');

  // filepath (POSIX).
  r.fn('filepath.Base', 1, (p: unknown) => base(toStr(p)), 'string');
  r.fn('filepath.Clean', 1, (p: unknown) => clean(toStr(p)), 'string');
  r.fn('filepath.Dir', 1, (p: unknown) => clean(path.posix.dirname(toStr(p) === '' ? '.' : toStr(p))), 'string');
  r.fn('filepath.Ext', 1, (p: unknown) => ext(toStr(p)), 'string');
  r.fn('filepath.FromSlash', 1, (p: unknown) => toStr(p), 'string');
  r.fn('filepath.ToSlash', 1, (p: unknown) => toStr(p), 'string');
  r.fn('filepath.IsAbs', 1, (p: unknown) => toStr(p).startsWith('/'), 'bool');
  r.fn('filepath.Join', 1, (parts: unknown) => {
    const list = listOf(parts, 'filepath.Join').map(toStr).filter((part) => part !== '');
    return list.length === 0 ? '' : clean(list.join('/'));
  }, 'string');
  r.fn('filepath.Match', 2, (pattern: unknown, name: unknown) => globRegex(toStr(pattern)).test(toStr(name)), 'bool');
  r.fn('filepath.Rel', 2, (from: unknown, to: unknown) => path.posix.relative(clean(toStr(from)), clean(toStr(to))) || '.', 'string');
  r.fn('filepath.Split', 1, (p: unknown) => {
    const text = toStr(p);
    const at = text.lastIndexOf('/');
    return [text.slice(0, at + 1), text.slice(at + 1)];
  }, 'list');
  r.fn('filepath.VolumeName', 1, () => '', 'string');

  // url query escaping.
  r.fn('urlencode', 1, (s: unknown) => queryEscape(toStr(s)), 'string');
  r.fn('urldecode', 1, (s: unknown) => queryUnescape(toStr(s)), 'string');
}
