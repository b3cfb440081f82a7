import { loadIdentity, credentialConfigs, findByPasswordIdentifier, identityCount, saveCredential, SECOND_FACTORS, type CredentialType } from '../identities';
import { parseStoredCodes, useLookupCode } from '../methods/lookup';
import { checkTotp } from '../methods/totp';
import { assertionIds, authenticationOptions, parseCredentials, relyingParty, verifyAssertion } from '../methods/webauthn';
import { verifyDecoy, verifyPassword } from '../passwords';
import { createSession, revokeSession, stepUp, type IssuedSession } from '../sessions';
import { baseUrl, checkReturnTo, clientOf, publicPath, queryFlag, queryString, stringField, UI_PATHS, type Body } from './context';
import { alreadySignedIn, badRequest, identityMismatch, noSession } from './errors';
import { createFlow, presentFlowBase, saveFlow, type FlowRow, type FlowType } from './flows';
import { currentSession, deliverSession, flowOutcome, homeUrl, presentIssued, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { input, withValues, type UiNode, type UiText } from './ui';

function firstFactorNodes(identifier: string | undefined, passkeyChallenge: string | undefined): UiNode[] {
  const nodes: UiNode[] = [
    input('default', 'identifier', 'text', { required: true, autocomplete: 'username webauthn', label: M.email, ...(identifier ? { value: identifier } : {}) }),
    input('password', 'password', 'password', { required: true, autocomplete: 'current-password', label: M.password }),
    input('password', 'method', 'submit', { value: 'password', label: M.signIn }),
  ];
  if (passkeyChallenge) {
    nodes.push(
      input('passkey', 'passkey_challenge', 'hidden', { value: passkeyChallenge }),
      input('passkey', 'passkey_login', 'hidden', { value: '' }),
      input('passkey', 'passkey_login_trigger', 'button', { value: '', onclickTrigger: 'oryPasskeyLogin', label: M.signInWithPasskey }),
    );
  }
  return nodes;
}

function refreshNodes(email: string): UiNode[] {
  return [
    input('default', 'identifier', 'hidden', { value: email, required: true }),
    input('password', 'password', 'password', { required: true, autocomplete: 'current-password', label: M.password }),
    input('password', 'method', 'submit', { value: 'password', label: M.signIn }),
  ];
}

function secondFactorNodes(types: Set<CredentialType>, webauthnOptions: string | undefined): UiNode[] {
  const nodes: UiNode[] = [];
  if (types.has('totp')) {
    nodes.push(
      input('totp', 'totp_code', 'text', { required: true, autocomplete: 'one-time-code', label: M.totpLabel, pattern: '[0-9]{6}', maxlength: 6 }),
      input('totp', 'method', 'submit', { value: 'totp', label: M.useAuthenticator }),
    );
  }
  if (types.has('webauthn') && webauthnOptions) {
    nodes.push(
      input('webauthn', 'webauthn_login', 'hidden', { value: '' }),
      input('webauthn', 'webauthn_login_trigger', 'button', {
        value: '',
        onclickTrigger: 'oryWebAuthnLogin',
        onclick: `window.oryWebAuthnLogin(${webauthnOptions})`,
        label: M.useSecurityKey,
      }),
    );
  }
  if (types.has('lookup_secret')) {
    nodes.push(
      input('lookup_secret', 'lookup_secret', 'text', { required: true, autocomplete: 'off', label: M.lookupLabel }),
      input('lookup_secret', 'method', 'submit', { value: 'lookup_secret', label: M.useLookup }),
    );
  }
  return nodes;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function hasSecondFactorIn(configs: Map<CredentialType, unknown>): boolean {
  return SECOND_FACTORS.some((type) => configs.has(type));
}

async function anyPasskeys(ctx: FlowContext): Promise<boolean> {
  const { rows } = await ctx.deps.pool.query<{ yes: boolean }>("SELECT EXISTS (SELECT 1 FROM identity_credentials WHERE type = 'passkey') AS yes");
  return rows[0]?.yes ?? false;
}

/** Builds the nodes for a flow's current purpose, keeping fresh WebAuthn challenges in its internal state. */
async function buildNodes(ctx: FlowContext, flow: { requested_aal: string | null; refresh: boolean; identity_id: string | null }, identifier?: string) {
  const rp = relyingParty(baseUrl(ctx.req));
  const internal: Record<string, unknown> = {};
  let nodes: UiNode[];
  const messages: UiText[] = [];
  if (flow.requested_aal === 'aal2' && flow.identity_id) {
    const configs = await credentialConfigs(ctx.deps.pool, flow.identity_id);
    let webauthnOptions: string | undefined;
    const keys = parseCredentials(configs.get('webauthn'));
    if (keys.length > 0) {
      const options = await authenticationOptions(rp, keys, false);
      internal.webauthn_challenge = options.challenge;
      webauthnOptions = JSON.stringify(options);
    }
    nodes = secondFactorNodes(new Set(configs.keys()), webauthnOptions);
    messages.push(M.secondFactor);
  } else if (flow.refresh && flow.identity_id) {
    const identity = await loadIdentity(ctx.deps.pool, flow.identity_id);
    nodes = refreshNodes(identity?.traits.email ?? '');
    messages.push(M.reauthenticate);
  } else {
    let challenge: string | undefined;
    if (await anyPasskeys(ctx)) {
      const options = await authenticationOptions(rp, undefined, true);
      internal.passkey_challenge = options.challenge;
      challenge = JSON.stringify(options);
    }
    nodes = firstFactorNodes(identifier, challenge);
    if ((await identityCount(ctx.deps.pool)) === 0) messages.push(M.firstAccount);
  }
  return { nodes, messages, internal };
}

async function create(ctx: FlowContext, type: FlowType): Promise<FlowRow> {
  const returnTo = checkReturnTo(ctx.req, ctx.deps.config, queryString(ctx.req, 'return_to'));
  let refresh = queryFlag(ctx.req, 'refresh');
  let aal = queryString(ctx.req, 'aal') === 'aal2' ? 'aal2' : 'aal1';
  const session = await currentSession(ctx);
  if (!session) {
    // Nothing to refresh or raise: an ordinary sign-in.
    refresh = false;
    aal = 'aal1';
  } else if (aal === 'aal2' && session.aal === 'aal2' && !refresh) {
    throw alreadySignedIn();
  } else if (aal === 'aal1' && !refresh) {
    if (ctx.auth.pending) aal = 'aal2';
    else throw alreadySignedIn();
  }
  if (aal === 'aal2') refresh = false;
  const base = { requested_aal: aal, refresh, identity_id: session?.identity_id ?? null };
  const built = await buildNodes(ctx, base, queryString(ctx.req, 'username') ?? queryString(ctx.req, 'identifier'));
  return createFlow(
    ctx.deps.pool,
    ctx.req,
    ctx.csrf,
    {
      kind: 'login',
      type,
      state: 'choose_method',
      ...(session ? { identityId: session.identity_id, sessionId: session.id } : {}),
      ...(returnTo ? { returnTo } : {}),
      requestedAal: aal,
      refresh,
      internal: built.internal,
    },
    () => ({ nodes: built.nodes, messages: built.messages }),
  );
}

async function present(_ctx: FlowContext, flow: FlowRow): Promise<Record<string, unknown>> {
  return { ...presentFlowBase(flow), refresh: flow.refresh, requested_aal: flow.requested_aal ?? 'aal1', organization_id: null };
}

/** Re-renders the form with an error, keeping what the person typed. */
async function fail(ctx: FlowContext, flow: FlowRow, message: UiText, values: Record<string, unknown>, status = 400): Promise<Outcome> {
  const built = await buildNodes(ctx, flow, typeof values.identifier === 'string' ? values.identifier : undefined);
  const saved = await saveFlow(ctx.deps.pool, flow, { nodes: withValues(built.nodes, values), messages: [message], internal: { ...flow.internal, ...built.internal } });
  return flowOutcome(saved, status);
}

async function succeed(ctx: FlowContext, flow: FlowRow, issued: IssuedSession, needsSecondFactor: boolean): Promise<Outcome> {
  const token = deliverSession(ctx, flow, issued);
  const returnTo = flow.return_to ?? homeUrl(ctx);
  // A second factor is set up: the browser goes on to the aal2 step before anything else.
  const next = needsSecondFactor ? `${publicPath(ctx.req, UI_PATHS.login)}?aal=aal2&return_to=${encodeURIComponent(returnTo)}` : returnTo;
  await ctx.deps.pool.query('DELETE FROM selfservice_flows WHERE id = $1', [flow.id]);
  return {
    type: 'done',
    status: 200,
    body: {
      session: await presentIssued(ctx, issued),
      ...token,
      continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: next }],
    },
    redirectTo: next,
  };
}

