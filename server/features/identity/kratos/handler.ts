import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Resolution } from '../authenticate';
import { setSessionCookie } from '../cookies';
import { loadIdentity } from '../identities';
import { sessionByToken, type IssuedSession, type SessionRow } from '../sessions';
import { baseUrl, type Body, type IdentityDeps } from './context';
import type { FlowKind, FlowRow, FlowType } from './flows';
import { presentSession } from './presenters';

/** One request inside a self-service flow. */
export interface FlowContext {
  deps: IdentityDeps;
  req: FastifyRequest;
  reply: FastifyReply;
  /** Who the request's credential belongs to, if anyone. */
  auth: Resolution;
  /** The browser's anti-CSRF token (browser flows). */
  csrf: string;
}

/** What a submit leads to: the flow again (a form error, or the next step), or the end of the flow. */
export type Outcome =
  | { type: 'flow'; flow: FlowRow; status: number }
  | { type: 'done'; status: number; body: Record<string, unknown>; redirectTo: string };

export interface FlowKindHandler {
  kind: FlowKind;
  create(ctx: FlowContext, type: FlowType): Promise<FlowRow>;
  present(ctx: FlowContext, flow: FlowRow): Promise<Record<string, unknown>>;
  submit(ctx: FlowContext, flow: FlowRow, body: Body): Promise<Outcome>;
}

/** The session the request carries (also one still waiting for its second factor). */
export async function currentSession(ctx: FlowContext): Promise<SessionRow | undefined> {
  const credential = ctx.auth.credential;
  if (!credential || credential.kind !== 'session') return undefined;
  if (!ctx.auth.actor && !ctx.auth.pending) return undefined;
  return sessionByToken(ctx.deps.pool, credential.token);
}

/**
 * Hands a new or rotated session to the client: a cookie for browser flows; for API flows the token goes
 * into the answer (`session_token`) and nowhere else.
 */
export function deliverSession(ctx: FlowContext, flow: FlowRow, issued: IssuedSession): { session_token?: string } {
  ctx.deps.auth.forget(ctx.req);
  if (flow.type === 'browser') {
    setSessionCookie(ctx.req, ctx.reply, issued.token);
    return {};
  }
  return { session_token: issued.token };
}

export async function presentIssued(ctx: FlowContext, issued: IssuedSession): Promise<Record<string, unknown>> {
  const identity = await loadIdentity(ctx.deps.pool, issued.session.identity_id);
  if (!identity) throw new Error('the identity of a new session is gone');
  return presentSession(ctx.req, issued.session, identity);
}

export function homeUrl(ctx: FlowContext): string {
  return `${baseUrl(ctx.req)}/`;
}

export function flowOutcome(flow: FlowRow, status = 200): Outcome {
  return { type: 'flow', flow, status };
}
