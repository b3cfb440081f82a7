import type { FastifyRequest } from 'fastify';
import type pg from 'pg';
import { isRole, isTokenScope, type TokenScope } from '../../../common/rbac';
import type { Actor, Authenticator } from '../../platform/auth/types';
import { currentOrganization } from '../../platform/db/tenant';
import type { AppError } from '../../platform/http/errors';
import { ACCESS_TOKEN_PREFIX, sha256 } from '../../platform/crypto';
import { cookieOf, SESSION_COOKIE } from './cookies';
import { SECOND_FACTORS } from './identities';
import { RuleCache } from './rule-cache';

/** Where a request's credential came from. */
export type CredentialSource = 'cookie' | 'header';

export interface Credential {
  kind: 'session' | 'access_token';
  token: string;
  source: CredentialSource;
}

/**
 * The credential of a request (DESIGN §5): the session cookie, `X-Session-Token`, `Authorization: Bearer`
 * (a session token or an API token), or `Authorization: Basic` with user `token` and an API token.
 */
export function credentialOf(req: FastifyRequest): Credential | undefined {
  const header = req.headers['x-session-token'];
  if (typeof header === 'string' && header !== '') return { kind: 'session', token: header, source: 'header' };
  const authorization = req.headers.authorization;
  if (typeof authorization === 'string') {
    const [scheme, value = ''] = authorization.trim().split(/\s+/, 2);
    if (scheme?.toLowerCase() === 'bearer' && value) {
      return { kind: value.startsWith(ACCESS_TOKEN_PREFIX) ? 'access_token' : 'session', token: value, source: 'header' };
    }
    if (scheme?.toLowerCase() === 'basic' && value) {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0 && decoded.slice(0, colon) === 'token' && decoded.length > colon + 1) {
        return { kind: 'access_token', token: decoded.slice(colon + 1), source: 'header' };
      }
    }
  }
  const cookie = cookieOf(req, SESSION_COOKIE);
  return cookie ? { kind: 'session', token: cookie, source: 'cookie' } : undefined;
}

interface PrincipalRow {
  id: string;
  name: string;
  email: string | null;
  roles: string[];
  team_ids: string[];
  groups: string[];
  second_factor: boolean;
  rbac_version: number;
  session_id: string | null;
  aal: 'aal1' | 'aal2' | null;
  authenticated_at: Date | null;
  token_id: string | null;
  scopes: unknown;
  organization_id: string | null;
  organization_name: string | null;
  backend_url: string | null;
  direct: boolean | null;
  member_role: string | null;
  platform_admin: boolean;
}

/**
 * One statement per request: the session (or token), the person, their roles and teams, whether they
 * have a second factor, and the permission rows that name them, one of their teams, or one of their
 * roles. Always fresh, so a revoked session or a new deny applies to the very next request.
 */
type PrincipalFrom = 'session' | 'token' | 'person';

/**
 * The organization a session works in (hosted mode, docs/HOSTED.md): the one chosen in the switcher while
 * the person is still a member of it and it is not deleted, else (nothing chosen yet) their only
 * organization when they have exactly one, else none. A choice that no longer holds is never replaced
 * silently: the open page would show one organization's cache over another's data; the person chooses again.
 */
const SESSION_ORGANIZATION = `coalesce(
    (SELECT m.organization_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id AND o.deleted_at IS NULL
      WHERE m.person_id = p.id AND m.organization_id = s.organization_id),
    (SELECT (array_agg(m.organization_id))[1] FROM organization_members m JOIN organizations o ON o.id = m.organization_id AND o.deleted_at IS NULL
      WHERE m.person_id = p.id AND s.organization_id IS NULL HAVING count(*) = 1))`;

/**
 * The organization an API token works in (docs/HOSTED.md "API tokens in hosted mode"): the one it was made
 * for, while its owner is still a member and it is not deleted, else none.
 */
const TOKEN_ORGANIZATION = `(SELECT m.organization_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id AND o.deleted_at IS NULL
      WHERE m.person_id = p.id AND m.organization_id = a.organization_id)`;

/** Whether the person is a platform administrator (migration 0040), read with the session or token. */
const PLATFORM_ADMIN = 'EXISTS (SELECT 1 FROM platform_admins x WHERE x.person_id = p.id)';

/**
 * The role of a member whose membership names none (organization_members.role NULL, as every membership
 * from the provider's claim starts): viewer, the spec's least role that still shows the console. Never the
 * person's own roles: those are the console's, and an admin elsewhere is nobody's admin here.
 */
export const MEMBER_DEFAULT_ROLE = 'viewer';

