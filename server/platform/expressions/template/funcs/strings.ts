import { anyArgs, func } from '../define';
import { quote } from '../strconv';
import { FuncError, type GoFunc, GoStruct } from '../kinds';
import { toInt64, toString } from './conv';
import { humanBytes, humanDuration } from './human';
import { semverCompareFunc, semverFunc, semverMethods } from './semver';

/**
 * gomplate's strings namespace (flanksource/gomplate funcs/strings.go) and its top-level aliases. The
 * namespace takes its input last (`"x" | strings.TrimPrefix "a"`); the legacy aliases (`contains`,
 * `hasPrefix`, `split`, `trim`) keep Go's strings package order: `contains "haystack" "needle"`.
 */

/** Go's strings.Split: an empty separator splits into characters. */
export function goSplit(text: string, sep: string, n = -1): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const chars = [...text];
    if (n < 0 || n >= chars.length) return chars;
    return [...chars.slice(0, n - 1), chars.slice(n - 1).join('')];
  }
  const parts = text.split(sep);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
}

/** Go's strings.Trim with a cutset of characters. */
export function goTrim(text: string, cutset: string, left = true, right = true): string {
  const cut = new Set([...cutset]);
  const chars = [...text];
  let start = 0;
  let end = chars.length;
  if (left) while (start < end && cut.has(chars[start] ?? '')) start++;
  if (right) while (end > start && cut.has(chars[end - 1] ?? '')) end--;
  return chars.slice(start, end).join('');
}

/** Go's strings.TrimSpace (Unicode white space). */
export function trimSpace(text: string): string {
  return text.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, '');
}

/** gomplate's strings.Indent: each line that is not empty gets the indent, `width` times. */
export function gomplateIndent(width: number, indent: string, text: string): string {
  if (width <= 0 || indent.includes('\n')) return text;
  const pad = indent.repeat(width);
  let out = '';
  let lineStart = true;
  for (const char of text) {
    if (lineStart && char !== '\n') out += pad;
    out += char;
    lineStart = char === '\n';
  }
  return out;
}

/** golang.org/x/text/cases Title: each word's first letter upper case, the rest lower case. */
export function titleCase(text: string): string {
  return text.replace(/[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu, (word) => {
    const [first = '', ...rest] = [...word];
    return first.toUpperCase() + rest.join('').toLowerCase();
  });
}

/** Byte slicing as Go does it on a string (a cut inside a character leaves U+FFFD). */
export function byteSlice(text: string, start: number, end?: number): string {
  return Buffer.from(text).subarray(start, end).toString();
}

function byteLength(text: string): number {
  return Buffer.byteLength(text);
}

/** goutils.AbbreviateFull. */
export function abbreviate(text: string, offset: number, maxWidth: number): string {
  if (text === '') return '';
  if (maxWidth < 4) throw new FuncError('stringutils illegal argument: Minimum abbreviation width is 4');
  const length = byteLength(text);
  if (length <= maxWidth) return text;
  let at = Math.min(offset, length);
  if (length - at < maxWidth - 3) at = length - (maxWidth - 3);
  if (at <= 4) return `${byteSlice(text, 0, maxWidth - 3)}...`;
  if (maxWidth < 7) throw new FuncError('stringutils illegal argument: Minimum abbreviation width with offset is 7');
  if (at + maxWidth - 3 < length) return `...${abbreviate(byteSlice(text, at), 0, maxWidth - 3)}`;
  return `...${byteSlice(text, length - (maxWidth - 3))}`;
}

/** goutils.WrapCustom without wrapping long words. */
function wrap(text: string, width: number, newline: string): string {
  if (text === '') return '';
  const lineBreak = newline === '' ? '\n' : newline;
  const limit = Math.max(width, 1);
  let out = '';
  let offset = 0;
  while (text.length - offset > limit) {
    if (text[offset] === ' ') {
      offset++;
      continue;
    }
    const space = text.slice(offset, limit + offset + 1).lastIndexOf(' ');
    if (space >= 0) {
      out += text.slice(offset, offset + space) + lineBreak;
      offset += space + 1;
    } else {
      const end = limit + offset;
      const next = text.indexOf(' ', end);
      if (next < 0) {
        out += text.slice(offset);
        offset = text.length;
      } else {
        out += text.slice(offset, next) + lineBreak;
        offset = next + 1;
      }
    }
  }
  return out + text.slice(offset);
}

const nonAlphaNum = /[^\p{L}\p{N}]+/gu;

function casePrepare(input: string): string {
  const trimmed = trimSpace(input);
  if (trimmed === '') throw new FuncError('runtime error: index out of range [0] with length 0');
  let lower = trimmed.toLowerCase();
  lower = lower.replace(lower.charAt(0), trimmed.charAt(0));
  return trimSpace(lower.replace(nonAlphaNum, ' '));
}

function camelCase(input: string): string {
  const trimmed = trimSpace(input);
  if (trimmed === '') throw new FuncError('runtime error: index out of range [0] with length 0');
  let title = titleCase(trimmed);
  title = title.replace(title.charAt(0), trimmed.charAt(0));
  return title.replace(nonAlphaNum, '');
}

/** gosimple/slug: ASCII letters and digits joined by dashes, accents removed. */
function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'"'"'`)}'`;
}

