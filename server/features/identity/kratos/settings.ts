import { credentialConfigs, displayName, loadIdentity, removeCredential, saveCredential, setPassword, updateTraits, type IdentityWithAddresses } from '../identities';
import { newLookupCodes, parseStoredCodes, storeLookupCodes } from '../methods/lookup';
import { checkTotp, newTotpSecret, totpQrCode } from '../methods/totp';
import { parseCredentials, registrationOptions, relyingParty, verifyRegistration, type StoredCredential } from '../methods/webauthn';
import { hashPassword, passwordProblem } from '../passwords';
import { isPrivileged, revokeAll, rotate, type SessionRow } from '../sessions';
import { baseUrl, checkReturnTo, publicPath, queryString, stringField, truthyField, UI_PATHS, type Body } from './context';
import { aal2Required, badRequest, identityMismatch, noSession, refreshRequired } from './errors';
import { isEmail } from './codes';
import { createFlow, presentFlowBase, saveFlow, uiUrl, type FlowRow, type FlowType } from './flows';
import { currentSession, deliverSession, flowOutcome, type FlowContext, type FlowKindHandler, type Outcome } from './handler';
import { M } from './messages';
import { presentIdentity } from './presenters';
import { image, input, text, withFieldMessage, withValues, type UiNode, type UiText } from './ui';
import { startVerification } from './verification';

interface Built {
  nodes: UiNode[];
  internal: Record<string, unknown>;
}

function keyNodes(group: 'webauthn' | 'passkey', keys: StoredCredential[]): UiNode[] {
  return keys.map((key) =>
    input(group, `${group}_remove`, 'submit', {
      value: key.id,
      label: group === 'webauthn' ? M.removeSecurityKey(key.display_name, key.added_at) : M.removePasskey(key.display_name, key.added_at),
    }),
  );
}

/**
 * Every section of the settings page (spec §2 /profile-settings): profile, password, social sign-in,
 * backup codes, authenticator app, security keys and passkeys. New TOTP secrets and WebAuthn challenges
 * are kept in the flow, never trusted from the client.
 */