const FROM: Record<PrincipalFrom, { columns: string; organization: string; platformAdmin: string; from: string; where: string }> = {
  session: {
    columns: 's.id AS session_id, s.aal, s.authenticated_at, NULL::uuid AS token_id, NULL::jsonb AS scopes',
    organization: SESSION_ORGANIZATION,
    platformAdmin: PLATFORM_ADMIN,
    from: 'sessions s JOIN people p ON p.id = s.identity_id',
    where: 's.token_hash = $1 AND s.active AND s.expires_at > now()',
  },
  token: {
    columns: 'NULL::uuid AS session_id, NULL AS aal, NULL::timestamptz AS authenticated_at, a.id AS token_id, a.scopes',
    organization: TOKEN_ORGANIZATION,
    platformAdmin: PLATFORM_ADMIN,
    from: 'access_tokens a JOIN people p ON p.id = a.person_id',
    where: 'a.hash = $1 AND a.deleted_at IS NULL AND (a.expires_at IS NULL OR a.expires_at > now())',
  },
  person: {
    columns: 'NULL::uuid AS session_id, NULL AS aal, NULL::timestamptz AS authenticated_at, NULL::uuid AS token_id, NULL::jsonb AS scopes',
    // The organization the asking work runs in (a run's author, an admin asking what someone may do): $3.
    organization: '$3::uuid',
    // Not read for a person without a credential: work in an organization's scope may not read the table.
    platformAdmin: 'false',
    from: 'people p',
    where: 'p.id = $1',
  },
};

/**
 * One statement per request: the session (or token), the person, their roles and teams, whether they
 * have a second factor, and the version of the permission rows (the rows themselves come from the
 * RuleCache). Always fresh, so a revoked session or a new deny applies to the very next request.
 */
const PRINCIPAL = (kind: PrincipalFrom) => `
  SELECT p.id, p.name, p.email, r.roles, tm.team_ids, pg.groups, sf.second_factor, (SELECT version::int FROM rbac_version) AS rbac_version, ${FROM[kind].columns},
         org.organization_id, ob.organization_name, ob.backend_url, ob.direct, ob.member_role, pa.platform_admin
  FROM ${FROM[kind].from}
  JOIN identities i ON i.id = p.id AND i.state = 'active'
  -- Hosted mode: the organization the request works in; its teams, groups and permission rows apply.
  CROSS JOIN LATERAL (SELECT ${FROM[kind].organization} AS organization_id) org
  -- Its name, backend and the member's role, for the front's proxy (docs/HOSTED.md "Organization backends").
  LEFT JOIN LATERAL (
    SELECT o.name AS organization_name, o.backend_url, o.direct, m.role AS member_role
    FROM organizations o JOIN organization_members m ON m.organization_id = o.id AND m.person_id = p.id
    WHERE o.id = org.organization_id
  ) ob ON true
  -- Roles (docs/HOSTED.md "Roles per organization"): working in an organization, the member's role there and
  -- nothing else (a member without one is a viewer; someone who is not a member holds no role); the
  -- person's own roles (person_roles) only outside any organization, as in the built-in mode.
  CROSS JOIN LATERAL (SELECT CASE WHEN org.organization_id IS NOT NULL THEN coalesce(
      (SELECT ARRAY[coalesce(m.role, '${MEMBER_DEFAULT_ROLE}')] FROM organization_members m WHERE m.person_id = p.id AND m.organization_id = org.organization_id),
      '{}')
    ELSE coalesce((SELECT array_agg(role) FROM person_roles WHERE person_id = p.id), '{}') END AS roles) r
  -- The platform administrator (migration 0040): a separate role, never an organization's.
  CROSS JOIN LATERAL (SELECT ${FROM[kind].platformAdmin} AS platform_admin) pa
  CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(m.team_id), '{}') AS team_ids
    FROM team_members m JOIN teams t ON t.id = m.team_id AND t.deleted_at IS NULL AND t.organization_id IS NOT DISTINCT FROM org.organization_id
    WHERE m.person_id = p.id
  ) tm
  CROSS JOIN LATERAL (
    -- Permission groups (kind PermissionGroup) naming the person by id or email, everyone ('*'), or a team of theirs.
    SELECT coalesce(array_agg(g.name), '{}') AS groups
    FROM permission_groups g
    WHERE g.deleted_at IS NULL AND g.organization_id IS NOT DISTINCT FROM org.organization_id AND (
      g.people && ARRAY['*', p.id::text, lower(coalesce(p.email, ''))]
      OR EXISTS (SELECT 1 FROM teams t WHERE t.id = ANY(tm.team_ids) AND (lower(t.name) = ANY(g.teams) OR t.id::text = ANY(g.teams)))
    )
  ) pg
  CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM identity_credentials c WHERE c.identity_id = p.id AND c.type = ANY($2)) AS second_factor) sf
  WHERE p.deleted_at IS NULL AND ${FROM[kind].where}`;
const SESSION_PRINCIPAL = PRINCIPAL('session');
const TOKEN_PRINCIPAL = PRINCIPAL('token');
const PERSON_PRINCIPAL = PRINCIPAL('person');

function parseScopes(value: unknown): TokenScope[] {
  return Array.isArray(value) ? value.filter(isTokenScope) : [];
}

