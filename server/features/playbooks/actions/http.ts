import type { ResolvedConnection } from '../../../platform/connections/types';
import { reasonOf, secretsOf } from '../../../platform/connections/testers/shared';
import { isRecord } from '../../../platform/errors';
import { send, type HttpRequest, type HttpResponse } from '../../../platform/peers/http-client';
import { resolveEnvVar } from '../../../platform/secrets/resolve';
import { parseDuration } from '../../../platform/units';
import { credentialsFor, refusedToken } from '../../../platform/peers/http-auth';
import { shown, shownText } from '../../../platform/peers/shown-url';
import type { HttpSpec } from '../../../platform/peers/http-spec';
import { actionConnection, envValueOf, notRun, stopReason } from './shared';
import type { ActionContext, ActionOutcome } from './types';

const MAX_REDIRECTS = 10;
const HANDSHAKE_MS = 10_000;

type Spec = NonNullable<ActionContext['spec']['http']>;

interface Request {
  url: URL;
  username: string;
  password: string;
  bearer: string;
  headers: Array<{ name: string; value: string }>;
  tls: HttpRequest['tls'];
  /** The clear values this request carries, kept out of every message. */
  secrets: string[];
}

/** Mission Control's http `tls` (duty's TLSConfig): insecureSkipVerify, handshakeTimeout, ca, cert, key. */
async function tlsOf(ctx: ActionContext, spec: Spec, connection: ResolvedConnection | undefined): Promise<HttpRequest['tls']> {
  const tls = spec.tls ?? {};
  const ca = await envValueOf(ctx, tls.ca, 'http.tls.ca');
  const cert = await envValueOf(ctx, tls.cert, 'http.tls.cert');
  const key = await envValueOf(ctx, tls.key, 'http.tls.key');
  const handshake = typeof tls.handshakeTimeout === 'string' ? parseDuration(tls.handshakeTimeout) : undefined;
  return {
    rejectUnauthorized: tls.insecureSkipVerify !== true && !connection?.insecureTLS,
    ...(ca ? { ca } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    handshakeTimeoutMs: handshake || HANDSHAKE_MS,
  };
}

/** The request as written, its connection filled in where the action leaves a field empty. */
async function requestOf(ctx: ActionContext, spec: Spec): Promise<Request | string> {
  const connection = spec.connection ? await actionConnection(ctx, spec.connection, 'http.connection') : undefined;
  const text = spec.url || connection?.url || '';
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    return text ? `http.url ${JSON.stringify(shownText(text))} is not an http:// or https:// URL with a host` : 'http: needs a url, or a connection that has one';
  }
  // As the http check: a user:password@ in the URL is the credentials, over the fields.
  const inUrl = url.username !== '' || url.password !== '';
  const username = inUrl ? decodeURIComponent(url.username) : (await envValueOf(ctx, spec.username, 'http.username')) || (connection?.username ?? '');
  const password = inUrl ? decodeURIComponent(url.password) : (await envValueOf(ctx, spec.password, 'http.password')) || (connection?.password ?? '');
  url.username = '';
  url.password = '';
  const bearer = (await envValueOf(ctx, spec.bearer, 'http.bearer')) || (connection?.properties.bearer ?? '');
  const headers: Request['headers'] = [];
  const secrets = [password, bearer, ...(connection ? secretsOf(connection) : [])];
  for (const header of spec.headers ?? []) {
    const value = await resolveEnvVar(ctx.secrets, ctx.namespace, header, `http.headers.${header.name}`);
    headers.push({ name: header.name, value });
    // A header read from a secret, or one that authenticates, never shows in a message.
    if (header.valueFrom !== undefined || /^(authorization|cookie|x-api-key)$/i.test(header.name)) secrets.push(value);
  }
  return { url, username, password, bearer, headers, tls: await tlsOf(ctx, spec, connection), secrets };
}