async function build(ctx: FlowContext, identity: IdentityWithAddresses, options: { pendingLookup?: string[]; totpSecret?: string } = {}): Promise<Built> {
  const { pendingLookup } = options;
  const configs = await credentialConfigs(ctx.deps.pool, identity.id);
  const internal: Record<string, unknown> = {};
  const nodes: UiNode[] = [
    input('profile', 'traits.email', 'email', { required: true, autocomplete: 'email', label: M.email, value: identity.traits.email }),
    input('profile', 'traits.name.first', 'text', { autocomplete: 'given-name', label: M.firstName, value: identity.traits.name.first }),
    input('profile', 'traits.name.last', 'text', { autocomplete: 'family-name', label: M.lastName, value: identity.traits.name.last }),
    input('profile', 'method', 'submit', { value: 'profile', label: M.save }),
    input('password', 'password', 'password', { required: true, autocomplete: 'new-password', label: M.password }),
    input('password', 'method', 'submit', { value: 'password', label: M.save }),
    text('oidc', 'oidc_providers', M.noSocialProviders),
  ];

  if (pendingLookup) {
    nodes.push(
      text('lookup_secret', 'lookup_secret_codes', M.lookupList(pendingLookup.map((code) => M.lookupSecret(code))), M.lookupListLabel),
      input('lookup_secret', 'lookup_secret_confirm', 'submit', { value: 'true', label: M.confirmLookup }),
    );
    internal.lookup_pending = pendingLookup;
  } else if (configs.has('lookup_secret')) {
    const stored = parseStoredCodes(configs.get('lookup_secret'));
    const left = stored.filter((code) => !code.used_at).length;
    nodes.push(
      text('lookup_secret', 'lookup_secret_status', M.generic(`${left} of ${stored.length} backup recovery codes are unused.`)),
      input('lookup_secret', 'lookup_secret_regenerate', 'submit', { value: 'true', label: M.regenerateLookup }),
      input('lookup_secret', 'lookup_secret_disable', 'submit', { value: 'true', label: M.disableLookup }),
    );
  } else {
    nodes.push(input('lookup_secret', 'lookup_secret_regenerate', 'submit', { value: 'true', label: M.regenerateLookup }));
  }

  if (configs.has('totp')) {
    nodes.push(input('totp', 'totp_unlink', 'submit', { value: 'true', label: M.unlinkTotp }));
  } else {
    const secret = options.totpSecret ?? newTotpSecret();
    internal.totp_secret = secret;
    nodes.push(
      image('totp', 'totp_qr', await totpQrCode(secret, identity.traits.email), 256, M.totpQr),
      text('totp', 'totp_secret_key', M.totpSecret(secret), M.totpSecretLabel),
      input('totp', 'totp_code', 'text', { required: true, autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: 6, label: M.totpLabel }),
      input('totp', 'method', 'submit', { value: 'totp', label: M.save }),
    );
  }

  const rp = relyingParty(baseUrl(ctx.req));
  const user = { id: identity.id, email: identity.traits.email, name: displayName(identity.traits) };
  const keys = parseCredentials(configs.get('webauthn'));
  const keyOptions = await registrationOptions(rp, user, keys, false);
  internal.webauthn_challenge = keyOptions.challenge;
  nodes.push(
    ...keyNodes('webauthn', keys),
    input('webauthn', 'webauthn_register_displayname', 'text', { label: M.securityKeyName }),
    input('webauthn', 'webauthn_register', 'hidden', { value: '' }),
    input('webauthn', 'webauthn_register_trigger', 'button', {
      value: '',
      onclickTrigger: 'oryWebAuthnRegistration',
      onclick: `window.oryWebAuthnRegistration(${JSON.stringify(keyOptions)})`,
      label: M.addSecurityKey,
    }),
  );

  const passkeys = parseCredentials(configs.get('passkey'));
  const passkeyOptions = await registrationOptions(rp, user, passkeys, true);
  internal.passkey_challenge = passkeyOptions.challenge;
  nodes.push(
    ...keyNodes('passkey', passkeys),
    input('passkey', 'passkey_create_data', 'hidden', { value: JSON.stringify(passkeyOptions) }),
    input('passkey', 'passkey_settings_register', 'hidden', { value: '' }),
    input('passkey', 'passkey_create_trigger', 'button', { value: '', onclickTrigger: 'oryPasskeySettingsRegistration', label: M.addPasskey }),
  );
  return { nodes, internal };
}

/** Needs a session that may act (its second factor done, when there is one). */
async function sessionFor(ctx: FlowContext, returnTo: string): Promise<SessionRow> {
  if (ctx.auth.pending) throw aal2Required(`${publicPath(ctx.req, UI_PATHS.login)}?aal=aal2&return_to=${encodeURIComponent(returnTo)}`);
  const session = ctx.auth.actor?.session ? await currentSession(ctx) : undefined;
  if (!session) throw noSession();
  return session;
}

export async function createSettingsFlow(ctx: FlowContext, type: FlowType, session: SessionRow, returnTo: string | undefined, messages: UiText[] = []): Promise<FlowRow> {
  const identity = await loadIdentity(ctx.deps.pool, session.identity_id);
  if (!identity) throw noSession();
  const built = await build(ctx, identity);
  return createFlow(
    ctx.deps.pool,
    ctx.req,
    ctx.csrf,
    { kind: 'settings', type, state: 'show_form', identityId: identity.id, sessionId: session.id, ...(returnTo ? { returnTo } : {}), internal: built.internal },
    () => ({ nodes: built.nodes, messages }),
  );
}

