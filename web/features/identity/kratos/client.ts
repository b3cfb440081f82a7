import { ApiError, NETWORK_ERROR_TEXTS } from '@web/lib/api';
import { flowErrorSchema, flowSchema, kratosErrorSchema, successSchema, type Flow, type FlowError, type FlowKind, type KratosError, type UiText } from './schema';
import { FLOW_ERROR_TEXTS, notice } from './texts';

/** Where the Kratos-compatible public API lives (DESIGN §5). */
export const ORY_BASE = '/api/.ory';

/**
 * What a flow request leads to. The pages only render `flow` and `failed`; the hook acts on the rest
 * (spec §8: follow redirects, restart expired or refused flows with the reason shown).
 */
export type FlowOutcome =
  | { type: 'flow'; flow: Flow }
  | { type: 'redirect'; to: string }
  | { type: 'restart'; useFlowId?: string; message?: UiText; dropReturnTo?: boolean }
  | { type: 'failed'; message: string; error?: KratosError };

interface Answer {
  status: number;
  data: unknown;
}

function isOffline(): boolean {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** One JSON request to the identity API; network failures become ApiErrors with the spec §8 texts. */
export async function oryRequest(path: string, init: { method?: 'GET' | 'POST'; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`${ORY_BASE}${path}`, {
      method: init.method ?? 'GET',
      headers,
      credentials: 'same-origin',
      signal: AbortSignal.timeout(30_000),
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new ApiError(NETWORK_ERROR_TEXTS.timeout, 'timeout', undefined, undefined, { cause: error });
    if (isOffline()) throw new ApiError(NETWORK_ERROR_TEXTS.offline, 'offline', undefined, undefined, { cause: error });
    throw new ApiError(NETWORK_ERROR_TEXTS.network, 'network', undefined, undefined, { cause: error });
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  return { status: response.status, data };
}

const loginPath = (here: string, extra = '') => `/login?${extra}return_to=${encodeURIComponent(here)}`;

/** The next page of a finished flow: its redirect_browser_to, else the settings or verification page it names. */
function successTarget(data: unknown): string {
  const parsed = successSchema.safeParse(data);
  if (!parsed.success) return '/';
  const steps = parsed.data.continue_with ?? [];
  const redirect = steps.find((step) => step.action === 'redirect_browser_to' && step.redirect_browser_to);
  if (redirect?.redirect_browser_to) return redirect.redirect_browser_to;
  const ui = steps.find((step) => (step.action === 'show_settings_ui' || step.action === 'show_verification_ui') && step.flow?.url);
  return ui?.flow?.url ?? parsed.data.return_to ?? '/';
}

export type Stage = 'create' | 'get' | 'submit';

/**
 * Turns an answer into an outcome (spec §8 error catalogue). `here` is the current page (path and
 * query), where the person comes back after signing in when the flow needs a session.
 */
export function interpret(kind: FlowKind, stage: Stage, answer: Answer, here: string): FlowOutcome {
  const { status, data } = answer;
  if (status >= 200 && status < 300) {
    const flow = flowSchema.safeParse(data);
    if (flow.success) return { type: 'flow', flow: flow.data };
    return { type: 'redirect', to: successTarget(data) };
  }
  // Spec §5: a form error (400) or a rate limit (429) carries the flow again, with its messages.
  if (status === 400 || status === 429) {
    const flow = flowSchema.safeParse(data);
    if (flow.success) return { type: 'flow', flow: flow.data };
  }
  const parsed = kratosErrorSchema.safeParse(data);
  const error = parsed.success ? parsed.data : undefined;
  const redirect = error?.redirect_browser_to;
  // Spec §8 (verification): a refused new flow goes home, a gone or forbidden one starts again.
  if (kind === 'verification' && stage === 'create' && status === 400) return { type: 'redirect', to: '/' };
  switch (error?.error.id) {
    case 'session_already_available':
      return { type: 'redirect', to: '/' };
    case 'browser_location_change_required':
      if (redirect) return { type: 'redirect', to: redirect };
      break;
    case 'session_aal2_required':
      return { type: 'redirect', to: redirect ?? loginPath(here, 'aal=aal2&') };
    case 'session_refresh_required':
      return { type: 'redirect', to: redirect ?? loginPath(here, 'refresh=true&') };
    case 'session_inactive':
      return { type: 'redirect', to: loginPath(here) };
    case 'self_service_flow_return_to_forbidden':
      return { type: 'restart', message: notice(FLOW_ERROR_TEXTS.returnToForbidden), dropReturnTo: true };
    case 'self_service_flow_expired':
      return { type: 'restart', ...(error.use_flow_id ? { useFlowId: error.use_flow_id } : {}), message: notice(FLOW_ERROR_TEXTS.expired) };
    case 'security_csrf_violation':
      return { type: 'restart', message: notice(FLOW_ERROR_TEXTS.csrf) };
    case 'security_identity_mismatch':
    case 'self_service_flow_not_found':
      return { type: 'restart' };
  }
  if (status === 410) return { type: 'restart', ...(error?.use_flow_id ? { useFlowId: error.use_flow_id } : {}) };
  if (kind === 'verification' && status === 403) return { type: 'restart' };
  if (status === 404 && stage !== 'create') return { type: 'restart' };
  const message = error?.error.reason ?? error?.error.message ?? `The identity service answered ${status}.`;
  return { type: 'failed', message, ...(error ? { error } : {}) };
}

/** Starts a browser flow: GET /self-service/<kind>/browser with the page's parameters (return_to, refresh, aal). */
export async function createFlow(kind: FlowKind, params: Record<string, string>, here: string): Promise<FlowOutcome> {
  const query = new URLSearchParams(params).toString();
  const outcome = interpret(kind, 'create', await oryRequest(`/self-service/${kind}/browser${query ? `?${query}` : ''}`), here);
  // Starting over would ask the same question again; only a refused return_to can be dropped and retried.
  if (outcome.type === 'restart' && !(outcome.dropReturnTo && params.return_to !== undefined)) {
    return { type: 'failed', message: outcome.message?.text ?? 'The form could not be started. Reload the page to try again.' };
  }
  return outcome;
}

export async function getFlow(kind: FlowKind, id: string, here: string): Promise<FlowOutcome> {
  return interpret(kind, 'get', await oryRequest(`/self-service/${kind}/flows?id=${encodeURIComponent(id)}`), here);
}

/** Submits a form of the flow as JSON (the body carries csrf_token and the method). */
export async function submitFlow(kind: FlowKind, id: string, body: Record<string, unknown>, here: string): Promise<FlowOutcome> {
  return interpret(kind, 'submit', await oryRequest(`/self-service/${kind}?flow=${encodeURIComponent(id)}`, { method: 'POST', body }), here);
}

/**
 * GET /self-service/errors?id= : the stored error behind the /error page; null when it is gone (404, 403, 410).
 * Null, not undefined: a query function that resolves to undefined is a failed query in React Query.
 */
export async function getFlowError(id: string): Promise<FlowError | null> {
  const answer = await oryRequest(`/self-service/errors?id=${encodeURIComponent(id)}`);
  if (answer.status === 404 || answer.status === 403 || answer.status === 410) return null;
  if (answer.status !== 200) {
    const parsed = kratosErrorSchema.safeParse(answer.data);
    throw new ApiError(parsed.success ? (parsed.data.error.reason ?? parsed.data.error.message ?? 'An error occurred') : 'An error occurred', 'http', answer.status, answer.data);
  }
  return flowErrorSchema.parse(answer.data);
}

/** The session check of spec §8: signed in, signed out, or waiting for the second factor. */
export async function checkSession(): Promise<'active' | 'signed-out' | 'second-factor'> {
  const answer = await oryRequest('/sessions/whoami');
  if (answer.status === 200) return 'active';
  if (answer.status === 401) return 'signed-out';
  if (answer.status === 403 || answer.status === 422) return 'second-factor';
  throw new ApiError(`The session check answered ${answer.status}.`, 'http', answer.status, answer.data);
}
