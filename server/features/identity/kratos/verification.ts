import { findByAddress, markAddressSent, markAddressVerified } from '../identities';
import { checkReturnTo, queryString, type Body } from './context';
import { CODE_LIFESPAN_MS, newCode } from './codes';
import { codeNodes, emailNodes, isOutcome, sentMessages, submitCode, type CodeMethod } from './code-method';
import { createFlow, presentFlowBase, saveFlow, uiUrl, type FlowRow, type FlowType } from './flows';
import { flowOutcome, homeUrl, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { anchor } from './ui';

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

const VERIFICATION_CODE: CodeMethod = {
  kind: 'verification',
  codeLabel: M.verifyCode,
  sent: M.verificationCodeSent,
  invalid: M.verificationCodeInvalid,
  tooOften: M.verificationTooOften,
  send: sendVerificationCode,
};

/** A verification flow that starts with the code already sent (after registration or an email change). */
export async function startVerification(ctx: FlowContext, type: FlowType, email: string, returnTo: string | undefined): Promise<FlowRow> {
  const flow = await createFlow(ctx.deps.pool, ctx.req, ctx.csrf, { kind: 'verification', type, state: 'sent_email', ...(returnTo ? { returnTo } : {}) }, () => ({
    nodes: codeNodes(VERIFICATION_CODE, email),
    messages: sentMessages(ctx, VERIFICATION_CODE),
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
  const { pool } = ctx.deps;
  const result = await submitCode(ctx, flow, body, VERIFICATION_CODE);
  if (isOutcome(result)) return result;
  await markAddressVerified(pool, result.identityId, result.email);
  const next = flow.return_to ?? homeUrl(ctx);
  const nodes = [anchor('code', 'continue', next, M.continue)];
  return flowOutcome(await saveFlow(pool, flow, { state: 'passed_challenge', nodes, messages: [M.verified], internal: {} }));
}

export const verificationHandler: FlowKindHandler = { kind: 'verification', create, present, submit };
