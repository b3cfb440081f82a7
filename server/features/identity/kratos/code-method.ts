import { stringField, type Body } from './context';
import { badRequest } from './errors';
import { checkCode, isEmail, readCodeState } from './codes';
import { saveFlow, uiUrl, type FlowRow } from './flows';
import { flowOutcome, type FlowContext, type Outcome } from './handler';
import { M } from './messages';
import { input, withFieldMessage, type UiNode, type UiText } from './ui';

/** What differs between recovery and verification by emailed code; the steps are the same. */
export interface CodeMethod {
  kind: 'recovery' | 'verification';
  codeLabel: UiText;
  sent: UiText;
  invalid: UiText;
  tooOften: UiText;
  /** Sends a code for the address; answers the flow's new internal state. */
  send(ctx: FlowContext, email: string, flowUrl: string): Promise<Record<string, unknown>>;
}

export function emailNodes(email?: string): UiNode[] {
  return [
    input('code', 'email', 'email', { required: true, autocomplete: 'email', label: M.email, ...(email ? { value: email } : {}) }),
    input('code', 'method', 'submit', { value: 'code', label: M.submit }),
  ];
}

/** The code field, and "Resend code" (a submit carrying the address, so it asks for a new code). */
export function codeNodes(method: CodeMethod, email: string): UiNode[] {
  return [
    input('code', 'code', 'text', { required: true, autocomplete: 'one-time-code', pattern: '[0-9]+', label: method.codeLabel }),
    input('code', 'method', 'hidden', { value: 'code' }),
    input('code', 'method', 'submit', { value: 'code', label: M.submit }),
    input('code', 'email', 'submit', { value: email, label: M.resendCode }),
  ];
}

export function sentMessages(ctx: FlowContext, method: CodeMethod): UiText[] {
  return ctx.deps.mailer.delivers ? [method.sent] : [method.sent, M.mailNotConfigured];
}

/**
 * The shared steps of a code flow: an address asks for a code (rate-limited per client and per
 * address), a code is checked (every wrong try counts; too many, or too late, starts over). Answers the
 * flow to show again, or the identity and address the right code proved.
 */
export async function submitCode(ctx: FlowContext, flow: FlowRow, body: Body, method: CodeMethod): Promise<Outcome | { identityId: string; email: string }> {
  const { pool, limiter } = ctx.deps;
  if (stringField(body, 'method') !== 'code') throw badRequest(`${method.kind} supports the method "code"`);
  const code = (stringField(body, 'code') ?? '').trim();
  const email = (stringField(body, 'email') ?? '').trim();

  if (code === '') {
    if (!isEmail(email)) {
      const nodes = withFieldMessage(emailNodes(email), 'email', email ? M.invalidEmail(email) : M.required('email'));
      return flowOutcome(await saveFlow(pool, flow, { state: 'choose_method', nodes }), 400);
    }
    for (const [name, subject] of [['codeSendAddress', ctx.req.ip], ['codeSendEmail', email.toLowerCase()]] as const) {
      const state = await limiter.hit(name, subject);
      if (state.limited) return flowOutcome(await saveFlow(pool, flow, { nodes: emailNodes(email), messages: [M.rateLimited(state.retryAfter)] }), 429);
    }
    const internal = await method.send(ctx, email, uiUrl(ctx.req, method.kind, flow.id));
    return flowOutcome(await saveFlow(pool, flow, { state: 'sent_email', nodes: codeNodes(method, email), messages: sentMessages(ctx, method), internal }));
  }

  const state = readCodeState(flow.internal);
  const result = checkCode(state, code);
  if (result.ok) return { identityId: result.identityId, email: result.email };
  const messages = [result.reason === 'too_often' ? method.tooOften : method.invalid];
  if (result.reason === 'too_often' || result.reason === 'expired') {
    return flowOutcome(await saveFlow(pool, flow, { state: 'choose_method', nodes: emailNodes(state?.email), messages, internal: {} }), 400);
  }
  return flowOutcome(await saveFlow(pool, flow, { nodes: codeNodes(method, state?.email ?? email), messages, internal: { ...flow.internal, code: result.state } }), 400);
}

export function isOutcome(value: Outcome | { identityId: string }): value is Outcome {
  return 'type' in value;
}
