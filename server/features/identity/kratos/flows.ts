import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../../../platform/errors';
import type { Queryable } from '../../../platform/jobs/db';
import { randomSecret } from '../../../platform/crypto';
import { cookieOf, CSRF_COOKIE, setCsrfCookie } from '../cookies';
import { baseUrl, ORY_PREFIX, publicPath, redirect, UI_PATHS, wantsJson } from './context';
import { csrfViolation, flowExpired, flowNotFound } from './errors';
import { csrfNode, type UiContainer, type UiNode, type UiText } from './ui';

export type FlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings';
export type FlowType = 'browser' | 'api';

/** Flows live an hour (Kratos' default), then answer 410 and are replaced. */
export const FLOW_LIFESPAN_MS = 60 * 60 * 1000;

export interface FlowRow {
  id: string;
  kind: FlowKind;
  type: FlowType;
  state: string;
  identity_id: string | null;
  session_id: string | null;
  csrf_token: string;
  return_to: string | null;
  request_url: string;
  requested_aal: string | null;
  refresh: boolean;
  ui: UiContainer;
  internal: Record<string, unknown>;
  issued_at: Date;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface NewFlow {
  kind: FlowKind;
  type: FlowType;
  state: string;
  identityId?: string;
  sessionId?: string;
  returnTo?: string;
  requestedAal?: string;
  refresh?: boolean;
  internal?: Record<string, unknown>;
}

const issued = new WeakMap<FastifyRequest, string>();

/** The browser's anti-CSRF secret: one per browser, in an httpOnly cookie, echoed by every form. */
export function csrfTokenFor(req: FastifyRequest, reply: FastifyReply): string {
  const existing = cookieOf(req, CSRF_COOKIE) ?? issued.get(req);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomSecret();
  issued.set(req, token);
  setCsrfCookie(req, reply, token);
  return token;
}

export function actionUrl(req: FastifyRequest, kind: FlowKind, id: string): string {
  return `${baseUrl(req)}${ORY_PREFIX}/self-service/${kind}?flow=${id}`;
}

export function uiUrl(req: FastifyRequest, kind: FlowKind, id: string): string {
  return `${publicPath(req, UI_PATHS[kind])}?flow=${id}`;
}

/** Inserts a flow whose UI `build` makes from its id (the form action names the flow). */
export async function createFlow(
  db: Queryable,
  req: FastifyRequest,
  csrf: string,
  flow: NewFlow,
  build: (id: string) => { nodes: UiNode[]; messages?: UiText[] },
): Promise<FlowRow> {
  const idRow = await db.query<{ id: string }>('SELECT gen_random_uuid() AS id');
  const id = idRow.rows[0]?.id;
  if (!id) throw new Error('no uuid');
  const built = build(id);
  const ui: UiContainer = {
    action: actionUrl(req, flow.kind, id),
    method: 'POST',
    nodes: flow.type === 'browser' ? [csrfNode(csrf), ...built.nodes] : built.nodes,
    ...(built.messages && built.messages.length > 0 ? { messages: built.messages } : {}),
  };
  const { rows } = await db.query<FlowRow>(
    `INSERT INTO selfservice_flows (id, kind, type, state, identity_id, session_id, csrf_token, return_to, request_url, requested_aal, refresh, ui, internal, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, now() + make_interval(secs => $14)) RETURNING *`,
    [
      id,
      flow.kind,
      flow.type,
      flow.state,
      flow.identityId ?? null,
      flow.sessionId ?? null,
      flow.type === 'browser' ? csrf : '',
      flow.returnTo ?? null,
      `${baseUrl(req)}${req.url}`,
      flow.requestedAal ?? null,
      flow.refresh ?? false,
      JSON.stringify(ui),
      JSON.stringify(flow.internal ?? {}),
      FLOW_LIFESPAN_MS / 1000,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error('flow insert returned no row');
  return normalize(row);
}

function normalize(row: FlowRow): FlowRow {
  return { ...row, internal: isRecord(row.internal) ? row.internal : {} };
}

export async function loadFlow(db: Queryable, id: string | undefined, kind: FlowKind): Promise<FlowRow> {
  if (!id || !/^[0-9a-f-]{36}$/i.test(id)) throw flowNotFound();
  const { rows } = await db.query<FlowRow>('SELECT * FROM selfservice_flows WHERE id = $1 AND kind = $2', [id, kind]);
  const row = rows[0];
  if (!row) throw flowNotFound();
  return normalize(row);
}

/** Saves a flow's new state, UI (keeping the CSRF node first) and internal state. */
export async function saveFlow(
  db: Queryable,
  flow: FlowRow,
  changes: { state?: string; nodes?: UiNode[]; messages?: UiText[]; internal?: Record<string, unknown>; identityId?: string; sessionId?: string | null },
): Promise<FlowRow> {
  const nodes = changes.nodes ?? flow.ui.nodes;
  const ui: UiContainer = {
    action: flow.ui.action,
    method: 'POST',
    nodes: flow.type === 'browser' ? [csrfNode(flow.csrf_token), ...nodes.filter((node) => !(node.attributes.node_type === 'input' && node.attributes.name === 'csrf_token'))] : nodes,
    ...(changes.messages && changes.messages.length > 0 ? { messages: changes.messages } : {}),
  };
  const { rows } = await db.query<FlowRow>(
    `UPDATE selfservice_flows SET state = $2, ui = $3, internal = $4, identity_id = coalesce($5, identity_id),
       session_id = CASE WHEN $7 THEN $6 ELSE session_id END
     WHERE id = $1 RETURNING *`,
    [flow.id, changes.state ?? flow.state, JSON.stringify(ui), JSON.stringify(changes.internal ?? flow.internal), changes.identityId ?? null, changes.sessionId ?? null, changes.sessionId !== undefined],
  );
  const row = rows[0];
  if (!row) throw flowNotFound();
  return normalize(row);
}

/**
 * A browser flow created for someone else's browser (an invitation made by an admin) has no CSRF token
 * yet: the first browser that opens it owns it from then on.
 */
export async function bindToBrowser(db: Queryable, req: FastifyRequest, reply: FastifyReply, flow: FlowRow): Promise<FlowRow> {
  if (flow.type !== 'browser' || flow.csrf_token !== '') return flow;
  const token = csrfTokenFor(req, reply);
  const nodes = [csrfNode(token), ...flow.ui.nodes.filter((node) => !(node.attributes.node_type === 'input' && node.attributes.name === 'csrf_token'))];
  const { rows } = await db.query<FlowRow>("UPDATE selfservice_flows SET csrf_token = $2, ui = jsonb_set(ui, '{nodes}', $3::jsonb) WHERE id = $1 AND csrf_token = '' RETURNING *", [
    flow.id,
    token,
    JSON.stringify(nodes),
  ]);
  const row = rows[0];
  if (!row) throw csrfViolation();
  return normalize(row);
}

export function isExpired(flow: FlowRow, now = Date.now()): boolean {
  return flow.expires_at.getTime() <= now;
}

/**
 * Browser flows are bound to the browser that started them: its CSRF cookie must match the flow's token
 * on every read and submit, and a submit must also carry the token in the form (spec §8
 * security_csrf_violation). API flows carry no cookie and no token.
 */
export function checkCsrfCookie(req: FastifyRequest, flow: FlowRow): void {
  if (flow.type !== 'browser') return;
  const cookie = cookieOf(req, CSRF_COOKIE);
  if (!cookie || cookie !== flow.csrf_token) throw csrfViolation();
}

export function checkCsrfSubmit(req: FastifyRequest, flow: FlowRow, submitted: unknown): void {
  checkCsrfCookie(req, flow);
  if (flow.type === 'browser' && submitted !== flow.csrf_token) throw csrfViolation();
}

export function expiredError(flow: FlowRow, replacement: FlowRow | undefined) {
  return flowExpired(replacement?.id, flow.expires_at);
}

/** Answers a flow: JSON (console, API clients), or a redirect to the page that renders it (browser forms). */
export function answerFlow(req: FastifyRequest, reply: FastifyReply, flow: FlowRow, body: unknown, status = 200): FastifyReply {
  if (flow.type === 'api' || wantsJson(req)) return reply.status(status).type('application/json; charset=utf-8').send(body);
  return redirect(reply, uiUrl(req, flow.kind, flow.id));
}

/** Common fields of every flow, as Kratos presents them. */
export function presentFlowBase(flow: FlowRow): Record<string, unknown> {
  return {
    id: flow.id,
    type: flow.type,
    expires_at: flow.expires_at.toISOString(),
    issued_at: flow.issued_at.toISOString(),
    request_url: flow.request_url,
    ...(flow.return_to ? { return_to: flow.return_to } : {}),
    state: flow.state,
    ui: flow.ui,
    created_at: flow.created_at.toISOString(),
    updated_at: flow.updated_at.toISOString(),
  };
}
