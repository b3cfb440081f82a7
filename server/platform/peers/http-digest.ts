import { createHash, randomBytes } from 'node:crypto';

/** A `WWW-Authenticate: Digest …` challenge (RFC 7616; RFC 2617 servers send a subset). */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  /** Upper case; MD5 when the server names none. */
  algorithm: string;
  /** The qop values offered; empty for an RFC 2069 server. */
  qop: string[];
  userhash: boolean;
}

// node:crypto names of the algorithms; the -SESS variants hash the same way. SHA-512 is not in RFC 7616
// but httpbin (canary-checker's own test peer) offers it.
const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256', 'SHA-512': 'sha512' };

/** The auth-params of one challenge: `name=token` or `name="quoted \" string"`, comma separated. */
function params(text: string): Record<string, string> {
  const found: Record<string, string> = {};
  const param = /\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/gy;
  let match: RegExpExecArray | null;
  while ((match = param.exec(text)) !== null) {
    const [, name = '', quoted, token] = match;
    found[name.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (token ?? '');
    if (param.lastIndex >= text.length) break;
  }
  return found;
}

/** The Digest challenge among the WWW-Authenticate headers, or undefined when the server asks for none. */
export function parseDigestChallenge(header: string | string[] | undefined): DigestChallenge | undefined {
  const headers = Array.isArray(header) ? header : header ? [header] : [];
  for (const value of headers) {
    const start = /(?:^|,)\s*Digest\s+/i.exec(value);
    if (!start) continue;
    const found = params(value.slice(start.index + start[0].length));
    if (found.nonce === undefined) continue;
    const algorithm = (found.algorithm || 'MD5').toUpperCase();
    return {
      realm: found.realm ?? '',
      nonce: found.nonce,
      ...(found.opaque !== undefined ? { opaque: found.opaque } : {}),
      algorithm,
      qop: (found.qop ?? '').split(',').map((item) => item.trim().toLowerCase()).filter(Boolean),
      userhash: (found.userhash ?? '').toLowerCase() === 'true',
    };
  }
  return undefined;
}

export function digestSupported(challenge: DigestChallenge): boolean {
  return HASHES[challenge.algorithm.replace(/-SESS$/, '')] !== undefined;
}

const quote = (text: string) => `"${text.replace(/(["\\])/g, '\\$1')}"`;

/**
 * The `Authorization` header answering a challenge: `response` per RFC 7616 §3.4.1 (with qop `auth`, or
 * `auth-int` when that is all the server offers; the RFC 2069 form when it offers none), a fresh cnonce,
 * and the opaque value sent back.
 */
export function digestAuthorization(
  challenge: DigestChallenge,
  credentials: { username: string; password: string },
  request: { method: string; uri: string; body: string },
  nc = 1,
  cnonce = randomBytes(16).toString('hex'),
): string {
  const base = challenge.algorithm.replace(/-SESS$/, '');
  const hashName = HASHES[base];
  if (!hashName) throw new Error(`the server asks for Digest algorithm ${challenge.algorithm}, which is not supported (MD5, SHA-256, SHA-512-256 and their -sess variants are)`);
  const hash = (text: string) => createHash(hashName).update(text, 'utf8').digest('hex');
  const qop = challenge.qop.includes('auth') ? 'auth' : challenge.qop.includes('auth-int') ? 'auth-int' : undefined;
  const count = nc.toString(16).padStart(8, '0');
  let ha1 = hash(`${credentials.username}:${challenge.realm}:${credentials.password}`);
  if (challenge.algorithm.endsWith('-SESS')) ha1 = hash(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = qop === 'auth-int' ? hash(`${request.method}:${request.uri}:${hash(request.body)}`) : hash(`${request.method}:${request.uri}`);
  const response = qop ? hash(`${ha1}:${challenge.nonce}:${count}:${cnonce}:${qop}:${ha2}`) : hash(`${ha1}:${challenge.nonce}:${ha2}`);
  const username = challenge.userhash ? hash(`${credentials.username}:${challenge.realm}`) : credentials.username;
  const parts = [
    `username=${quote(username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(request.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quote(response)}`,
    ...(challenge.opaque !== undefined ? [`opaque=${quote(challenge.opaque)}`] : []),
    ...(qop ? [`qop=${qop}`, `nc=${count}`, `cnonce=${quote(cnonce)}`] : []),
    ...(challenge.userhash ? ['userhash=true'] : []),
  ];
  return `Digest ${parts.join(', ')}`;
}