/** Mission Control's `oauth` (duty's OAuth: clientID, clientSecret, tokenURL, scope, params) as the http check's oauth2 reads it. */
async function oauthOf(ctx: ActionContext, spec: Spec, request: Request): Promise<{ check: Pick<HttpSpec, 'digest' | 'oauth2'>; username: string; password: string } | string> {
  const check: Pick<HttpSpec, 'digest' | 'oauth2'> = { ...(spec.digest ? { digest: true } : {}) };
  const oauth = spec.oauth;
  if (!oauth || Object.keys(oauth).length === 0) return { check, username: request.username, password: request.password };
  if (typeof oauth.tokenURL !== 'string' || oauth.tokenURL === '') return 'http.oauth.tokenURL is required';
  const texts = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : typeof value === 'string' ? [value] : []);
  const params = isRecord(oauth.params) ? Object.fromEntries(Object.entries(oauth.params).map(([key, value]) => [key, String(value)])) : {};
  // The client id and secret are oauth's own, or (as the http check) the username and password.
  const clientId = (await envValueOf(ctx, oauth.clientID, 'http.oauth.clientID')) || request.username;
  const clientSecret = (await envValueOf(ctx, oauth.clientSecret, 'http.oauth.clientSecret')) || request.password;
  request.secrets.push(clientSecret);
  return { check: { ...check, oauth2: { tokenURL: oauth.tokenURL, scope: [...texts(oauth.scope), ...texts(oauth.scopes)], params } }, username: clientId, password: clientSecret };
}

/** Header names as Go writes them (Content-Type), as Mission Control's result has them. */
function headersOf(response: HttpResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase())] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function resultOf(response: HttpResponse): Record<string, unknown> {
  const body = response.body.toString('utf8');
  const result: Record<string, unknown> = { code: response.status, headers: headersOf(response), body, ...(response.truncated ? { truncated: true } : {}) };
  if (/\bjson\b/i.test(String(response.headers['content-type'] ?? ''))) {
    try {
      const json: unknown = JSON.parse(body);
      result.json = json;
    } catch {
      // Not JSON after all: the body says what came.
    }
  }
  return result;
}

/**
 * `http` (Mission Control's HTTPAction): sends the request to `url` or the `connection`'s url, with its
 * `headers`, `body` (method POST by default when there is one, else GET) and credentials as the HTTP
 * health check sends them: OAuth2 client credentials, a bearer token, Digest when `digest` is set, else
 * Basic. Result: {code, headers, body} (and `json` for a JSON answer); an answer of 400 or more fails it.
 */
export async function http(ctx: ActionContext): Promise<ActionOutcome> {
  const spec = ctx.spec.http;
  if (!spec) return { result: {}, error: 'the action has no http block' };
  if (spec.ntlm || spec.ntlmv2) return { result: {}, error: `http.${spec.ntlm ? 'ntlm' : 'ntlmv2'}: NTLM is not supported (use username and password, digest, bearer or oauth)` };
  let request: Request | string;
  let auth: Awaited<ReturnType<typeof oauthOf>>;
  try {
    request = await requestOf(ctx, spec);
    if (typeof request === 'string') return { result: {}, error: request };
    auth = await oauthOf(ctx, spec, request);
    if (typeof auth === 'string') return { result: {}, error: auth };
  } catch (error) {
    return notRun(error);
  }
  const method = (spec.method?.trim() || (spec.body ? 'POST' : 'GET')).toUpperCase();
  const { url, tls, secrets } = request;
  const signal = ctx.signal;
  let response: HttpResponse;
  try {
    const credentials = request.bearer && !auth.check.oauth2 ? { bearerToken: request.bearer } : await credentialsFor(auth.check, auth.username, auth.password, { tls, signal });
    response = await send({
      url,
      method,
      headers: request.headers,
      ...(spec.body !== undefined && spec.body !== '' && method !== 'HEAD' ? { body: spec.body } : {}),
      ...credentials,
      tls,
      maxRedirects: MAX_REDIRECTS,
      signal,
    });
  } catch (error) {
    const reason = signal.aborted ? stopReason(signal) : reasonOf(error, signal, secrets);
    return { result: { code: 0 }, error: `${method} ${shown(url)}: ${reason}` };
  }
  refusedToken(auth.check, auth.username, auth.password, response.status);
  const result = resultOf(response);
  if (response.status >= 400) return { result, error: `HTTP ${response.status} from ${shown(url)}` };
  return { result };
}