async function toActor(row: PrincipalRow, rules: RuleCache): Promise<Actor> {
  const roles = row.roles.filter(isRole);
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roles,
    ...(row.platform_admin ? { platformAdmin: true } : {}),
    teamIds: row.team_ids,
    groups: row.groups,
    permissions: await rules.rulesFor(row.rbac_version, { personId: row.id, teamIds: row.team_ids, roles, groups: row.groups, organizationId: row.organization_id }),
    ...(row.session_id && row.aal && row.authenticated_at
      ? { session: { id: row.session_id, aal: row.aal, authenticatedAt: row.authenticated_at, organizationId: row.organization_id } }
      : {}),
    ...(row.token_id ? { token: { id: row.token_id, scopes: parseScopes(row.scopes) } } : {}),
    ...(row.session_id || row.token_id ? { organizationId: row.organization_id } : {}),
    ...((row.session_id || row.token_id) && row.organization_id && row.organization_name !== null
      ? { organization: { id: row.organization_id, name: row.organization_name, backendUrl: row.backend_url, direct: row.direct === true, role: row.member_role } }
      : {}),
  };
}

/** A person as the evaluator sees them, without a session (an admin asking what someone may do). */
export async function actorOfPerson(pool: pg.Pool, rules: RuleCache, personId: string, organizationId: string | null = currentOrganization() ?? null): Promise<Actor | undefined> {
  // In an organization's scope (a run's author, POST /api/rbac/check in a session working in one) the
  // person is judged as a member of that organization: its role, teams and permission rows.
  const { rows } = await pool.query<PrincipalRow>(PERSON_PRINCIPAL, [personId, SECOND_FACTORS, organizationId]);
  const row = rows[0];
  return row ? toActor(row, rules) : undefined;
}

/** What the credential of a request resolves to. */
export interface Resolution {
  credential: Credential | undefined;
  /** Set when the request may act: the person, their roles, teams and applicable permission rows. */
  actor: Actor | undefined;
  /**
   * Set when a session exists but may not act yet: its identity has a second factor and the session has
   * only aal1 (DESIGN §5: once enrolled, a second factor is required).
   */
  pending: { sessionId: string } | undefined;
}

export class IdentityAuthenticator implements Authenticator {
  private readonly memo = new WeakMap<FastifyRequest, Promise<Resolution>>();
  readonly rules: RuleCache;

  constructor(private readonly pool: pg.Pool) {
    this.rules = new RuleCache(pool);
  }

  resolve(req: FastifyRequest): Promise<Resolution> {
    let pending = this.memo.get(req);
    if (!pending) {
      pending = this.load(credentialOf(req));
      this.memo.set(req, pending);
    }
    return pending;
  }

  /** Forget the memo after the request changed its own session (sign-in, sign-out). */
  forget(req: FastifyRequest): void {
    this.memo.delete(req);
  }

  async actorOf(req: FastifyRequest): Promise<Actor | undefined> {
    return (await this.resolve(req)).actor;
  }

  private gate: ((req: FastifyRequest, actor: Actor) => AppError | undefined) | undefined;

  /** Sets the check the access guard asks before every non-public route (hosted mode: organizations/gate.ts). */
  admitWith(gate: (req: FastifyRequest, actor: Actor) => AppError | undefined): void {
    this.gate = gate;
  }

  refusal(req: FastifyRequest, actor: Actor): AppError | undefined {
    return this.gate?.(req, actor);
  }

  /** Resolves a credential without a request (benchmarks, tools). */
  resolveCredential(credential: Credential | undefined): Promise<Resolution> {
    return this.load(credential);
  }

  private async load(credential: Credential | undefined): Promise<Resolution> {
    if (!credential) return { credential, actor: undefined, pending: undefined };
    // Named statements: each pooled connection plans the query once and reuses the plan on every request.
    const { rows } = await this.pool.query<PrincipalRow>({
      name: credential.kind === 'session' ? 'watchkeeper_session_principal' : 'watchkeeper_token_principal',
      text: credential.kind === 'session' ? SESSION_PRINCIPAL : TOKEN_PRINCIPAL,
      values: [sha256(credential.token), SECOND_FACTORS],
    });
    const row = rows[0];
    if (!row) return { credential, actor: undefined, pending: undefined };
    if (row.session_id && row.aal === 'aal1' && row.second_factor) {
      return { credential, actor: undefined, pending: { sessionId: row.session_id } };
    }
    const actor = await toActor(row, this.rules);
    if (row.token_id) this.touchToken(row.token_id);
    return { credential, actor, pending: undefined };
  }

  /** last_used_at, at most once a minute per token, off the request's path. */
  private touchToken(id: string): void {
    this.pool
      .query("UPDATE access_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')", [id])
      .catch(() => undefined);
  }
}

const authenticators = new WeakMap<pg.Pool, IdentityAuthenticator>();

/**
 * The one authenticator of a database pool: the access guard (built with the app) and identity's own
 * routes share it, so its per-request memo and rule cache are one.
 */
export function identityAuthenticator(pool: pg.Pool): IdentityAuthenticator {
  let auth = authenticators.get(pool);
  if (!auth) {
    auth = new IdentityAuthenticator(pool);
    authenticators.set(pool, auth);
  }
  return auth;
}
