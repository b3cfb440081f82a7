import type pg from 'pg';
import { isRole, type Role } from '../../../common/rbac';
import { AppError, ValidationError, type Issue } from '../../platform/http/errors';
import { inTransaction, type Queryable } from '../../platform/jobs/db';
import { createIdentity, DEFAULT_ROLE, normalizeEmail, REGISTRATION_DEFAULT_ROLE, setMembershipRole } from '../identity';

/**
 * Organizations of hosted mode as a platform administrator keeps them (docs/HOSTED.md, item 6): the rows of
 * `organizations` and `organization_members` (migration 0030). The API and the `watchkeeper org` command
 * both call these functions, so they refuse the same things with the same words.
 */

export interface OrganizationRow {
  id: string;
  name: string;
  external_id: string | null;
  backend_url: string | null;
  direct: boolean;
  members: number;
  created_at: Date;
  updated_at: Date;
}

export interface MemberRow {
  person_id: string;
  name: string;
  email: string | null;
  role: Role | null;
  source: 'claim' | 'console';
  created_at: Date;
}

export interface OrganizationInput {
  name: string;
  external_id?: string | null | undefined;
  backend_url?: string | null | undefined;
  direct?: boolean | undefined;
}

/** A backend URL as stored: http(s), no credentials, query or fragment, no trailing slash. Undefined: fine. */
export function backendUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is not a URL (for example https://team-a.example.com)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `must be an http or https URL, not ${url.protocol.replace(/:$/, '')}`;
  if (url.username || url.password) return 'must not hold a user name or password (the front signs its requests with its own token)';
  if (url.search || url.hash) return 'must not have a query or fragment';
  return undefined;
}

export function normalizeBackendUrl(value: string): string {
  return value.trim().replace(/\/+$/, '');
}

const COLUMNS = `o.id, o.name, o.external_id, o.backend_url, o.direct, o.created_at, o.updated_at,
  (SELECT count(*)::int FROM organization_members m JOIN people p ON p.id = m.person_id AND p.deleted_at IS NULL WHERE m.organization_id = o.id) AS members`;

