import type { Queryable } from '../../platform/jobs/db';
import { newSessionToken, sha256 } from '../../platform/crypto';

/** How long a session lives, and how recent a sign-in must be for privileged changes (docs/AUTH.md). */
export const SESSION_LIFESPAN_MS = 7 * 24 * 60 * 60 * 1000;
export const PRIVILEGED_MAX_AGE_MS = 15 * 60 * 1000;

export type Aal = 'aal1' | 'aal2';

export interface AuthenticationMethod {
  method: string;
  aal: Aal;
  completed_at: string;
}

export interface SessionRow {
  id: string;
  identity_id: string;
  active: boolean;
  aal: Aal;
  authentication_methods: AuthenticationMethod[];
  authenticated_at: Date;
  issued_at: Date;
  expires_at: Date;
  ip_address: string | null;
  user_agent: string | null;
}

export interface Client {
  ip: string;
  userAgent: string | undefined;
}

export interface IssuedSession {
  session: SessionRow;
  /** The bearer secret: set as the cookie or handed to a native client, never stored. */
  token: string;
}

function method(name: string, aal: Aal): AuthenticationMethod {
  return { method: name, aal, completed_at: new Date().toISOString() };
}

export async function createSession(db: Queryable, identityId: string, via: { method: string; aal: Aal }, client: Client): Promise<IssuedSession> {
  const token = newSessionToken();
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO sessions (identity_id, token_hash, aal, authentication_methods, expires_at, ip_address, user_agent)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6, $7) RETURNING *`,
    [identityId, sha256(token), via.aal, JSON.stringify([method(via.method, via.aal)]), SESSION_LIFESPAN_MS / 1000, client.ip, client.userAgent ?? null],
  );
  const session = rows[0];
  if (!session) throw new Error('session insert returned no row');
  await db.query('UPDATE people SET last_login = now() WHERE id = $1', [identityId]);
  return { session, token };
}

/**
 * A completed authentication step on an existing session (a second factor, or a re-authentication):
 * the level rises when the step's does, authenticated_at moves to now, and the token is rotated so a
 * token captured before the privilege change is worthless after it.
 */
export async function stepUp(db: Queryable, sessionId: string, via: { method: string; aal: Aal }): Promise<IssuedSession> {
  const token = newSessionToken();
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET token_hash = $2,
        aal = CASE WHEN $3 = 'aal2' THEN 'aal2' ELSE aal END,
        authentication_methods = authentication_methods || $4::jsonb,
        authenticated_at = now()
      WHERE id = $1 AND active RETURNING *`,
    [sessionId, sha256(token), via.aal, JSON.stringify([method(via.method, via.aal)])],
  );
  const session = rows[0];
  if (!session) throw new Error('the session ended');
  return { session, token };
}

/** A new token for the same session (after a password change or 2FA enrolment). */
export async function rotate(db: Queryable, sessionId: string, raiseTo?: Aal): Promise<IssuedSession> {
  const token = newSessionToken();
  const { rows } = await db.query<SessionRow>(
    `UPDATE sessions SET token_hash = $2, aal = CASE WHEN $3::text = 'aal2' THEN 'aal2' ELSE aal END WHERE id = $1 AND active RETURNING *`,
    [sessionId, sha256(token), raiseTo ?? null],
  );
  const session = rows[0];
  if (!session) throw new Error('the session ended');
  return { session, token };
}

export async function sessionByToken(db: Queryable, token: string): Promise<SessionRow | undefined> {
  const { rows } = await db.query<SessionRow>('SELECT * FROM sessions WHERE token_hash = $1 AND active AND expires_at > now()', [sha256(token)]);
  return rows[0];
}

export async function revokeSession(db: Queryable, sessionId: string): Promise<void> {
  await db.query('UPDATE sessions SET active = false WHERE id = $1', [sessionId]);
}

export async function revokeByToken(db: Queryable, token: string): Promise<boolean> {
  const result = await db.query('UPDATE sessions SET active = false WHERE token_hash = $1 AND active', [sha256(token)]);
  return (result.rowCount ?? 0) > 0;
}

/** Ends every session of an identity, or every other one when `except` is given. */
export async function revokeAll(db: Queryable, identityId: string, except?: string): Promise<number> {
  const result = await db.query('UPDATE sessions SET active = false WHERE identity_id = $1 AND active AND ($2::uuid IS NULL OR id <> $2)', [identityId, except ?? null]);
  return result.rowCount ?? 0;
}

export function isPrivileged(session: SessionRow, now = Date.now()): boolean {
  return now - session.authenticated_at.getTime() <= PRIVILEGED_MAX_AGE_MS;
}

/** The logout token of a session: derived from its stored hash, so it needs no table and dies with the session. */
export function logoutToken(session: SessionRow & { token_hash?: string }, tokenHash: string): string {
  return sha256(`logout:${session.id}:${tokenHash}`);
}
