import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Reply } from './httpbin-reply';
import { json, reply } from './httpbin-reply';
import { verifySigV4 } from './sigv4-verify';

/** The stand-in's authentication endpoints: Basic, Bearer, Digest, an OAuth2 token endpoint, AWS SigV4. */

/** Clients the token endpoint knows: the one canary-checker's oauth2 fixture uses, and one for tests. */
export const OAUTH_CLIENTS: Readonly<Record<string, string>> = { 'demo-backend-client': 'MJlO3binatD9jk1', 'test-client': 'test secret/with+symbols' };
/** Keys the SigV4 endpoint accepts: the fixture's and one for tests. */
export const AWS_KEYS: Readonly<Record<string, string>> = { 'test-key': 'test-secret', AKIDWATCHKEEPER: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

const DIGEST_REALM = 'me@kennethreitz.com';
const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512': 'sha512' };

export interface AuthState {
  /** Tokens the token endpoint issued, with when they expire (epoch ms). */
  tokens: Map<string, number>;
  tokenRequests: number;
  /** Digest nonces handed out: an answer over any other is refused. */
  nonces: Set<string>;
}

export function newAuthState(): AuthState {
  return { tokens: new Map(), tokenRequests: 0, nonces: new Set() };
}

function basicCredentials(request: IncomingMessage): { user: string; password: string } | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''));
  if (!match?.[1]) return undefined;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** /basic-auth/{user}/{passwd}: httpbin's answers, 200 with the user or 401 with a Basic challenge. */
export function basicAuth(request: IncomingMessage, user: string, password: string): Reply {
  const given = basicCredentials(request);
  if (given?.user === user && given.password === password) return json(200, { authenticated: true, user });
  return reply(401, '', { 'www-authenticate': 'Basic realm="Fake Realm"' });
}

/** /bearer: any bearer token passes (as httpbin); /oauth/protected: only tokens this server issued and that have not expired. */
export function bearer(request: IncomingMessage, state: AuthState, issuedOnly: boolean): Reply {
  const token = /^Bearer\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1];
  const expires = token ? state.tokens.get(token) : undefined;
  if (!token || (issuedOnly && (expires === undefined || expires < Date.now()))) return reply(401, '', { 'www-authenticate': 'Bearer' });
  return json(200, { authenticated: true, token });
}

function digestParams(header: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of header.replace(/^Digest\s+/i, '').matchAll(/([a-z0-9_-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/gi)) {
    found[(match[1] ?? '').toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : (match[3] ?? '');
  }
  return found;
}

function digestChallenge(state: AuthState, qop: string | undefined, algorithm: string): Reply {
  const nonce = randomBytes(16).toString('hex');
  state.nonces.add(nonce);
  const parts = [`realm="${DIGEST_REALM}"`, `nonce="${nonce}"`, `opaque="${randomBytes(16).toString('hex')}"`, `algorithm=${algorithm}`, 'stale=FALSE'];
  if (qop) parts.splice(1, 0, `qop="${qop}"`);
  return reply(401, '', { 'www-authenticate': `Digest ${parts.join(', ')}` });
}

/**
 * /digest-auth/{qop}/{user}/{passwd}[/{algorithm}]: a challenge (qop auth or auth-int, else none; MD5,
 * SHA-256 or SHA-512 as httpbin offers), then 200 `{authenticated, user}` for a right answer over a nonce
 * it issued, and a new challenge for a wrong one.
 */
export function digestAuth(request: IncomingMessage, body: Buffer, state: AuthState, qopParam: string, user: string, password: string, algorithmParam = 'MD5'): Reply {
  const algorithm = HASHES[algorithmParam.toUpperCase()] ? algorithmParam.toUpperCase() : 'MD5';
  const qop = qopParam === 'auth' || qopParam === 'auth-int' ? qopParam : undefined;
  const header = String(request.headers.authorization ?? '');
  if (!/^Digest\s/i.test(header)) return digestChallenge(state, qop, algorithm);
  const given = digestParams(header);
  const hash = (text: string | Buffer) => createHash(HASHES[algorithm] ?? 'md5').update(text).digest('hex');
  const nonce = given.nonce ?? '';
  const ha1 = hash(`${user}:${DIGEST_REALM}:${password}`);
  const ha2 = given.qop === 'auth-int' ? hash(`${request.method}:${given.uri}:${hash(body)}`) : hash(`${request.method}:${given.uri}`);
  const expected = given.qop ? hash(`${ha1}:${nonce}:${given.nc}:${given.cnonce}:${given.qop}:${ha2}`) : hash(`${ha1}:${nonce}:${ha2}`);
  const uriMatches = given.uri === request.url;
  if (given.username !== user || !state.nonces.has(nonce) || !uriMatches || given.response !== expected || (qop !== undefined && given.qop !== qop)) {
    return digestChallenge(state, qop, algorithm);
  }
  return json(200, { authenticated: true, user });
}

/**
 * An OAuth2 token endpoint (RFC 6749 §4.4, client credentials): the client in a Basic header (its parts
 * form-encoded) or in the body; answers a bearer token valid for `expires_in` seconds (300, or the
 * `expires_in` form parameter, so a test can make one that expires at once).
 */
export function tokenEndpoint(request: IncomingMessage, body: Buffer, state: AuthState): Reply {
  state.tokenRequests++;
  const form = new URLSearchParams(body.toString('utf8'));
  if (request.method !== 'POST') return json(405, { error: 'invalid_request', error_description: 'POST the form' });
  if (form.get('grant_type') !== 'client_credentials') return json(400, { error: 'unsupported_grant_type' });
  const basic = basicCredentials(request);
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  const client = basic ? { id: decode(basic.user), secret: decode(basic.password) } : { id: form.get('client_id') ?? '', secret: form.get('client_secret') ?? '' };
  if (OAUTH_CLIENTS[client.id] === undefined || OAUTH_CLIENTS[client.id] !== client.secret) return json(401, { error: 'invalid_client' });
  const lifetime = Number(form.get('expires_in') ?? 300);
  const token = `at-${randomUUID()}`;
  state.tokens.set(token, Date.now() + lifetime * 1000);
  return json(200, { access_token: token, token_type: 'bearer', expires_in: lifetime, scope: form.get('scope') ?? '' });
}

/** /aws/…: 200 when the request carries a valid SigV4 signature by a known key, 403 with the reason otherwise. */
export function awsVerify(request: IncomingMessage, body: Buffer): Reply {
  const verdict = verifySigV4({ method: request.method ?? 'GET', target: request.url ?? '/', headers: request.headers, body }, AWS_KEYS);
  return verdict.ok ? json(200, { verified: true, ...verdict, ok: undefined }) : json(403, { verified: false, reason: verdict.reason });
}