/** gomplate's Indent(args...): [width] [indent] input. */
function indentArgs(args: unknown[]): string {
  const input = toString(args[args.length - 1]);
  let indent = ' ';
  let width = 1;
  if (args.length === 2) {
    const first = args[0];
    if (typeof first === 'string') indent = first;
    else if (typeof first === 'bigint') width = Number(first);
    else throw new FuncError('indent: invalid arguments');
  } else if (args.length === 3) {
    const [first, second] = args;
    if (typeof first !== 'bigint' || typeof second !== 'string') throw new FuncError('indent: invalid arguments');
    [width, indent] = [Number(first), second];
  }
  return gomplateIndent(width, indent, input);
}

const replaceAll = func(['string', 'string', 'any'], (old, replacement, s) => toString(s).replaceAll(old, replacement));

export const stringsMethods: Record<string, GoFunc> = {
  Abbrev: anyArgs((args) => {
    if (args.length < 2) throw new FuncError("abbrev requires a 'maxWidth' and 'input' argument");
    const [offset, maxWidth, input] = args.length === 2 ? [0n, args[0], args[1]] : [args[0], args[1], args[2]];
    const text = toString(input);
    const width = Number(toInt64(maxWidth));
    if (byteLength(text) <= width) return text;
    return abbreviate(text, Number(toInt64(offset)), width);
  }),
  ReplaceAll: replaceAll,
  Contains: func(['string', 'any'], (substr, s) => toString(s).includes(substr)),
  HasPrefix: func(['string', 'any'], (prefix, s) => toString(s).startsWith(prefix)),
  HasSuffix: func(['string', 'any'], (suffix, s) => toString(s).endsWith(suffix)),
  Repeat: func(['int', 'any'], (count, s) => {
    if (count < 0n) throw new FuncError(`negative count ${count}`);
    if (count > 1_000_000n) throw new FuncError(`count ${count} too long: causes overflow`);
    return toString(s).repeat(Number(count));
  }),
  Sort: func(['any'], (list) => {
    if (!Array.isArray(list)) throw new FuncError(`wrong type for value; expected []string; got ${list === null ? '<nil>' : typeof list}`);
    return list.map(toString).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }),
  Split: func(['string', 'any'], (sep, s) => goSplit(toString(s), sep)),
  SplitN: func(['string', 'int', 'any'], (sep, n, s) => goSplit(toString(s), sep, Number(n))),
  Trim: func(['string', 'any'], (cutset, s) => goTrim(toString(s), cutset)),
  TrimPrefix: func(['string', 'any'], (prefix, s) => {
    const text = toString(s);
    return prefix !== '' && text.startsWith(prefix) ? text.slice(prefix.length) : text;
  }),
  TrimSuffix: func(['string', 'any'], (suffix, s) => {
    const text = toString(s);
    return suffix !== '' && text.endsWith(suffix) ? text.slice(0, text.length - suffix.length) : text;
  }),
  Title: func(['any'], (s) => titleCase(toString(s))),
  ToUpper: func(['any'], (s) => toString(s).toUpperCase()),
  ToLower: func(['any'], (s) => toString(s).toLowerCase()),
  TrimSpace: func(['any'], (s) => trimSpace(toString(s))),
  Trunc: func(['int', 'any'], (length, s) => {
    const text = toString(s);
    if (length < 0n || byteLength(text) <= Number(length)) return text;
    return byteSlice(text, 0, Number(length));
  }),
  Indent: anyArgs(indentArgs),
  Slug: func(['any'], (s) => slug(toString(s))),
  Quote: func(['any'], (s) => quote(toString(s))),
  ShellQuote: func(['any'], (value) => (Array.isArray(value) ? value.map((item) => shellQuote(toString(item))).join(' ') : shellQuote(toString(value)))),
  Squote: func(['any'], (s) => `'${toString(s).replaceAll("'", "''")}'`),
  SnakeCase: func(['any'], (s) => casePrepare(toString(s)).replace(/\s+/gu, '_')),
  KebabCase: func(['any'], (s) => casePrepare(toString(s)).replace(/\s+/gu, '-')),
  CamelCase: func(['any'], (s) => camelCase(toString(s))),
  WordWrap: anyArgs((args) => {
    if (args.length === 0 || args.length > 3) throw new FuncError(`expected 1, 2, or 3 args, got ${args.length}`);
    const input = toString(args[args.length - 1]);
    let width = 0;
    let newline = '';
    if (args.length === 2) {
      if (typeof args[0] === 'string') newline = args[0];
      else width = Number(toInt64(args[0]));
    }
    if (args.length === 3) [width, newline] = [Number(toInt64(args[0])), toString(args[1])];
    return wrap(input, width === 0 ? 80 : width, newline);
  }),
  RuneCount: anyArgs((args) => BigInt([...args.map(toString).join('')].length)),
  HumanDuration: func(['any'], humanDuration),
  HumanSize: func(['any'], humanBytes),
  ...semverMethods,
};