export async function listOrganizations(db: Queryable): Promise<OrganizationRow[]> {
  const { rows } = await db.query<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations o WHERE o.deleted_at IS NULL ORDER BY lower(o.name), o.id`);
  return rows;
}

export async function getOrganization(db: Queryable, id: string): Promise<OrganizationRow> {
  const { rows } = await db.query<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations o WHERE o.id = $1 AND o.deleted_at IS NULL`, [id]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', `organization ${id} not found`);
  return row;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** For the command line: an organization by its id, external id or name (case-insensitive). */
export async function findOrganization(db: Queryable, reference: string): Promise<OrganizationRow> {
  const text = reference.trim();
  const { rows } = await db.query<OrganizationRow>(
    `SELECT ${COLUMNS} FROM organizations o
      WHERE o.deleted_at IS NULL AND (($2::uuid IS NOT NULL AND o.id = $2::uuid) OR o.external_id = $1 OR lower(o.name) = lower($1))
      ORDER BY (o.id = $2::uuid) DESC NULLS LAST, (o.external_id = $1) DESC NULLS LAST`,
    [text, UUID.test(text) ? text : null],
  );
  const [first, second] = rows;
  if (!first) throw new AppError('not_found', `no organization is named or has the id ${JSON.stringify(text)}`);
  if (second && first.external_id !== text && first.id !== text) throw new AppError('conflict', `${rows.length} organizations are named ${JSON.stringify(text)}: use the id`);
  return first;
}

/** What is wrong with the fields, all at once; the 409s (taken name or external id) come after these. */
function problems(input: Partial<OrganizationInput>, current: { backend_url: string | null; direct: boolean } | undefined): Issue[] {
  const issues: Issue[] = [];
  if (input.backend_url) {
    const problem = backendUrlProblem(input.backend_url);
    if (problem) issues.push({ path: 'body.backend_url', message: problem });
  }
  const backend = input.backend_url !== undefined ? input.backend_url : current?.backend_url;
  const direct = input.direct ?? current?.direct ?? false;
  // Spec §1, §7: a direct organization's browser calls the backend itself, so it needs to know where.
  if (direct && !backend) issues.push({ path: 'body.direct', message: 'needs a backend_url: the browser calls the backend itself' });
  return issues;
}

async function checkUnique(db: Queryable, input: Partial<OrganizationInput>, except: string | null): Promise<void> {
  if (input.name !== undefined) {
    const { rows } = await db.query('SELECT 1 FROM organizations WHERE deleted_at IS NULL AND lower(name) = lower($1) AND id IS DISTINCT FROM $2', [input.name, except]);
    if (rows.length > 0) throw new AppError('conflict', `name: an organization named ${JSON.stringify(input.name)} exists already`, [{ path: 'body.name', message: 'an organization with this name exists already' }]);
  }
  if (input.external_id) {
    const { rows } = await db.query<{ deleted: boolean }>('SELECT deleted_at IS NOT NULL AS deleted FROM organizations WHERE external_id = $1 AND id IS DISTINCT FROM $2', [input.external_id, except]);
    const taken = rows[0];
    if (taken) {
      const message = taken.deleted ? 'belongs to a deleted organization' : 'another organization has this external id';
      throw new AppError('conflict', `external_id: ${message}`, [{ path: 'body.external_id', message }]);
    }
  }
}

const LOCK = "SELECT pg_advisory_xact_lock(hashtext('watchkeeper.organizations.admin'))";

export async function createOrganization(pool: pg.Pool, input: OrganizationInput): Promise<OrganizationRow> {
  const issues = problems(input, undefined);
  if (issues.length > 0) throw new ValidationError(issues);
  return inTransaction(pool, async (client) => {
    // Two admins creating one name at once: the second sees the first's row.
    await client.query(LOCK);
    await checkUnique(client, input, null);
    const { rows } = await client.query<{ id: string }>(
      'INSERT INTO organizations (name, external_id, backend_url, direct) VALUES ($1, $2, $3, $4) RETURNING id',
      [input.name, input.external_id || null, input.backend_url ? normalizeBackendUrl(input.backend_url) : null, input.direct ?? false],
    );
    return getOrganization(client, rows[0]?.id ?? '');
  });
}

export async function updateOrganization(pool: pg.Pool, id: string, input: Partial<OrganizationInput>): Promise<OrganizationRow> {
  return inTransaction(pool, async (client) => {
    await client.query(LOCK);
    const current = await getOrganization(client, id);
    const issues = problems(input, current);
    if (issues.length > 0) throw new ValidationError(issues);
    await checkUnique(client, input, id);
    const sets: string[] = [];
    const values: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (input.name !== undefined) set('name', input.name);
    if (input.external_id !== undefined) set('external_id', input.external_id || null);
    if (input.backend_url !== undefined) set('backend_url', input.backend_url ? normalizeBackendUrl(input.backend_url) : null);
    if (input.direct !== undefined) set('direct', input.direct);
    if (sets.length > 0) await client.query(`UPDATE organizations SET ${sets.join(', ')} WHERE id = $1`, values);
    return getOrganization(client, id);
  });
}

/**
 * Soft delete: the row stays (its external id too, so the provider's claim cannot bring it back as a new
 * one), its members go, and sessions working in it have to choose again.
 */
export async function deleteOrganization(pool: pg.Pool, id: string): Promise<OrganizationRow> {
  return inTransaction(pool, async (client) => {
    const row = await getOrganization(client, id);
    await client.query('UPDATE organizations SET deleted_at = now() WHERE id = $1', [id]);
    await client.query('DELETE FROM organization_members WHERE organization_id = $1', [id]);
    // Sessions working in it keep its id, find no organization (authenticate.ts) and choose again.
    return row;
  });
}

export async function listMembers(db: Queryable, organizationId: string): Promise<MemberRow[]> {
  await getOrganization(db, organizationId);
  const { rows } = await db.query<MemberRow & { role: string | null }>(
    `SELECT m.person_id, p.name, p.email, m.role, m.source, m.created_at
       FROM organization_members m JOIN people p ON p.id = m.person_id AND p.deleted_at IS NULL
      WHERE m.organization_id = $1
      ORDER BY lower(p.name), p.id`,
    [organizationId],
  );
  return rows.map((row) => ({ ...row, role: isRole(row.role) ? row.role : null }));
}

async function member(db: Queryable, organizationId: string, personId: string): Promise<MemberRow> {
  const found = (await listMembers(db, organizationId)).find((row) => row.person_id === personId);
  if (!found) throw new AppError('not_found', `person ${personId} is not a member of this organization`);
  return found;
}

async function registrationRole(db: Queryable): Promise<Role> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM properties WHERE name = $1 AND organization_id IS NOT DISTINCT FROM current_organization()', [REGISTRATION_DEFAULT_ROLE]);
  const value = rows[0]?.value.trim();
  return isRole(value) ? value : DEFAULT_ROLE;
}

