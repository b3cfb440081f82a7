import { createHash, randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fail, listOf, stringOf, toInt, toStr, type Registrar } from './support';

/** gomplate's filepath, uuid and url functions, and base64 and crypto digests. */

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

export function registerCodecs(r: Registrar): void {
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
