import type { z } from 'zod';
import type { ResolvedConnection } from '../../../platform/connections/types';
import { reasonOf, refusal, shownUrl } from '../../../platform/connections/testers/shared';
import { isRecord, messageOf } from '../../../platform/errors';
import { withoutSecrets } from '../../../platform/peers/credentials';
import { send, type HttpResponse } from '../../../platform/peers/http-client';
import { resolveConnection, resolveEnvVar, UnresolvedReference } from '../../../platform/secrets/resolve';
import type { ActionType } from '../spec';
import type { ActionContext, ActionOutcome } from './types';

/** What one call to a peer's API waits for its TLS handshake at most (the action's signal bounds the rest). */
const HANDSHAKE_MS = 10_000;

/**
 * Why the action stopped, from its signal: the reason the runner gave (an Error's message or a text), else
 * `timed out` for a timeout signal and `cancelled` for a bare abort.
 */
export function stopReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string' && reason.trim()) return reason;
  if (reason instanceof Error) {
    if (reason.name === 'TimeoutError') return 'timed out';
    if (reason.name !== 'AbortError' && reason.message) return reason.message;
  }
  return 'cancelled';
}

/**
 * The stored connection an action names: `connection://namespace/name`, `connection://name` or a bare
 * name (both in the playbook's namespace). Throws UnresolvedReference naming it when there is none.
 */
export function actionConnection(ctx: ActionContext, reference: string, where: string): Promise<ResolvedConnection> {
  const text = reference.trim();
  return resolveConnection(ctx.secrets, text.startsWith('connection://') ? text : `connection://${text}`, ctx.namespace, where);
}

/** An EnvVar field of an action (a text, `{value}` or `{valueFrom}`) in clear; '' when not given. */
export async function envValueOf(ctx: ActionContext, envVar: unknown, where: string): Promise<string> {
  if (envVar === undefined || envVar === null) return '';
  if (typeof envVar === 'string') return envVar;
  if (!isRecord(envVar)) throw new UnresolvedReference(`${where}: must be a text, {value} or {valueFrom}`);
  return resolveEnvVar(ctx.secrets, ctx.namespace, envVar, where);
}

/** A failure before anything was sent or run: an unresolved reference names itself; nothing else is expected. */
export function notRun(error: unknown, result: Record<string, unknown> = {}): ActionOutcome {
  return { result, error: error instanceof UnresolvedReference ? error.message : messageOf(error) };
}

/**
 * The action's own block read with its schema (the spec accepts it before the run; this is where a bad
 * field stops the action): the block, or every problem at once, each with its path (`github.workflows[0].id: is required`).
 */
export function blockOf<S extends z.ZodType>(ctx: ActionContext, type: ActionType, schema: S): { block: z.output<S> } | { error: string } {
  const raw: unknown = ctx.spec[type];
  if (raw === undefined) return { error: `the action has no ${type} block` };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { block: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const path = issue.path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`), type);
    return `${path}: ${issue.message}`;
  });
  return { error: problems.join('; ') };
}

/** A base URL from a field, a connection or the environment, without a trailing slash; '' when none is given. */
export function baseOf(...candidates: Array<string | undefined>): string {
  const found = candidates.map((candidate) => candidate?.trim() ?? '').find((candidate) => candidate !== '') ?? '';
  return found.replace(/\/+$/, '');
}

export interface ApiCall {
  method: string;
  url: string;
  json?: unknown;
  headers?: Record<string, string>;
  basicAuth?: { username: string; password: string };
  bearerToken?: string;
  insecureTLS?: boolean;
  /** Clear values this call carries, kept out of every message. */
  secrets: ReadonlyArray<string>;
}

export interface ApiAnswer {
  status: number;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
  response: HttpResponse;
}

/**
 * One call to a peer's HTTP API with the action's signal: the answer (whatever its status), or why no
 * answer came (`POST https://api.github.com/…: connect ECONNREFUSED`), never with a secret or a query.
 */
export async function callApi(ctx: ActionContext, call: ApiCall): Promise<ApiAnswer | { error: string }> {
  const what = `${call.method} ${shownUrl(call.url)}`;
  if (!URL.canParse(call.url)) return { error: `${shownUrl(call.url)} is not a URL` };
  const url = new URL(call.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: `${shownUrl(call.url)} is not an http:// or https:// URL` };
  const headers: Record<string, string> = { accept: 'application/json', ...(call.json !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers };
  try {
    const response = await send({
      url,
      method: call.method,
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      ...(call.json !== undefined ? { body: JSON.stringify(call.json) } : {}),
      ...(call.basicAuth ? { basicAuth: call.basicAuth } : {}),
      ...(call.bearerToken ? { bearerToken: call.bearerToken } : {}),
      tls: { rejectUnauthorized: !call.insecureTLS, handshakeTimeoutMs: HANDSHAKE_MS },
      maxRedirects: 3,
      signal: ctx.signal,
    });
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString('utf8'));
    } catch {
      json = undefined;
    }
    return { status: response.status, json, response };
  } catch (error) {
    return { error: `${what}: ${ctx.signal.aborted ? stopReason(ctx.signal) : reasonOf(error, ctx.signal, call.secrets)}` };
  }
}

/** `HTTP 404 Not Found: <what the peer said>`, for an answer that refused the call (a peer may repeat what it was sent). */
export function refused(answer: ApiAnswer, secrets: ReadonlyArray<string> = []): string {
  return withoutSecrets(refusal(answer.response), secrets);
}

/** A text field of a JSON answer. */
export function textAt(value: unknown, ...keys: string[]): string | undefined {
  let current = value;
  for (const key of keys) current = isRecord(current) ? current[key] : undefined;
  return typeof current === 'string' ? current : typeof current === 'number' ? String(current) : undefined;
}