async function create(ctx: FlowContext, type: FlowType): Promise<FlowRow> {
  const returnTo = checkReturnTo(ctx.req, ctx.deps.config, queryString(ctx.req, 'return_to'));
  const session = await sessionFor(ctx, `${publicPath(ctx.req, UI_PATHS.settings)}${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
  return createSettingsFlow(ctx, type, session, returnTo);
}

async function present(ctx: FlowContext, flow: FlowRow): Promise<Record<string, unknown>> {
  const identity = flow.identity_id ? await loadIdentity(ctx.deps.pool, flow.identity_id) : undefined;
  return { ...presentFlowBase(flow), ...(identity ? { identity: presentIdentity(ctx.req, identity) } : {}) };
}

const PRIVILEGED_METHODS = new Set(['password', 'totp', 'lookup_secret', 'webauthn', 'passkey']);

async function submit(ctx: FlowContext, flow: FlowRow, body: Body): Promise<Outcome> {
  const { pool } = ctx.deps;
  const session = await sessionFor(ctx, uiUrl(ctx.req, 'settings', flow.id));
  if (session.identity_id !== flow.identity_id) throw identityMismatch();
  const identity = await loadIdentity(pool, session.identity_id);
  if (!identity) throw noSession();
  const method = stringField(body, 'method') ?? inferMethod(body);

  const email = (stringField(body, 'traits.email') ?? identity.traits.email).trim();
  const emailChanges = method === 'profile' && email.toLowerCase() !== identity.traits.email.toLowerCase();
  if ((method !== undefined && PRIVILEGED_METHODS.has(method)) || emailChanges) {
    if (!isPrivileged(session)) {
      throw refreshRequired(`${publicPath(ctx.req, UI_PATHS.login)}?refresh=true&return_to=${encodeURIComponent(uiUrl(ctx.req, 'settings', flow.id))}`);
    }
  }

  /** Re-renders with an error on one field (or the whole form), keeping typed values. */
  const fail = async (field: string | undefined, message: UiText, values: Record<string, unknown> = {}, keep: Record<string, unknown> = {}): Promise<Outcome> => {
    const built = await build(ctx, identity);
    let nodes = withValues(built.nodes, values);
    if (field) nodes = withFieldMessage(nodes, field, message);
    const internal = { ...built.internal, ...keep };
    return flowOutcome(await saveFlow(pool, flow, { state: 'show_form', nodes, ...(field ? {} : { messages: [message] }), internal }), 400);
  };
  /** Saved: a fresh form (new challenges), the success message, and a rotated session when privileges changed. */
  const saved = async (options: { rotate?: boolean; raiseTo?: 'aal2'; pendingLookup?: string[]; extra?: UiText[] } = {}): Promise<Outcome> => {
    if (options.rotate || options.raiseTo) deliverSession(ctx, flow, await rotate(pool, session.id, options.raiseTo));
    const fresh = await loadIdentity(pool, identity.id);
    const built = await build(ctx, fresh ?? identity, options.pendingLookup ? { pendingLookup: options.pendingLookup } : {});
    const messages = options.pendingLookup ? [] : [M.saved, ...(options.extra ?? [])];
    return flowOutcome(await saveFlow(pool, flow, { state: options.pendingLookup ? 'show_form' : 'success', nodes: built.nodes, messages, internal: built.internal }));
  };

  switch (method) {
    case 'profile': {
      const first = (stringField(body, 'traits.name.first') ?? '').trim();
      const last = (stringField(body, 'traits.name.last') ?? '').trim();
      const values = { 'traits.email': email, 'traits.name.first': first, 'traits.name.last': last };
      if (email === '') return fail('traits.email', M.required('email'), values);
      if (!isEmail(email)) return fail('traits.email', M.invalidEmail(email), values);
      const result = await updateTraits(pool, identity.id, { email, name: { first, last } }).catch((error: unknown) => error);
      if (result instanceof Error) {
        if ('code' in result && result.code === 'conflict') return fail('traits.email', M.duplicate, values);
        throw result;
      }
      if (result && typeof result === 'object' && 'emailChanged' in result && result.emailChanged) {
        await startVerification(ctx, flow.type, email, flow.return_to ?? undefined);
        return saved({ extra: [M.verificationCodeSent] });
      }
      return saved();
    }
    case 'password': {
      const password = stringField(body, 'password') ?? '';
      if (password === '') return fail('password', M.required('password'));
      const problem = await passwordProblem(password, identity.traits.email);
      if (problem) return fail('password', M.passwordPolicy(problem));
      await setPassword(pool, identity.id, await hashPassword(password));
      // A new password ends every other session, and this one gets a new token.
      await revokeAll(pool, identity.id, session.id);
      return saved({ rotate: true });
    }
    case 'totp': {
      const configs = await credentialConfigs(pool, identity.id);
      if (truthyField(body, 'totp_unlink')) {
        await removeCredential(pool, identity.id, 'totp');
        return saved();
      }
      if (configs.has('totp')) return fail(undefined, M.generic('An authenticator app is set up already; unlink it first.'));
      const secret = flow.internal.totp_secret;
      if (typeof secret !== 'string') return fail(undefined, M.generic('Reload the page to get a new QR code.'));
      const step = await checkTotp(secret, stringField(body, 'totp_code') ?? '');
      if (step === undefined) {
        // Keep the QR code the person scanned: only the code was wrong.
        const built = await build(ctx, identity, { totpSecret: secret });
        return flowOutcome(await saveFlow(pool, flow, { state: 'show_form', nodes: withFieldMessage(built.nodes, 'totp_code', M.totpWrong), internal: built.internal }), 400);
      }
      await saveCredential(pool, identity.id, 'totp', { secret, last_step: step });
      return saved({ raiseTo: 'aal2' });
    }
    case 'lookup_secret': {
      if (truthyField(body, 'lookup_secret_regenerate')) return saved({ pendingLookup: newLookupCodes() });
      if (truthyField(body, 'lookup_secret_confirm')) {
        const pending = flow.internal.lookup_pending;
        if (!Array.isArray(pending) || pending.length === 0) return fail(undefined, M.generic('Generate new backup recovery codes first.'));
        await saveCredential(pool, identity.id, 'lookup_secret', { codes: storeLookupCodes(pending.map(String)) });
        return saved({ raiseTo: 'aal2' });
      }
      if (truthyField(body, 'lookup_secret_disable')) {
        await removeCredential(pool, identity.id, 'lookup_secret');
        return saved();
      }
      if (truthyField(body, 'lookup_secret_reveal')) {
        return fail(undefined, M.generic('Backup recovery codes are stored only as hashes and cannot be shown again; generate new ones instead.'));
      }
      throw badRequest('lookup_secret needs lookup_secret_regenerate, lookup_secret_confirm or lookup_secret_disable');
    }
    case 'webauthn':
    case 'passkey': {
      const type = method;
      const configs = await credentialConfigs(pool, identity.id);
      const keys = parseCredentials(configs.get(type));
      const removeId = stringField(body, `${type}_remove`);
      if (removeId) {
        const left = keys.filter((key) => key.id !== removeId);
        if (left.length === keys.length) return fail(undefined, M.generic('That key is not registered to this account.'));
        if (left.length === 0) await removeCredential(pool, identity.id, type);
        else await saveCredential(pool, identity.id, type, { credentials: left });
        return saved();
      }
      const submitted = type === 'webauthn' ? body.webauthn_register : body.passkey_settings_register;
      const challenge = flow.internal[`${type}_challenge`];
      const name = stringField(body, 'webauthn_register_displayname') ?? '';
      const credential = typeof challenge === 'string' ? await verifyRegistration(relyingParty(baseUrl(ctx.req)), challenge, submitted, name, type === 'passkey') : undefined;
      if (!credential) return fail(undefined, type === 'webauthn' ? M.securityKeyInvalid : M.passkeyInvalid);
      await saveCredential(pool, identity.id, type, { credentials: [...keys, credential] });
      return saved(type === 'webauthn' ? { raiseTo: 'aal2' } : {});
    }
    default:
      throw badRequest(`unknown or missing method ${JSON.stringify(method ?? '')}: use profile, password, totp, lookup_secret, webauthn or passkey`);
  }
}

/** Kratos clients may omit `method` on buttons that name their action. */
function inferMethod(body: Body): string | undefined {
  if (['lookup_secret_regenerate', 'lookup_secret_confirm', 'lookup_secret_disable', 'lookup_secret_reveal'].some((key) => body[key] !== undefined)) return 'lookup_secret';
  if (body.totp_unlink !== undefined || body.totp_code !== undefined) return 'totp';
  if (body.webauthn_remove !== undefined || body.webauthn_register !== undefined) return 'webauthn';
  if (body.passkey_remove !== undefined || body.passkey_settings_register !== undefined) return 'passkey';
  return undefined;
}

export const settingsHandler: FlowKindHandler = { kind: 'settings', create, present, submit };
