import { STATUS_CODES } from 'node:http';
import { connectionType, fieldValue } from '../../../../common/connections';
import { codeOf, isRecord } from '../../errors';
import { redactConnection, safeMessage, urlPassword } from '../../peers/credentials';
import { send, type HttpResponse } from '../../peers/http-client';
import type { ResolvedConnection, TestOutcome } from '../types';

/** What a test waits for at most by itself when the caller's signal allows more (the API gives 10 s). */
export const TEST_TIMEOUT_MS = 10_000;

export const TEST_TITLE = 'Watchkeeper connection test';
export const TEST_MESSAGE = 'Test message from Watchkeeper';

export const passed = (message: string): TestOutcome => ({ ok: true, tested: true, message });
export const failed = (message: string): TestOutcome => ({ ok: false, tested: true, message });
export const untested = (message: string): TestOutcome => ({ ok: false, tested: false, message });

/** The label of the connection's type ("Postgres", "Slack"), for messages. */
export function labelOf(connection: ResolvedConnection): string {
  return connectionType(connection.type)?.label ?? connection.type;
}

/**
 * Every value of the connection that is a secret: the password and certificate columns, the password of
 * the URL's user info, basic auth's encoding of it, and each field the type table marks secret (a Google
 * Chat webhook URL, a bearer token or access key kept in properties). No message may carry one of them.
 */
export function secretsOf(connection: ResolvedConnection): string[] {
  const row = { url: connection.url, username: connection.username, password: connection.password, certificate: connection.certificate, insecure_tls: connection.insecureTLS, properties: connection.properties };
  const marked = (connectionType(connection.type)?.fields ?? []).filter((field) => field.input === 'secret').map((field) => fieldValue(row, field));
  // A peer may repeat the Authorization header it was sent: basic auth is the password in base64.
  const basic = connection.password ? Buffer.from(`${connection.username}:${connection.password}`).toString('base64') : '';
  return [connection.password, connection.certificate, urlPassword(connection.url) ?? '', basic, ...marked].filter((secret) => secret !== '');
}

/**
 * Why a call failed, in words: the time limit when the signal ended it, the first cause of an
 * AggregateError (Node's "localhost" tries ::1 and 127.0.0.1), the code of an error without a message.
 */
export function reasonOf(error: unknown, signal: AbortSignal, secrets: ReadonlyArray<string>): string {
  if (signal.aborted) return 'no answer within the time limit';
  const first = error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error;
  const text = safeMessage(first, secrets).trim();
  if (/wrong version number|packet length too long|unknown protocol/i.test(text)) return 'the server does not speak TLS on this port';
  const code = codeOf(first) ?? '';
  if (UNTRUSTED_CERTIFICATE.test(code) || UNTRUSTED_CERTIFICATE.test(text)) return `the server's certificate is not trusted here: ${text}`;
  return text && text !== 'Error' ? text : code || 'unknown error';
}

/** Node's codes (and texts) for a certificate it does not trust: unknown authority, self-signed, expired, wrong name. */
const UNTRUSTED_CERTIFICATE = /UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT|SELF_SIGNED_CERT|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID|unable to verify the first certificate|self[- ]signed certificate/i;

