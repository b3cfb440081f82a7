import { randomInt } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { anyArgs, func } from '../define';
import { FuncError, GoStruct } from '../kinds';
import { toFloat64, toInt64, toString } from './conv';
import { goRegexp } from './regexp';

/**
 * gomplate's random and net namespaces (flanksource/gomplate funcs/random.go, random/random.go, funcs/net.go).
 *
 * random: characters are drawn from a set, as gomplate does — ASCII ' '…'~'; Alpha and AlphaNum the ASCII
 * letters (and digits: RE2's [[:alpha:]] and [[:alnum:]]); String(n) gomplate's default set
 * `-.0-9A-Z_a-z`, String(n, regex) every printable code point the regular expression matches, String(n, lower,
 * upper) the printable code points between two characters (or two numbers, 0x… allowed); Number([min,] max)
 * an int in [min, max] (0–100 by default), Float([min,] max) in [min, max) (0–1), Item(list) one element.
 *
 * net: ContainsCIDR(cidr, ip) and IsValidIP(ip), the two functions flanksource/gomplate's net namespace has:
 * no lookups (nothing here touches the network).
 */

const DEFAULT_SET = '-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';
/** Go's unicode.IsGraphic: letters, marks, numbers, punctuation, symbols and spaces (Zs). */
const GRAPHIC = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]$/u;
const MAX_RUNE = 0x10ffff;

function drawn(count: bigint, chars: readonly string[]): string {
  if (count < 0n) throw new FuncError(`count must not be negative, got ${count}`);
  if (count > 1_000_000n) throw new FuncError(`count ${count} is too large (at most 1000000)`);
  let out = '';
  for (let i = 0n; i < count; i++) out += chars[randomInt(chars.length)];
  return out;
}

function graphicBetween(lower: number, upper: number): string[] {
  const out: string[] = [];
  for (let code = Math.max(0, lower); code <= Math.min(upper, MAX_RUNE); code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    if (GRAPHIC.test(char)) out.push(char);
  }
  return out;
}

function bounded(count: bigint, lower: number, upper: number): string {
  const chars = graphicBetween(lower, upper);
  if (chars.length === 0) throw new FuncError(`no printable codepoints found between U+${lower.toString(16).toUpperCase().padStart(4, '0')} and U+${upper.toString(16).toUpperCase().padStart(4, '0')}`);
  return drawn(count, chars);
}

/** Every printable code point a pattern matches (gomplate tests them all, as here), cached per pattern. */
const matching = new Map<string, string[]>();
let graphic: string[] | undefined;
function charsMatching(pattern: string): string[] {
  const cached = matching.get(pattern);
  if (cached) return cached;
  const regex = goRegexp(pattern);
  graphic ??= graphicBetween(0, MAX_RUNE);
  const chars = graphic.filter((char) => regex.test(char));
  if (matching.size > 100) matching.clear();
  matching.set(pattern, chars);
  return chars;
}