export const stringsNamespace = new GoStruct('*funcs.StringFuncs', {}, stringsMethods);

/** The top-level string functions gomplate registers, in Go's argument order where it kept it. */
export const stringFunctions: Record<string, GoFunc> = {
  strings: func([], () => stringsNamespace),
  replaceAll,
  title: func(['any'], (s) => titleCase(toString(s))),
  toUpper: func(['any'], (s) => toString(s).toUpperCase()),
  toLower: func(['any'], (s) => toString(s).toLowerCase()),
  trim: func(['string', 'string'], (s, cutset) => goTrim(s, cutset)),
  indent: anyArgs(indentArgs),
  quote: func(['any'], (s) => quote(toString(s))),
  shellQuote: func(['any'], (value) => (Array.isArray(value) ? value.map((item) => shellQuote(toString(item))).join(' ') : shellQuote(toString(value)))),
  squote: func(['any'], (s) => `'${toString(s).replaceAll("'", "''")}'`),
  contains: func(['string', 'string'], (s, substr) => s.includes(substr)),
  hasPrefix: func(['string', 'string'], (s, prefix) => s.startsWith(prefix)),
  hasSuffix: func(['string', 'string'], (s, suffix) => s.endsWith(suffix)),
  startsWith: func(['string', 'string'], (s, prefix) => s.startsWith(prefix)),
  endsWith: func(['string', 'string'], (s, suffix) => s.endsWith(suffix)),
  split: func(['string', 'string'], (s, sep) => goSplit(s, sep)),
  splitN: func(['string', 'string', 'int'], (s, sep, n) => goSplit(s, sep, Number(n))),
  humanDuration: func(['any'], humanDuration),
  humanSize: func(['any'], humanBytes),
  semver: semverFunc,
  semverCompare: semverCompareFunc,
};

