import { findByAddress, markAddressVerified } from '../identities';
import { createSession, revokeSession, PRIVILEGED_MAX_AGE_MS } from '../sessions';
import { checkReturnTo, clientOf, queryString, type Body } from './context';
import { alreadySignedIn, locationChange } from './errors';
import { CODE_LIFESPAN_MS, newCode } from './codes';
import { codeNodes, emailNodes, isOutcome, sentMessages, submitCode, type CodeMethod } from './code-method';
import { createFlow, presentFlowBase, saveFlow, uiUrl, type FlowRow, type FlowType } from './flows';
import { currentSession, deliverSession, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { createSettingsFlow } from './settings';

export const RECOVERY_CODE: CodeMethod = {
  kind: 'recovery',
  codeLabel: M.recoveryCode,
  sent: M.recoveryCodeSent,
  invalid: M.recoveryCodeInvalid,
  tooOften: M.recoveryTooOften,
  send: async (ctx, email, flowUrl) => (await sendRecoveryCode(ctx, email, flowUrl)).internal,
};

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
    nodes: codeNodes(RECOVERY_CODE, email),
    messages: sentMessages(ctx, RECOVERY_CODE),
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
  const { pool } = ctx.deps;
  const result = await submitCode(ctx, flow, body, RECOVERY_CODE);
  if (isOutcome(result)) return result;

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
