import type pg from 'pg';
import type { Actor } from '../../platform/auth/types';
import { AppError } from '../../platform/http/errors';
import { FrontKeys, TOKEN_TTL_S } from './keys';
import { MEMBER_DEFAULT_ROLE } from '../identity';

/** The organization a session works in (sessions.organization_id, chosen in the switcher). */
export interface SessionOrganization {
  id: string;
  name: string;
  /** NULL: served by this server's database. */
  backendUrl: string | null;
  direct: boolean;
  /** The person's role inside the organization; NULL: none named, a viewer there (docs/HOSTED.md "Roles per organization"). */
  role: string | null;
}

interface OrganizationRow {
  id: string;
  name: string;
  backend_url: string | null;
  direct: boolean;
  role: string | null;
}

/**
 * The organization a session works in: `actor.session.organizationId`, which the authenticator resolves
 * (the switcher's choice while the person is still a member and it is not deleted, else their only
 * organization). Read with the person's role there.
 */
export async function organizationOfSession(pool: pg.Pool, actor: Actor): Promise<SessionOrganization | undefined> {
  // The session's or, for an API token, the token's (docs/HOSTED.md "API tokens in hosted mode").
  const organizationId = actor.organizationId;
  if (!organizationId) return undefined;
  // Read by the request's own principal statement (authenticate.ts): no second query on the proxy's path.
  if (actor.organization?.id === organizationId) return actor.organization;
  const { rows } = await pool.query<OrganizationRow>({
    name: 'watchkeeper_session_organization',
    text: `SELECT o.id, o.name, o.backend_url, o.direct, m.role
             FROM organizations o
             JOIN organization_members m ON m.organization_id = o.id AND m.person_id = $2
            WHERE o.id = $1 AND o.deleted_at IS NULL`,
    values: [organizationId, actor.id],
  });
  const row = rows[0];
  return row ? { id: row.id, name: row.name, backendUrl: row.backend_url, direct: row.direct, role: row.role } : undefined;
}

/** A token reused until a minute before it expires, so a page's burst of requests signs once. */
const REUSE_MARGIN_MS = 60_000;

/** Tokens for organization backends, signed by the front (keys.ts), per session and organization. */
export class OrganizationTokens {
  readonly keys: FrontKeys;
  private readonly cache = new Map<string, { token: string; expiresAt: Date }>();

  constructor(
    readonly pool: pg.Pool,
    private readonly issuer: string,
  ) {
    this.keys = new FrontKeys(pool);
  }

  /** The signed-in session's organization and a token for it, or a 401/403 that says what to do. */
  async forActor(actor: Actor | undefined): Promise<{ organization: SessionOrganization; token: string; expiresAt: Date }> {
    if (!actor) throw new AppError('unauthorized', 'sign in first');
    if (!actor.session) throw new AppError('forbidden', 'organization tokens are for a signed-in session, not an API token');
    const organization = await organizationOfSession(this.pool, actor);
    if (!organization) throw new AppError('forbidden', 'choose an organization first (POST /api/auth/organization): this session works in none of yours');
    return { organization, ...(await this.tokenFor(actor, actor.session.id, organization)) };
  }

  async tokenFor(actor: Actor, sessionId: string, organization: SessionOrganization): Promise<{ token: string; expiresAt: Date }> {
    // Spec §6 roles inside the organization: the member's role there, viewer when it names none; never the
    // person's console roles (docs/HOSTED.md "Roles per organization").
    const roles = [organization.role ?? MEMBER_DEFAULT_ROLE];
    const key = `${sessionId}:${organization.id}:${roles.join(',')}`;
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt.getTime() - Date.now() > REUSE_MARGIN_MS) return cached;
    const signed = await this.keys.sign(this.issuer, organization.id, { personId: actor.id, email: actor.email, name: actor.name, roles });
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, signed);
    return signed;
  }
}

export { TOKEN_TTL_S };