async function secondFactorSession(ctx: FlowContext, flow: FlowRow) {
  const session = await currentSession(ctx);
  if (!session) throw noSession();
  if (session.identity_id !== flow.identity_id) throw identityMismatch();
  return session;
}

async function submit(ctx: FlowContext, flow: FlowRow, body: Body): Promise<Outcome> {
  const { pool, limiter } = ctx.deps;
  const method = stringField(body, 'method');
  const ip = ctx.req.ip;

  if (method === 'password') {
    const identifier = (stringField(body, 'identifier') ?? '').trim();
    const password = stringField(body, 'password') ?? '';
    const values = { identifier };
    if (!identifier || !password) return fail(ctx, flow, M.required(!identifier ? 'identifier' : 'password'), values);
    for (const check of [limiter.check('loginIdentifier', identifier.toLowerCase()), limiter.check('loginAddress', ip)]) {
      const state = await check;
      if (state.limited) return fail(ctx, flow, M.rateLimited(state.retryAfter), values, 429);
    }
    const found = await findByPasswordIdentifier(pool, identifier);
    const ok = found ? await verifyPassword(found.hash, password) : (await verifyDecoy(password), false);
    if (!found || !ok) {
      await limiter.hit('loginIdentifier', identifier.toLowerCase());
      await limiter.hit('loginAddress', ip);
      return fail(ctx, flow, M.invalidCredentials, values);
    }
    await limiter.reset('loginIdentifier', identifier.toLowerCase());
    if (flow.refresh) {
      const session = await currentSession(ctx);
      if (!session) throw noSession();
      if (session.identity_id !== found.id) throw identityMismatch();
      return succeed(ctx, flow, await stepUp(pool, session.id, { method: 'password', aal: 'aal1' }), false);
    }
    const previous = await currentSession(ctx);
    if (previous) await revokeSession(pool, previous.id);
    const issued = await createSession(pool, found.id, { method: 'password', aal: 'aal1' }, clientOf(ctx.req));
    const configs = await credentialConfigs(pool, found.id);
    return succeed(ctx, flow, issued, hasSecondFactorIn(configs));
  }

  if (method === 'totp' || method === 'lookup_secret' || method === 'webauthn') {
    const session = await secondFactorSession(ctx, flow);
    const identityId = session.identity_id;
    const limited = await limiter.check('loginIdentifier', identityId);
    if (limited.limited) return fail(ctx, flow, M.rateLimited(limited.retryAfter), {}, 429);
    const configs = await credentialConfigs(pool, identityId);
    if (method === 'totp') {
      const config = configs.get('totp');
      const secret = typeof config?.secret === 'string' ? config.secret : undefined;
      if (!secret) return fail(ctx, flow, M.noTotp, {});
      const step = await checkTotp(secret, stringField(body, 'totp_code') ?? '', typeof config?.last_step === 'number' ? config.last_step : undefined);
      if (step === undefined) {
        await limiter.hit('loginIdentifier', identityId);
        return fail(ctx, flow, M.totpWrong, {});
      }
      await saveCredential(pool, identityId, 'totp', { ...config, last_step: step });
    } else if (method === 'lookup_secret') {
      const stored = parseStoredCodes(configs.get('lookup_secret'));
      if (stored.length === 0) return fail(ctx, flow, M.noLookup, {});
      const result = useLookupCode(stored, stringField(body, 'lookup_secret') ?? '');
      if (!result.ok) {
        await limiter.hit('loginIdentifier', identityId);
        return fail(ctx, flow, result.reason === 'used' ? M.lookupUsedAlready : M.lookupInvalid, {});
      }
      await saveCredential(pool, identityId, 'lookup_secret', { codes: result.codes });
    } else {
      const keys = parseCredentials(configs.get('webauthn'));
      const challenge = flow.internal.webauthn_challenge;
      if (keys.length === 0) return fail(ctx, flow, M.noSecurityKey, {});
      const used = typeof challenge === 'string' ? await verifyAssertion(relyingParty(baseUrl(ctx.req)), challenge, body.webauthn_login, keys, false) : undefined;
      if (!used) {
        await limiter.hit('loginIdentifier', identityId);
        return fail(ctx, flow, M.securityKeyInvalid, {});
      }
      await saveCredential(pool, identityId, 'webauthn', { credentials: keys.map((key) => (key.id === used.id ? used : key)) });
    }
    await limiter.reset('loginIdentifier', identityId);
    return succeed(ctx, flow, await stepUp(pool, session.id, { method, aal: 'aal2' }), false);
  }

  if (method === 'passkey') {
    const submitted = body.passkey_login;
    const ids = assertionIds(submitted);
    const challenge = flow.internal.passkey_challenge;
    if (!ids?.userHandle || !UUID.test(ids.userHandle) || typeof challenge !== 'string') return fail(ctx, flow, M.passkeyInvalid, {});
    const configs = await credentialConfigs(pool, ids.userHandle);
    const passkeys = parseCredentials(configs.get('passkey'));
    const used = passkeys.length > 0 ? await verifyAssertion(relyingParty(baseUrl(ctx.req)), challenge, submitted, passkeys, true) : undefined;
    if (!used) {
      await limiter.hit('loginAddress', ip);
      return fail(ctx, flow, M.passkeyInvalid, {});
    }
    await saveCredential(pool, ids.userHandle, 'passkey', { credentials: passkeys.map((key) => (key.id === used.id ? used : key)) });
    const previous = await currentSession(ctx);
    if (previous) await revokeSession(pool, previous.id);
    const issued = await createSession(pool, ids.userHandle, { method: 'passkey', aal: 'aal1' }, clientOf(ctx.req));
    return succeed(ctx, flow, issued, hasSecondFactorIn(configs));
  }

  throw badRequest(`unknown or missing method ${JSON.stringify(method ?? '')}: use password, totp, lookup_secret, webauthn or passkey`);
}

export const loginHandler: FlowKindHandler = { kind: 'login', create, present, submit };
