import { findByAddress, markAddressSent, markAddressVerified } from '../identities';
import { checkReturnTo, queryString, stringField, type Body } from './context';
import { badRequest } from './errors';
import { checkCode, CODE_LIFESPAN_MS, isEmail, newCode, readCodeState } from './codes';
import { createFlow, presentFlowBase, saveFlow, uiUrl, type FlowRow, type FlowType } from './flows';
import { flowOutcome, homeUrl, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { anchor, input, withFieldMessage, type UiNode, type UiText } from './ui';

function emailNodes(email?: string): UiNode[] {
  return [
    input('code', 'email', 'email', { required: true, autocomplete: 'email', label: M.email, ...(email ? { value: email } : {}) }),
    input('code', 'method', 'submit', { value: 'code', label: M.submit }),
  ];
}

function codeNodes(email: string): UiNode[] {
  return [
    input('code', 'code', 'text', { required: true, autocomplete: 'one-time-code', pattern: '[0-9]+', label: M.verifyCode }),
    input('code', 'method', 'hidden', { value: 'code' }),
    input('code', 'method', 'submit', { value: 'code', label: M.submit }),
    input('code', 'email', 'submit', { value: email, label: M.resendCode }),
  ];
}

/** Sends a verification code for `email` and answers the flow's internal state (nothing is sent to unknown addresses). */
export async function sendVerificationCode(ctx: FlowContext, email: string, flowUrl: string): Promise<Record<string, unknown>> {
  const found = await findByAddress(ctx.deps.pool, email);
  const { code, state } = newCode(found?.id ?? null, email);
  if (found) {
    await ctx.deps.mailer.send({
      to: email,
      subject: 'Verify your email address for Watchkeeper',
      text: `Your verification code is ${code}\n\nEnter it at ${flowUrl} within ${CODE_LIFESPAN_MS / 60000} minutes.\n\nIf you did not ask for this, ignore this mail.\n`,
    });
    await markAddressSent(ctx.deps.pool, found.id, email);
  }
  return { code: state };
}

function sentMessages(ctx: FlowContext): UiText[] {
  return ctx.deps.mailer.delivers ? [M.verificationCodeSent] : [M.verificationCodeSent, M.mailNotConfigured];
}

/** A verification flow that starts with the code already sent (after registration or an email change). */
export async function startVerification(ctx: FlowContext, type: FlowType, email: string, returnTo: string | undefined): Promise<FlowRow> {
  const flow = await createFlow(ctx.deps.pool, ctx.req, ctx.csrf, { kind: 'verification', type, state: 'sent_email', ...(returnTo ? { returnTo } : {}) }, () => ({
    nodes: codeNodes(email),
    messages: sentMessages(ctx),
  }));
  const internal = await sendVerificationCode(ctx, email, uiUrl(ctx.req, 'verification', flow.id));
  return saveFlow(ctx.deps.pool, flow, { internal });
}

async function create(ctx: FlowContext, type: FlowType): Promise<FlowRow> {
  const returnTo = checkReturnTo(ctx.req, ctx.deps.config, queryString(ctx.req, 'return_to'));
  const email = ctx.auth.actor?.email ?? undefined;
  return createFlow(ctx.deps.pool, ctx.req, ctx.csrf, { kind: 'verification', type, state: 'choose_method', ...(returnTo ? { returnTo } : {}) }, () => ({
    nodes: emailNodes(email),
  }));
}

async function present(_ctx: FlowContext, flow: FlowRow): Promise<Record<string, unknown>> {
  return { ...presentFlowBase(flow), active: 'code' };
}

async function submit(ctx: FlowContext, flow: FlowRow, body: Body): Promise<Outcome> {
  const { pool, limiter } = ctx.deps;
  if (stringField(body, 'method') !== 'code') throw badRequest('verification supports the method "code"');
  const code = (stringField(body, 'code') ?? '').trim();
  const email = (stringField(body, 'email') ?? '').trim();

  if (code === '') {
    // Ask for a (new) code.
    if (!isEmail(email)) {
      const nodes = withFieldMessage(emailNodes(email), 'email', email ? M.invalidEmail(email) : M.required('email'));
      return flowOutcome(await saveFlow(pool, flow, { state: 'choose_method', nodes }), 400);
    }
    for (const [name, subject] of [['codeSendAddress', ctx.req.ip], ['codeSendEmail', email.toLowerCase()]] as const) {
      const state = await limiter.hit(name, subject);
      if (state.limited) return flowOutcome(await saveFlow(pool, flow, { nodes: emailNodes(email), messages: [M.rateLimited(state.retryAfter)] }), 429);
    }
    const internal = await sendVerificationCode(ctx, email, uiUrl(ctx.req, 'verification', flow.id));
    return flowOutcome(await saveFlow(pool, flow, { state: 'sent_email', nodes: codeNodes(email), messages: sentMessages(ctx), internal: { ...flow.internal, ...internal } }));
  }

  const state = readCodeState(flow.internal);
  const result = checkCode(state, code);
  if (!result.ok) {
    const messages = [result.reason === 'too_often' ? M.verificationTooOften : M.verificationCodeInvalid];
    if (result.reason === 'too_often' || result.reason === 'expired') {
      return flowOutcome(await saveFlow(pool, flow, { state: 'choose_method', nodes: emailNodes(state?.email), messages, internal: {} }), 400);
    }
    return flowOutcome(await saveFlow(pool, flow, { nodes: codeNodes(state?.email ?? email), messages, internal: { ...flow.internal, code: result.state } }), 400);
  }
  await markAddressVerified(pool, result.identityId, result.email);
  const next = flow.return_to ?? homeUrl(ctx);
  const nodes = [anchor('code', 'continue', next, M.continue)];
  return flowOutcome(await saveFlow(pool, flow, { state: 'passed_challenge', nodes, messages: [M.verified], internal: {} }));
}

export const verificationHandler: FlowKindHandler = { kind: 'verification', create, present, submit };
