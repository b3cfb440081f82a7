import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isRecord } from '../../../platform/errors';

/**
 * Security keys (group webauthn, a second factor) and passkeys (group passkey, a first factor that signs
 * in without a password). Both are WebAuthn credentials bound to this server's host name (the relying
 * party id); the browser only offers them on that host.
 */
export interface StoredCredential {
  id: string;
  public_key: string;
  counter: number;
  transports: string[];
  display_name: string;
  added_at: string;
}

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(origin: string): RelyingParty {
  return { id: new URL(origin).hostname, origin, name: 'Watchkeeper' };
}

export function parseCredentials(config: Record<string, unknown> | undefined): StoredCredential[] {
  const list = config?.credentials;
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).flatMap((item) =>
    typeof item.id === 'string' && typeof item.public_key === 'string'
      ? [
          {
            id: item.id,
            public_key: item.public_key,
            counter: typeof item.counter === 'number' ? item.counter : 0,
            transports: Array.isArray(item.transports) ? item.transports.filter((t): t is string => typeof t === 'string') : [],
            display_name: typeof item.display_name === 'string' ? item.display_name : 'Security key',
            added_at: typeof item.added_at === 'string' ? item.added_at : new Date(0).toISOString(),
          },
        ]
      : [],
  );
}

export async function registrationOptions(rp: RelyingParty, user: { id: string; email: string; name: string }, existing: StoredCredential[], passkey: boolean) {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({ id: credential.id, transports: credential.transports })),
    authenticatorSelection: passkey ? { residentKey: 'required', userVerification: 'required' } : { residentKey: 'discouraged', userVerification: 'discouraged' },
  });
}

export function parseJsonField(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'string' || value === '') return isRecord(value) ? value : undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isRegistrationResponse(value: Record<string, unknown>): value is Record<string, unknown> & RegistrationResponseJSON {
  return typeof value.id === 'string' && typeof value.rawId === 'string' && isRecord(value.response) && typeof value.response.attestationObject === 'string';
}

function isAuthenticationResponse(value: Record<string, unknown>): value is Record<string, unknown> & AuthenticationResponseJSON {
  return typeof value.id === 'string' && typeof value.rawId === 'string' && isRecord(value.response) && typeof value.response.signature === 'string';
}

/** Verifies a new credential against the challenge this flow issued; answers it ready to store, or undefined. */
export async function verifyRegistration(rp: RelyingParty, challenge: string, submitted: unknown, displayName: string, passkey: boolean): Promise<StoredCredential | undefined> {
  const response = parseJsonField(submitted);
  if (!response || !isRegistrationResponse(response)) return undefined;
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: passkey,
    });
    if (!result.verified) return undefined;
    const credential = result.registrationInfo.credential;
    return {
      id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      display_name: displayName.trim() || (passkey ? 'Passkey' : 'Security key'),
      added_at: new Date().toISOString(),
    };
  } catch {
    return undefined;
  }
}

export async function authenticationOptions(rp: RelyingParty, allowed: StoredCredential[] | undefined, passkey: boolean) {
  return generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: passkey ? 'required' : 'discouraged',
    ...(allowed ? { allowCredentials: allowed.map((credential) => ({ id: credential.id, transports: credential.transports })) } : {}),
  });
}

/** The credential id and user handle a submitted assertion names, before it is verified. */
export function assertionIds(submitted: unknown): { credentialId: string; userHandle: string | undefined } | undefined {
  const response = parseJsonField(submitted);
  if (!response || !isAuthenticationResponse(response)) return undefined;
  const handle = response.response.userHandle;
  return { credentialId: response.id, userHandle: typeof handle === 'string' ? Buffer.from(handle, 'base64url').toString('utf8') : undefined };
}

/** Verifies an assertion made with one of `credentials`; answers the used credential with its new counter. */
export async function verifyAssertion(rp: RelyingParty, challenge: string, submitted: unknown, credentials: StoredCredential[], passkey: boolean): Promise<StoredCredential | undefined> {
  const response = parseJsonField(submitted);
  if (!response || !isAuthenticationResponse(response)) return undefined;
  const stored = credentials.find((credential) => credential.id === response.id);
  if (!stored) return undefined;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: passkey,
      credential: { id: stored.id, publicKey: Buffer.from(stored.public_key, 'base64url'), counter: stored.counter, transports: stored.transports },
    });
    return result.verified ? { ...stored, counter: result.authenticationInfo.newCounter } : undefined;
  } catch {
    return undefined;
  }
}
