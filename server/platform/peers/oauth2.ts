import { createHash } from 'node:crypto';
import { isRecord } from '../errors';
import { send, type HttpRequest } from './http-client';

/** An OAuth2 client-credentials grant, as canary-checker's `oauth2` (client id and secret from username and password). */
export interface ClientCredentials {
  tokenURL: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  params: Readonly<Record<string, string>>;
}

interface CachedToken {
  token: string;
  /** Epoch ms after which the token is fetched again. */
  renewAt: number;
}

// Renewed this long before the server says it expires (Go's oauth2 package uses the same margin).
const EXPIRY_MARGIN_MS = 10_000;
// A token the server gives without expires_in is reused this long.
const UNDATED_TOKEN_MS = 60 * 60_000;
const MAX_CACHED = 1000;

/** Tokens by grant (process memory: a token is a cache, any instance can fetch its own). */
const cache = new Map<string, CachedToken>();
const inFlight = new Map<string, Promise<CachedToken>>();

function cacheKey(grant: ClientCredentials): string {
  const scopes = [...grant.scopes];
  const params = Object.entries(grant.params).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256').update(JSON.stringify([grant.tokenURL, grant.clientId, grant.clientSecret, scopes, params])).digest('hex');
}

/** The URL of the token endpoint as people may see it: no query (it may carry a secret). */
function shownEndpoint(tokenURL: string): string {
  const url = URL.canParse(tokenURL) ? new URL(tokenURL) : undefined;
  return url ? `${url.origin}${url.pathname}` : tokenURL;
}

export class OAuthError extends Error {
  override name = 'OAuthError';
}

/** The access_token (and expires_in) of an answer: JSON, or form-encoded as some servers (and Go's client) allow. */
function readToken(contentType: string, text: string): { token?: string; expiresIn?: number } {
  if (/application\/x-www-form-urlencoded|text\/plain/i.test(contentType)) {
    const form = new URLSearchParams(text);
    const expires = Number(form.get('expires_in'));
    return { ...(form.get('access_token') ? { token: form.get('access_token') ?? '' } : {}), ...(expires > 0 ? { expiresIn: expires } : {}) };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const token = typeof parsed.access_token === 'string' && parsed.access_token ? parsed.access_token : undefined;
  const expires = typeof parsed.expires_in === 'number' ? parsed.expires_in : typeof parsed.expires_in === 'string' ? Number(parsed.expires_in) : NaN;
  return { ...(token ? { token } : {}), ...(expires > 0 ? { expiresIn: expires } : {}) };
}

/** Go's url.QueryEscape: what RFC 6749 §2.3.1 asks of a client id and secret in a Basic header. */
function queryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

async function fetchToken(grant: ClientCredentials, transport: Pick<HttpRequest, 'tls' | 'signal'>): Promise<CachedToken> {
  if (!URL.canParse(grant.tokenURL)) throw new OAuthError(`oauth2.tokenURL "${grant.tokenURL}" is not a URL`);
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (grant.scopes.length > 0) form.set('scope', grant.scopes.join(' '));
  for (const [name, value] of Object.entries(grant.params)) form.set(name, value);
  const headers = [
    { name: 'Content-Type', value: 'application/x-www-form-urlencoded' },
    { name: 'Accept', value: 'application/json' },
  ];
  // Go's oauth2 client (canary-checker's) first sends the client in a Basic header, its parts form-encoded,
  // and when the server refuses that, in the body.
  const inHeader = { username: queryEscape(grant.clientId), password: queryEscape(grant.clientSecret) };
  const inBody = new URLSearchParams(form);
  inBody.set('client_id', grant.clientId);
  inBody.set('client_secret', grant.clientSecret);
  let status = 0;
  let text = '';
  for (const attempt of [{ body: form.toString(), basicAuth: inHeader }, { body: inBody.toString() }]) {
    const response = await send({ url: new URL(grant.tokenURL), method: 'POST', headers, ...attempt, tls: transport.tls, maxRedirects: 10, signal: transport.signal });
    status = response.status;
    text = response.body.toString('utf8');
    if (status < 200 || status > 299) continue;
    const { token, expiresIn } = readToken(String(response.headers['content-type'] ?? ''), text);
    if (!token) throw new OAuthError(`error fetching oauth access token: ${shownEndpoint(grant.tokenURL)} answered without an access_token`);
    return { token, renewAt: Date.now() + (expiresIn ? expiresIn * 1000 - EXPIRY_MARGIN_MS : UNDATED_TOKEN_MS) };
  }
  const detail = text.trim().slice(0, 200).split(grant.clientSecret).join('***');
  throw new OAuthError(`error fetching oauth access token: ${shownEndpoint(grant.tokenURL)} answered ${status}${detail ? `: ${detail}` : ''}`);
}

/**
 * An access token for the grant: the cached one until shortly before it expires, else a new one from the
 * token endpoint (one request at a time per grant).
 */
export async function clientCredentialsToken(grant: ClientCredentials, transport: Pick<HttpRequest, 'tls' | 'signal'>): Promise<string> {
  const key = cacheKey(grant);
  const cached = cache.get(key);
  if (cached && cached.renewAt > Date.now()) return cached.token;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = fetchToken(grant, transport).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  const fresh = await pending;
  cache.delete(key);
  cache.set(key, fresh);
  if (cache.size > MAX_CACHED) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return fresh.token;
}

/** Drops the grant's cached token (the API refused it), so the next run asks for a new one. */
export function forgetToken(grant: ClientCredentials): void {
  cache.delete(cacheKey(grant));
}
