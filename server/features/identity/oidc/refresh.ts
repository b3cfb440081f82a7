import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { AppError } from '../../../platform/http/errors';
import { inTransaction } from '../../../platform/jobs/db';
import { processKeyring } from '../../../platform/secrets';
import { organizationsOf, syncOrganizations } from './people';
import { OidcError, REFRESH_REFUSED, type OidcProvider } from './provider';

/**
 * The organization claim read again with the session's refresh token (docs/HOSTED.md "Sessions, refresh
 * and sign-out"), so a membership granted or removed at the provider shows without a new sign-in: now
 * (POST /api/auth/oidc/refresh) or in the background when whoami finds the claim older than 15 minutes.
 *
 * When the claim was last read is kept in memory per session (oidc_sessions has no column for it and this
 * part adds no migration): a bounded map, seeded from oidc_sessions.created_at (the sign-in's read). After
 * a restart, or on another instance, a session is refreshed at most once more than needed.
 */

/** How old the claim may be before whoami has it read again. */
export const CLAIM_MAX_AGE_MS = 15 * 60 * 1000;
/** Sessions whose last read is remembered; the oldest entry goes first. */
const REMEMBERED_SESSIONS = 10_000;

export const NO_REFRESH_TOKEN = 'the sign-in provider gave this session no refresh token: sign in again (ask for the offline_access scope)';
export const NOT_OIDC_SESSION = 'this session was not started through the sign-in provider, so it has no refresh token: sign in again';

interface StoredSession {
  issuer: string;
  subject: string;
  refresh_token: string | null;
  created_at: Date;
}

export class ClaimRefresher {
  private readonly readAt = new Map<string, number>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly provider: OidcProvider,
  ) {}

  /** The claim of `sessionId` was read just now (a sign-in that stepped an existing session up, a refresh). */
  markRead(sessionId: string, at = Date.now()): void {
    this.readAt.delete(sessionId);
    this.readAt.set(sessionId, at);
    if (this.readAt.size > REMEMBERED_SESSIONS) {
      const oldest = this.readAt.keys().next().value;
      if (oldest !== undefined) this.readAt.delete(oldest);
    }
  }

  /**
   * Reads the claim again now and makes the person's claim memberships its own; the session's refresh
   * token is replaced when the provider rotates it. Refusals are AppErrors the route answers.
   * Concurrent refreshes of one session share one call (a rotated token may be used once).
   */
  refresh(sessionId: string, personId: string): Promise<void> {
    let pending = this.running.get(sessionId);
    if (!pending) {
      pending = this.run(sessionId, personId).finally(() => this.running.delete(sessionId));
      this.running.set(sessionId, pending);
    }
    return pending;
  }

  /** whoami's part: when the claim is older than 15 minutes, a refresh off the request's path; failures are logged. */
  refreshIfStale(sessionId: string, personId: string, log: FastifyBaseLogger): void {
    const known = this.readAt.get(sessionId);
    if ((known !== undefined && Date.now() - known < CLAIM_MAX_AGE_MS) || this.running.has(sessionId)) return;
    void (async () => {
      if (known === undefined) {
        const { rows } = await this.pool.query<{ created_at: Date }>('SELECT created_at FROM oidc_sessions WHERE session_id = $1', [sessionId]);
        // No row: a session not started through the provider; nothing to refresh, and nothing to ask again.
        const signedInAt = rows[0]?.created_at.getTime() ?? Date.now();
        if (Date.now() - signedInAt < CLAIM_MAX_AGE_MS || !rows[0]) {
          this.markRead(sessionId, signedInAt);
          return;
        }
      }
      await this.refresh(sessionId, personId);
      log.info({ session: sessionId }, 'organization claim read again with the refresh token');
    })().catch((error: unknown) => {
      // Asked again in 15 minutes, not at every whoami.
      this.markRead(sessionId);
      log.warn({ session: sessionId, reason: error instanceof Error ? error.message : String(error) }, 'background refresh of the organization claim failed');
    });
  }

  private async run(sessionId: string, personId: string): Promise<void> {
    const keyring = processKeyring();
    // The row stays locked while the provider answers, so two instances never spend one (rotating) token twice.
    const organizations = await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<StoredSession>('SELECT issuer, subject, refresh_token, created_at FROM oidc_sessions WHERE session_id = $1 FOR UPDATE', [sessionId]);
      const stored = rows[0];
      if (!stored) throw new AppError('conflict', NOT_OIDC_SESSION);
      if (!stored.refresh_token) throw new AppError('conflict', NO_REFRESH_TOKEN);
      if (stored.issuer !== this.provider.config.issuer) {
        throw new AppError('unauthorized', `this session was started through ${stored.issuer}, not the configured issuer ${this.provider.config.issuer}: sign in again`);
      }
      const tokens = await this.provider.refresh(keyring.decrypt(stored.refresh_token)).catch((error: unknown) => toAppError(error, ''));
      // The checks of the sign-in but the nonce (OpenID Connect Core §12.2), and the same person.
      const payload = await this.provider.verifyIdToken(tokens.id_token, undefined).catch((error: unknown) => toAppError(error, 'the refreshed ID token is not acceptable: '));
      if (payload.sub !== stored.subject) {
        throw new AppError('unauthorized', `the refreshed ID token names another person (${String(payload.sub)}) than this session's (${stored.subject}): sign in again`);
      }
      const claim = organizationsOf(payload[this.provider.config.orgClaim]);
      await client.query(
        'UPDATE oidc_sessions SET id_token = $2, refresh_token = coalesce($3, refresh_token), organizations = $4 WHERE session_id = $1',
        [sessionId, tokens.id_token, tokens.refresh_token ? keyring.encrypt(tokens.refresh_token) : null, claim.map((organization) => organization.externalId)],
      );
      return claim;
    });
    await syncOrganizations(this.pool, personId, organizations);
    this.markRead(sessionId);
  }
}

/** The provider's refusals as the route answers them: 401 (invalid_grant, a token that fails a check) or 503. */
function toAppError(error: unknown, prefix: string): never {
  if (!(error instanceof OidcError)) throw error;
  if (error.status === 503) throw new AppError('service_unavailable', error.message);
  throw new AppError('unauthorized', error.message === REFRESH_REFUSED ? REFRESH_REFUSED : `${prefix}${error.message}`);
}