const ALPHA = charsOf('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
const ALNUM = charsOf('0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ');
function charsOf(text: string): string[] {
  return [...text];
}

/** toCodePoints: two single characters, or two numbers (0x…, 0o…, decimal) as code points. */
function codePoints(lower: unknown, upper: unknown): [number, number] {
  if (typeof lower === 'string' && typeof upper === 'string') {
    if ([...lower].length === 1 && [...upper].length === 1) return [lower.codePointAt(0)!, upper.codePointAt(0)!];
    const parse = (text: string) => {
      const value = /^[-+]?0[xX]/.test(text) ? Number.parseInt(text, 16) : /^[-+]?0[oO]?[0-7]+$/.test(text) && text !== '0' ? Number.parseInt(text.replace(/0[oO]?/, ''), 8) : /^[-+]?\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isFinite(value)) throw new FuncError(`strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
      return value;
    };
    return [parse(lower), parse(upper)];
  }
  return [Number(toInt64(lower)), Number(toInt64(upper))];
}

const randomString = anyArgs((args) => {
  if (args.length < 1 || args.length > 3) throw new FuncError(`wrong number of args: want 1 to 3, got ${args.length}`);
  const count = toInt64(args[0]);
  if (count === 0n) throw new FuncError('count must be greater than 0');
  if (args.length === 3) {
    const [lower, upper] = codePoints(args[1], args[2]);
    return bounded(count, lower, upper);
  }
  const pattern = args.length === 2 ? toString(args[1]) : '';
  return drawn(count, pattern === '' ? charsOf(DEFAULT_SET) : nonEmpty(charsMatching(pattern), pattern));
});

function nonEmpty(chars: string[], pattern: string): string[] {
  if (chars.length === 0) throw new FuncError(`no printable codepoints match ${JSON.stringify(pattern)}`);
  return chars;
}

/** [min, max] from 0, 1 or 2 arguments over defaults. */
function range<T>(args: unknown[], defaults: [T, T], convert: (value: unknown) => T): [T, T] {
  if (args.length === 0) return defaults;
  if (args.length === 1) return [defaults[0], convert(args[0])];
  if (args.length === 2) return [convert(args[0]), convert(args[1])];
  throw new FuncError(`wrong number of args: want 0 to 2, got ${args.length}`);
}

const MAX_INT64 = 2n ** 63n - 1n;

export const randomNamespace = new GoStruct('*funcs.RandomFuncs', {}, {
  ASCII: func(['any'], (count) => bounded(toInt64(count), 0x20, 0x7e)),
  Alpha: func(['any'], (count) => drawn(toInt64(count), ALPHA)),
  AlphaNum: func(['any'], (count) => drawn(toInt64(count), ALNUM)),
  String: randomString,
  Item: func(['any'], (items) => {
    if (!Array.isArray(items)) throw new FuncError(`expected an array or slice, got ${typeof items === 'string' ? 'string' : 'a non-list'}`);
    if (items.length === 0) throw new FuncError('expected a non-empty array or slice');
    return items[items.length === 1 ? 0 : randomInt(items.length)];
  }),
  Number: anyArgs((args) => {
    let [min, max] = range(args, [0n, 100n], toInt64);
    if (min > max) throw new FuncError(`min must not be greater than max (was ${min}, ${max})`);
    if (min === -MAX_INT64 - 1n) min += 1n;
    if (max - min >= MAX_INT64 >> 1n) throw new FuncError(`spread between min and max too high - must not be greater than 63-bit maximum (${max} - ${min} = ${max - min})`);
    const spread = max - min + 1n;
    // randomInt takes safe integers; a wider spread is drawn from two halves
    if (spread <= 2n ** 47n) return min + BigInt(randomInt(Number(spread)));
    const high = BigInt(randomInt(2 ** 47)) * 2n ** 16n + BigInt(randomInt(2 ** 16));
    return min + (high % spread);
  }),
  Float: anyArgs((args) => {
    const [min, max] = range(args, [0, 1], toFloat64);
    return min + Math.random() * (max - min);
  }),
});

/** Go's net.ParseIP: an IPv4 or IPv6 address (no zone, no brackets); the family or undefined. */
function ipFamily(text: string): 'ipv4' | 'ipv6' | undefined {
  const version = isIP(text);
  if (version === 4) return 'ipv4';
  if (version === 6 && !text.includes('%')) return 'ipv6';
  return undefined;
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) as its IPv4 form, as Go compares them. */
function unmapped(text: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(text);
  return match ? match[1]! : text;
}

function containsCIDR(cidr: string, ip: string): boolean {
  const match = /^(.+)\/(\d{1,3})$/.exec(cidr);
  if (!match) return false;
  const network = unmapped(match[1]!);
  const family = ipFamily(network);
  const bits = Number(match[2]);
  if (!family || bits > (family === 'ipv4' ? 32 : 128)) return false;
  const address = unmapped(ip);
  const addressFamily = ipFamily(address);
  if (!addressFamily || addressFamily !== family) return false;
  const list = new BlockList();
  list.addSubnet(network, bits, family);
  return list.check(address, family);
}

export const netNamespace = new GoStruct('*funcs.NetFuncs', {}, {
  ContainsCIDR: func(['any', 'any'], (cidr, ip) => containsCIDR(toString(cidr), toString(ip))),
  IsValidIP: func(['any'], (ip) => ipFamily(toString(ip)) !== undefined),
});
