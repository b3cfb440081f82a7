import { AsyncLocalStorage } from 'node:async_hooks';
import type { ResolvedConnection } from '../connections/types';
import { InvalidUrl, jsonOf, reasonOf, refusal, request, secretsOf, shownUrl, type PeerRequest } from '../connections/testers/shared';
import type { HttpResponse } from '../peers/http-client';
import type { ChannelMessage, SendOutcome } from './types';

/**
 * What HTTP channels share: one exchange with the service through the checks' client (the connection's
 * insecure_tls, the caller's signal), a refusal in words with an excerpt of the answer, and the settings
 * of a send (the connection's properties under the message's overrides).
 */

/**
 * The idempotency header of a send (docs/NOTIFICATIONS.md "Delivery guarantees"): every request a channel
 * makes for one send carries the send's id, so a receiver deduplicates the re-send that follows a crash.
 */
export const SEND_ID_HEADER = 'X-Watchkeeper-Send-Id';

const sendIds = new AsyncLocalStorage<string>();

/** Runs a channel's sender with the send's id, which every request it makes through `call` then carries. */
export function withSendId<T>(sendId: string | undefined, run: () => Promise<T>): Promise<T> {
  return sendId ? sendIds.run(sendId, run) : run();
}

/** The id of the send in progress (see withSendId), if any. */
export const currentSendId = (): string | undefined => sendIds.getStore();

/** The longest piece of a peer's answer a failed outcome carries. */
export const EXCERPT_MAX = 300;

/** A connection property, or the message's override of it; trimmed, '' when neither is set. */
export function setting(connection: ResolvedConnection, message: ChannelMessage, key: string): string {
  return (message.properties?.[key]?.trim() || connection.properties[key]?.trim()) ?? '';
}

/** The start of the answer's body, on one line. */
export function bodyExcerpt(response: HttpResponse): string | undefined {
  const text = response.body.toString('utf8').replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  return text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX - 1)}…` : text;
}

export const failure = (message: string): SendOutcome => ({ ok: false, message });

/** The service answered below 400 but said no in its own way (Slack's `ok: false`, Pushover's `status: 0`). */
export function refused(response: HttpResponse, message: string): SendOutcome {
  const excerpt = bodyExcerpt(response);
  return { ok: false, status: response.status, message, ...(excerpt ? { excerpt } : {}) };
}

export const delivered = (response: HttpResponse, where: string): SendOutcome => ({ ok: true, status: response.status, message: where ? `sent to ${where}` : 'sent' });

export type Exchange = { response: HttpResponse; json: unknown } | { outcome: SendOutcome };

/**
 * One request whose refusal (status 400 and above) or failure is the outcome, naming what was asked
 * ("POST https://ntfy.sh/alerts"); else the answer, its body parsed when it is JSON.
 */
export async function call(connection: ResolvedConnection, signal: AbortSignal, peer: PeerRequest): Promise<Exchange> {
  const what = `${peer.method ?? 'GET'} ${shownUrl(peer.url)}`;
  const sendId = currentSendId();
  try {
    const response = await request(connection, signal, sendId ? { ...peer, headers: { ...peer.headers, [SEND_ID_HEADER]: sendId } } : peer);
    if (response.status >= 400) return { outcome: refused(response, `${what}: ${refusal(response)}`) };
    return { response, json: jsonOf(response) };
  } catch (error) {
    if (error instanceof InvalidUrl) return { outcome: failure(error.message) };
    return { outcome: failure(`${what}: ${reasonOf(error, signal, secretsOf(connection))}`) };
  }
}

/**
 * Sends each request in turn (one per chat, target or event): the first refusal is the outcome. `check`
 * reads an answer below 400 and returns the service's refusal in words, or undefined when it accepted.
 */
export async function callEach(connection: ResolvedConnection, signal: AbortSignal, requests: PeerRequest[], where: string, check?: (json: unknown, response: HttpResponse) => string | undefined): Promise<SendOutcome> {
  let last: SendOutcome = failure('nothing to send');
  for (const peer of requests) {
    const result = await call(connection, signal, peer);
    if ('outcome' in result) return result.outcome;
    const refusal = check?.(result.json, result.response);
    if (refusal !== undefined) return refused(result.response, refusal);
    last = delivered(result.response, where);
  }
  return last;
}

/** Basic auth when the connection has a username or password. */
export const basicAuthOf = (connection: ResolvedConnection): Pick<PeerRequest, 'basicAuth'> =>
  connection.username || connection.password ? { basicAuth: { username: connection.username, password: connection.password } } : {};

export const textOf = (value: unknown): string => (typeof value === 'string' ? value : '');