/** A URL fit for a message: no user-info password, no query (webhook keys often sit there). */
export function shownUrl(url: URL | string): string {
  const text = typeof url === 'string' ? url : url.toString();
  return redactConnection(text.replace(/[?#].*$/, ''));
}

export function statusLine(status: number): string {
  return `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
}

/** `http://` and `https://` hosts this machine answers itself: the only ones a cloud type's test may call. */
export function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/** A base URL from a host field that may be written without a scheme (`ntfy.sh`), https then. */
export function baseUrl(text: string, fallback: string): string {
  const value = text.trim() || fallback;
  return (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`).replace(/\/+$/, '');
}

export interface PeerRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body (sent as application/json unless headers say otherwise) or a text body. */
  json?: unknown;
  body?: string;
  basicAuth?: { username: string; password: string };
  bearerToken?: string;
}

export class InvalidUrl extends Error {}

/**
 * One HTTP exchange with the connection's peer through the checks' client: the connection's insecure_tls,
 * the caller's signal, a few redirects, bodies bounded.
 */
export async function request(connection: ResolvedConnection, signal: AbortSignal, peer: PeerRequest): Promise<HttpResponse> {
  let url: URL;
  try {
    url = new URL(peer.url);
  } catch {
    throw new InvalidUrl(`${shownUrl(peer.url)} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidUrl(`${shownUrl(peer.url)} is not an http:// or https:// URL`);
  const headers: Record<string, string> = { ...(peer.json !== undefined ? { 'content-type': 'application/json' } : {}), ...peer.headers };
  const body = peer.json !== undefined ? JSON.stringify(peer.json) : peer.body;
  return send({
    url,
    method: peer.method ?? 'GET',
    headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
    ...(body !== undefined ? { body } : {}),
    ...(peer.basicAuth ? { basicAuth: peer.basicAuth } : {}),
    ...(peer.bearerToken ? { bearerToken: peer.bearerToken } : {}),
    tls: { rejectUnauthorized: !connection.insecureTLS, handshakeTimeoutMs: TEST_TIMEOUT_MS },
    maxRedirects: 3,
    signal,
  });
}

/** The answer's body as JSON, or undefined when it is not JSON. */
export function jsonOf(response: HttpResponse): unknown {
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A short single-line piece of an error answer, to say what the peer said beside its status. */
export function excerpt(response: HttpResponse, max = 200): string {
  const json = jsonOf(response);
  if (isRecord(json)) {
    for (const key of ['error', 'message', 'description', 'msg', 'error_description']) {
      const value = json[key];
      if (typeof value === 'string' && value.trim()) return value.trim().slice(0, max);
      if (isRecord(value) && typeof value.message === 'string') return value.message.trim().slice(0, max);
    }
    // Pushover and IFTTT list their reasons: ["application token is invalid"], [{message: "…"}].
    if (Array.isArray(json.errors)) {
      const reasons = json.errors.map((item) => (typeof item === 'string' ? item : isRecord(item) && typeof item.message === 'string' ? item.message : '')).filter(Boolean);
      if (reasons.length > 0) return reasons.join('; ').slice(0, max);
    }
  }
  const type = String(response.headers['content-type'] ?? '');
  if (type && !/text\/plain|json/i.test(type)) return '';
  const text = response.body.toString('utf8').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `HTTP 404 Not Found` with what the answer said, for a refused request. */
export function refusal(response: HttpResponse): string {
  const said = excerpt(response);
  return `${statusLine(response.status)}${said ? `: ${said}` : ''}`;
}

/**
 * Sends one request and answers ok when the status is below 400, with `HTTP 200 OK` (and `extra` of the
 * answer when given); a refusal or an unreachable peer answers the reason.
 */
export async function httpTest(connection: ResolvedConnection, signal: AbortSignal, peer: PeerRequest, extra?: (response: HttpResponse) => string | undefined): Promise<TestOutcome> {
  const method = peer.method ?? 'GET';
  let response: HttpResponse;
  try {
    response = await request(connection, signal, peer);
  } catch (error) {
    if (error instanceof InvalidUrl) return failed(error.message);
    return failed(`${method} ${shownUrl(peer.url)}: ${reasonOf(error, signal, secretsOf(connection))}`);
  }
  if (response.status >= 400) return failed(`${method} ${shownUrl(peer.url)}: ${refusal(response)}`);
  const more = extra?.(response);
  return passed(`${statusLine(response.status)}${more ? `, ${more}` : ''}`);
}

/** Items of a comma separated field ("a, b,,c" is a, b, c). */
export function listOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * One request whose refusal (status 400 and above) or failure is the test's answer: either the answer to
 * read further or the failed outcome, naming `what` was asked ("POST https://ntfy.sh/alerts").
 */
export async function exchange(connection: ResolvedConnection, signal: AbortSignal, peer: PeerRequest): Promise<{ response: HttpResponse } | { outcome: TestOutcome }> {
  const what = `${peer.method ?? 'GET'} ${shownUrl(peer.url)}`;
  try {
    const response = await request(connection, signal, peer);
    if (response.status >= 400) return { outcome: failed(`${what}: ${refusal(response)}`) };
    return { response };
  } catch (error) {
    if (error instanceof InvalidUrl) return { outcome: failed(error.message) };
    return { outcome: failed(`${what}: ${reasonOf(error, signal, secretsOf(connection))}`) };
  }
}