async function personByEmail(db: Queryable, email: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT a.identity_id AS id FROM identity_addresses a JOIN people p ON p.id = a.identity_id AND p.deleted_at IS NULL
      WHERE a.via = 'email' AND lower(a.value) = $1`,
    [normalizeEmail(email)],
  );
  return rows[0]?.id;
}

export interface Invite {
  email: string;
  role?: Role | null | undefined;
  first?: string | undefined;
  last?: string | undefined;
}

/**
 * Adds a person by email (source 'console'). Someone without an account gets one, as the built-in invite
 * makes it: no password, the address not verified, the registration's default role; their first sign-in
 * through the provider links to it only when the provider says it verified that address.
 */
export async function inviteMember(pool: pg.Pool, organizationId: string, invite: Invite): Promise<{ member: MemberRow; created: boolean; organization: OrganizationRow }> {
  const organization = await getOrganization(pool, organizationId);
  const email = invite.email.trim();
  let personId = await personByEmail(pool, email);
  let created = false;
  if (!personId) {
    const local = email.split('@')[0] ?? email;
    try {
      const made = await createIdentity(pool, {
        traits: { email, name: { first: invite.first?.trim() || local, last: invite.last?.trim() ?? '' } },
        roles: [await registrationRole(pool)],
      });
      personId = made.id;
      created = true;
    } catch (error) {
      // Invited twice at once: the other request made the account.
      if (!(error instanceof AppError && error.code === 'conflict')) throw error;
      personId = await personByEmail(pool, email);
      if (!personId) throw error;
    }
  }
  const { rowCount } = await pool.query(
    "INSERT INTO organization_members (organization_id, person_id, role, source) VALUES ($1, $2, $3, 'console') ON CONFLICT DO NOTHING",
    [organizationId, personId, invite.role ?? null],
  );
  if (!rowCount) throw new AppError('conflict', `email: ${email} is a member of this organization already`, [{ path: 'body.email', message: 'is a member of this organization already' }]);
  return { member: await member(pool, organizationId, personId), created, organization };
}

/** Spec §6 role inside the organization; null: none named, a viewer there. Claim rows keep it while the claim names them. */
export async function setMemberRole(pool: pg.Pool, organizationId: string, personId: string, role: Role | null): Promise<MemberRow> {
  await member(pool, organizationId, personId);
  await setMembershipRole(pool, organizationId, personId, role);
  return member(pool, organizationId, personId);
}

export const CLAIM_MEMBERSHIP =
  "this membership comes from the sign-in provider's organization claim: remove the person from the organization at the provider (the console would add it again at their next sign-in)";

export async function removeMember(pool: pg.Pool, organizationId: string, personId: string): Promise<MemberRow> {
  const found = await member(pool, organizationId, personId);
  if (found.source === 'claim') throw new AppError('conflict', CLAIM_MEMBERSHIP);
  await pool.query('DELETE FROM organization_members WHERE organization_id = $1 AND person_id = $2', [organizationId, personId]);
  return found;
}

// ---------------------------------------------------------------------------------------------------
// Platform administrators (migration 0040, docs/HOSTED.md "Platform administrators"): the command line's.

export interface PlatformAdminRow {
  person_id: string;
  name: string;
  email: string | null;
  created_at: Date;
}

export async function listPlatformAdmins(db: Queryable): Promise<PlatformAdminRow[]> {
  const { rows } = await db.query<PlatformAdminRow>(
    `SELECT a.person_id, p.name, p.email, a.created_at FROM platform_admins a JOIN people p ON p.id = a.person_id AND p.deleted_at IS NULL
      ORDER BY lower(coalesce(p.email, p.name)), p.id`,
  );
  return rows;
}

/** Makes the person with this email a platform administrator; false when they were one already. */
export async function addPlatformAdmin(db: Queryable, email: string): Promise<{ person_id: string; added: boolean }> {
  const personId = await personByEmail(db, email);
  if (!personId) throw new AppError('not_found', `no account has the email ${email}: the person signs in (or is invited to an organization) first`);
  const { rowCount } = await db.query('INSERT INTO platform_admins (person_id) VALUES ($1) ON CONFLICT DO NOTHING', [personId]);
  return { person_id: personId, added: (rowCount ?? 0) > 0 };
}

/** Takes the role away; refuses to remove the last one (nobody could then make an organization). */
export async function removePlatformAdmin(pool: pg.Pool, email: string): Promise<{ person_id: string; removed: boolean }> {
  return inTransaction(pool, async (client) => {
    await client.query(LOCK);
    const personId = await personByEmail(client, email);
    if (!personId) throw new AppError('not_found', `no account has the email ${email}`);
    const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM platform_admins a JOIN people p ON p.id = a.person_id AND p.deleted_at IS NULL');
    const { rowCount: holds } = await client.query('SELECT 1 FROM platform_admins WHERE person_id = $1', [personId]);
    if (!holds) return { person_id: personId, removed: false };
    if ((rows[0]?.n ?? 0) <= 1) throw new AppError('conflict', `${email} is the last platform administrator: add another one first`);
    await client.query('DELETE FROM platform_admins WHERE person_id = $1', [personId]);
    return { person_id: personId, removed: true };
  });
}
