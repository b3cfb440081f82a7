import { isRole, type Role } from '../../../../common/rbac';
import { AppError } from '../../../platform/http/errors';
import { createIdentity, identityCount, loadIdentity } from '../identities';
import { hashPassword, passwordProblem } from '../passwords';
import { createSession } from '../sessions';
import { checkReturnTo, clientOf, queryString, stringField, type Body } from './context';
import { alreadySignedIn, badRequest, registrationDisabled } from './errors';
import { isEmail } from './codes';
import { createFlow, presentFlowBase, saveFlow, uiUrl, type FlowRow, type FlowType } from './flows';
import { deliverSession, flowOutcome, homeUrl, presentIssued, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { presentIdentity } from './presenters';
import { input, withFieldMessage, withValues, type UiNode, type UiText } from './ui';
import { startVerification } from './verification';

/** Settings in `properties` (the Feature Flags page): registration can be turned off, and its role chosen. */
export const REGISTRATION_DISABLE = 'auth.registration.disable';
export const REGISTRATION_DEFAULT_ROLE = 'auth.registration.default_role';
export const DEFAULT_ROLE: Role = 'viewer';

function nodes(): UiNode[] {
  return [
    input('default', 'traits.email', 'email', { required: true, autocomplete: 'email', label: M.email }),
    input('default', 'traits.name.first', 'text', { autocomplete: 'given-name', label: M.firstName }),
    input('default', 'traits.name.last', 'text', { autocomplete: 'family-name', label: M.lastName }),
    input('password', 'password', 'password', { required: true, autocomplete: 'new-password', label: M.password }),
    input('password', 'method', 'submit', { value: 'password', label: M.signUp }),
  ];
}

async function settings(ctx: FlowContext): Promise<{ disabled: boolean; role: Role }> {
  const { rows } = await ctx.deps.pool.query<{ name: string; value: string }>('SELECT name, value FROM properties WHERE name = ANY($1) AND organization_id IS NOT DISTINCT FROM current_organization()', [[REGISTRATION_DISABLE, REGISTRATION_DEFAULT_ROLE]]);
  const value = (name: string) => rows.find((row) => row.name === name)?.value.trim();
  const role = value(REGISTRATION_DEFAULT_ROLE);
  return { disabled: value(REGISTRATION_DISABLE)?.toLowerCase() === 'true', role: isRole(role) ? role : DEFAULT_ROLE };
}

/** The first account of an install can always be created; later ones only while registration is on. */
async function checkOpen(ctx: FlowContext): Promise<Role> {
  const current = await settings(ctx);
  if (current.disabled && (await identityCount(ctx.deps.pool)) > 0) throw registrationDisabled();
  return current.role;
}

async function create(ctx: FlowContext, type: FlowType): Promise<FlowRow> {
  if (ctx.auth.actor || ctx.auth.pending) throw alreadySignedIn();
  const returnTo = checkReturnTo(ctx.req, ctx.deps.config, queryString(ctx.req, 'return_to'));
  await checkOpen(ctx);
  const messages: UiText[] = (await identityCount(ctx.deps.pool)) === 0 ? [M.firstAccount] : [];
  return createFlow(ctx.deps.pool, ctx.req, ctx.csrf, { kind: 'registration', type, state: 'choose_method', ...(returnTo ? { returnTo } : {}) }, () => ({
    nodes: nodes(),
    messages,
  }));
}

async function present(_ctx: FlowContext, flow: FlowRow): Promise<Record<string, unknown>> {
  return { ...presentFlowBase(flow), organization_id: null };
}

async function submit(ctx: FlowContext, flow: FlowRow, body: Body): Promise<Outcome> {
  const { pool, limiter } = ctx.deps;
  if (stringField(body, 'method') !== 'password') throw badRequest('registration supports the method "password"');
  const role = await checkOpen(ctx);
  const email = (stringField(body, 'traits.email') ?? '').trim();
  const first = (stringField(body, 'traits.name.first') ?? '').trim();
  const last = (stringField(body, 'traits.name.last') ?? '').trim();
  const password = stringField(body, 'password') ?? '';
  const values = { 'traits.email': email, 'traits.name.first': first, 'traits.name.last': last };

  // Every problem at once, each on its field.
  let form = withValues(nodes(), values);
  let invalid = false;
  const mark = (name: string, message: UiText) => {
    form = withFieldMessage(form, name, message);
    invalid = true;
  };
  if (email === '') mark('traits.email', M.required('email'));
  else if (!isEmail(email)) mark('traits.email', M.invalidEmail(email));
  if (password === '') mark('password', M.required('password'));
  else {
    const problem = await passwordProblem(password, email);
    if (problem) mark('password', M.passwordPolicy(problem));
  }
  if (invalid) return flowOutcome(await saveFlow(pool, flow, { nodes: form }), 400);

  const limited = await limiter.hit('registrationAddress', ctx.req.ip);
  if (limited.limited) return flowOutcome(await saveFlow(pool, flow, { nodes: form, messages: [M.rateLimited(limited.retryAfter)] }), 429);

  let created: { id: string };
  try {
    created = await createIdentity(pool, { traits: { email, name: { first, last } }, passwordHash: await hashPassword(password), roles: [role], firstIsAdmin: true });
  } catch (error) {
    if (error instanceof AppError && error.code === 'conflict') return flowOutcome(await saveFlow(pool, flow, { nodes: form, messages: [M.duplicate] }), 400);
    throw error;
  }
  const issued = await createSession(pool, created.id, { method: 'password', aal: 'aal1' }, clientOf(ctx.req));
  const token = deliverSession(ctx, flow, issued);
  const verification = await startVerification(ctx, flow.type, email, flow.return_to ?? undefined);
  const identity = await loadIdentity(pool, created.id);
  await pool.query('DELETE FROM selfservice_flows WHERE id = $1', [flow.id]);
  const next = flow.return_to ?? homeUrl(ctx);
  return {
    type: 'done',
    status: 200,
    body: {
      ...(identity ? { identity: presentIdentity(ctx.req, identity) } : {}),
      session: await presentIssued(ctx, issued),
      ...token,
      continue_with: [
        ...(token.session_token ? [{ action: 'set_ory_session_token', ory_session_token: token.session_token }] : []),
        { action: 'show_verification_ui', flow: { id: verification.id, verifiable_address: email, url: uiUrl(ctx.req, 'verification', verification.id) } },
        { action: 'redirect_browser_to', redirect_browser_to: next },
      ],
    },
    redirectTo: next,
  };
}

export const registrationHandler: FlowKindHandler = { kind: 'registration', create, present, submit };
