import type pg from 'pg';
import type { Queryable } from '../../../platform/jobs/db';

/** One of a person's organizations as whoami and the switcher show it (docs/HOSTED.md). */
export interface Membership {
  id: string;
  name: string;
  /** The provider's id of the organization (the organization claim's value); null for one made here. */
  external_id: string | null;
  /** Whether a backend URL is known (the URL itself is for the server's proxy, not for the page). */
  has_backend_url: boolean;
  /** Spec §1 'direct': the browser calls the organization's backend itself. */
  direct: boolean;
  /** The person's spec §6 role inside the organization; null: none named, a viewer there (docs/HOSTED.md "Roles per organization"). */
  role: string | null;
}

/** The person's organizations (not deleted), by name. */
export async function membershipsOf(pool: pg.Pool, personId: string): Promise<Membership[]> {
  const { rows } = await pool.query<Membership>(
    `SELECT o.id, o.name, o.external_id, o.backend_url IS NOT NULL AS has_backend_url, o.direct, m.role
       FROM organization_members m JOIN organizations o ON o.id = m.organization_id AND o.deleted_at IS NULL
      WHERE m.person_id = $1
      ORDER BY lower(o.name), o.id`,
    [personId],
  );
  return rows;
}

export type Choice = { chosen: Membership } | { refused: 'unknown' | 'not_member' };

/**
 * Sets the organization a session works in, after checking the organization exists and the person is a
 * member of it: one statement, so a membership removed meanwhile cannot slip through.
 */
export async function chooseOrganization(pool: pg.Pool, input: { sessionId: string; personId: string; organizationId: string }): Promise<Choice> {
  const { rows } = await pool.query<Membership & { member: boolean; updated: boolean }>(
    `WITH org AS (SELECT id, name, external_id, backend_url, direct FROM organizations WHERE id = $1 AND deleted_at IS NULL),
          member AS (SELECT m.role FROM organization_members m JOIN org ON org.id = m.organization_id WHERE m.person_id = $2),
          updated AS (
            UPDATE sessions SET organization_id = $1
             WHERE id = $3 AND identity_id = $2 AND EXISTS (SELECT 1 FROM member)
            RETURNING id
          )
     SELECT org.id, org.name, org.external_id, org.backend_url IS NOT NULL AS has_backend_url, org.direct,
            (SELECT role FROM member) AS role, EXISTS (SELECT 1 FROM member) AS member, EXISTS (SELECT 1 FROM updated) AS updated
       FROM org`,
    [input.organizationId, input.personId, input.sessionId],
  );
  const row = rows[0];
  if (!row) return { refused: 'unknown' };
  if (!row.member || !row.updated) return { refused: 'not_member' };
  return { chosen: { id: row.id, name: row.name, external_id: row.external_id, has_backend_url: row.has_backend_url, direct: row.direct, role: row.role } };
}

/**
 * Sets a member's spec §6 role inside an organization (null: none named, a viewer there; docs/HOSTED.md
 * "Roles per organization"). False when the person is not a member of it. Settings → Users in an
 * organization and the organizations admin both change roles through this.
 */
export async function setMembershipRole(db: Queryable, organizationId: string, personId: string, role: string | null): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE organization_members SET role = $3 WHERE organization_id = $1 AND person_id = $2', [organizationId, personId, role]);
  return (rowCount ?? 0) > 0;
}
