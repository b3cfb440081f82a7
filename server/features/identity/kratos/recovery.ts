import { findByAddress, markAddressVerified } from '../identities';
import { createSession, revokeSession, PRIVILEGED_MAX_AGE_MS } from '../sessions';
import { checkReturnTo, clientOf, queryString, stringField, type Body } from './context';
import { alreadySignedIn, badRequest, locationChange } from './errors';
import { checkCode, CODE_LIFESPAN_MS, isEmail, newCode, readCodeState } from './codes';
import { createFlow, presentFlowBase, saveFlow, uiUrl, type FlowRow, type FlowType } from './flows';
import { currentSession, deliverSession, flowOutcome, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { createSettingsFlow } from './settings';
import { input, withFieldMessage, type UiNode, type UiText } from './ui';

function emailNodes(email?: string): UiNode[] {
  return [
    input('code', 'email', 'email', { required: true, autocomplete: 'email', label: M.email, ...(email ? { value: email } : {}) }),
    input('code', 'method', 'submit', { value: 'code', label: M.submit }),
  ];
}

function codeNodes(email: string): UiNode[] {
  return [
    input('code', 'code', 'text', { required: true, autocomplete: 'one-time-code', pattern: '[0-9]+', label: M.recoveryCode }),
    input('code', 'method', 'hidden', { value: 'code' }),
    input('code', 'method', 'submit', { value: 'code', label: M.submit }),
    input('code', 'email', 'submit', { value: email, label: M.resendCode }),
  ];
}

function sentMessages(ctx: FlowContext): UiText[] {
  return ctx.deps.mailer.delivers ? [M.recoveryCodeSent] : [M.recoveryCodeSent, M.mailNotConfigured];
}

/** Creates a recovery code for an address; mail goes out only when an account uses the address. */
export async function sendRecoveryCode(ctx: FlowContext, email: string, flowUrl: string, invited = false): Promise<{ internal: Record<string, unknown>; code: string | undefined }> {
  const found = await findByAddress(ctx.deps.pool, email);
  const { code, state } = newCode(found?.id ?? null, email);
  if (found) {
    await ctx.deps.mailer.send({
      to: email,
      subject: invited ? 'You are invited to Watchkeeper' : 'Recover your Watchkeeper account',
      text: invited
        ? `You have been invited to Watchkeeper. To choose your password, open ${flowUrl} and enter this code: ${code}\n\nThe code is valid for ${CODE_LIFESPAN_MS / 60000} minutes; after that, ask for a new one at the same page.\n`
        : `Your recovery code is ${code}\n\nEnter it at ${flowUrl} within ${CODE_LIFESPAN_MS / 60000} minutes.\n\nIf you did not ask for this, ignore this mail: nothing changes until the code is used.\n`,
    });
  }
  return { internal: { code: state }, code: found ? code : undefined };
}

/** A recovery flow that starts with a code already sent (an invitation). */
export async function startRecovery(ctx: FlowContext, email: string): Promise<{ flow: FlowRow; code: string | undefined }> {
  const flow = await createFlow(ctx.deps.pool, ctx.req, ctx.csrf, { kind: 'recovery', type: 'browser', state: 'sent_email' }, () => ({
    nodes: codeNodes(email),
    messages: sentMessages(ctx),
  }));
  const sent = await sendRecoveryCode(ctx, email, uiUrl(ctx.req, 'recovery', flow.id), true);
  return { flow: await saveFlow(ctx.deps.pool, flow, { internal: sent.internal }), code: sent.code };
}

async function create(ctx: FlowContext, type: FlowType): Promise<FlowRow> {
  if (ctx.auth.actor) throw alreadySignedIn();
  const returnTo = checkReturnTo(ctx.req, ctx.deps.config, queryString(ctx.req, 'return_to'));
  return createFlow(ctx.deps.pool, ctx.req, ctx.csrf, { kind: 'recovery', type, state: 'choose_method', ...(returnTo ? { returnTo } : {}) }, () => ({ nodes: emailNodes() }));
}

async function present(_ctx: FlowContext, flow: FlowRow): Promise<Record<string, unknown>> {
  return { ...presentFlowBase(flow), active: 'code' };
}

async function submit(ctx: FlowContext, flow: FlowRow, body: Body): Promise<Outcome> {
  const { pool, limiter } = ctx.deps;
  if (stringField(body, 'method') !== 'code') throw badRequest('recovery supports the method "code"');
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
    const sent = await sendRecoveryCode(ctx, email, uiUrl(ctx.req, 'recovery', flow.id));
    return flowOutcome(await saveFlow(pool, flow, { state: 'sent_email', nodes: codeNodes(email), messages: sentMessages(ctx), internal: sent.internal }));
  }

  const state = readCodeState(flow.internal);
  const result = checkCode(state, code);
  if (!result.ok) {
    const messages = [result.reason === 'too_often' ? M.recoveryTooOften : M.recoveryCodeInvalid];
    if (result.reason === 'too_often' || result.reason === 'expired') {
      return flowOutcome(await saveFlow(pool, flow, { state: 'choose_method', nodes: emailNodes(state?.email), messages, internal: {} }), 400);
    }
    return flowOutcome(await saveFlow(pool, flow, { nodes: codeNodes(state?.email ?? email), messages, internal: { ...flow.internal, code: result.state } }), 400);
  }

  // The code proves control of the address: sign in (a fresh, privileged session) and go to settings.
  await markAddressVerified(pool, result.identityId, result.email);
  const previous = await currentSession(ctx);
  if (previous) await revokeSession(pool, previous.id);
  const issued = await createSession(pool, result.identityId, { method: 'code_recovery', aal: 'aal1' }, clientOf(ctx.req));
  const token = deliverSession(ctx, flow, issued);
  const settings = await createSettingsFlow(
    { ...ctx, auth: { credential: { kind: 'session', token: issued.token, source: 'header' }, actor: undefined, pending: undefined } },
    flow.type,
    issued.session,
    flow.return_to ?? undefined,
    [M.recoverySuccess(PRIVILEGED_MAX_AGE_MS / 60000)],
  );
  const settingsUrl = uiUrl(ctx.req, 'settings', settings.id);
  const done = await saveFlow(pool, flow, { state: 'passed_challenge', nodes: [], internal: {} });
  if (flow.type === 'browser') throw locationChange(settingsUrl);
  return {
    type: 'done',
    status: 200,
    body: {
      ...presentFlowBase(done),
      active: 'code',
      continue_with: [
        ...(token.session_token ? [{ action: 'set_ory_session_token', ory_session_token: token.session_token }] : []),
        { action: 'show_settings_ui', flow: { id: settings.id, url: settingsUrl } },
      ],
    },
    redirectTo: settingsUrl,
  };
}

export const recoveryHandler: FlowKindHandler = { kind: 'recovery', create, present, submit };
