import { semverMap, semverSatisfies } from '../shared/semver';
import { fail, listOf, stringOf, toInt, toStr, type Handler, type Registrar } from './support';
import { goQuote, registerCelGoStrings } from './strings-celgo';
import { findAll, registerRegexp } from './regexp';
import { registerCodecs } from './codecs';

// The string functions by family: cel-go's strings extension (strings-celgo.ts), gomplate's strings (here),
// regexp (regexp.ts), and filepath, uuid, url, base64 and crypto (codecs.ts).
export { goMethodName, goQuote, useGoStringMethods } from './strings-celgo';
export { goRegex } from './regexp';

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

export function registerStrings(r: Registrar): void {
  registerCelGoStrings(r);

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

  registerRegexp(r);
  registerCodecs(r);
}
