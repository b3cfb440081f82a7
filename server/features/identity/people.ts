import type pg from 'pg';
import type { Role } from '../../../common/rbac';
import { AppError } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { setMembershipRole } from './organizations/store';

/** Refuses a change that would leave the install without an active admin. */
async function keepAnAdmin(client: pg.PoolClient, personId: string, stillAdmin: boolean): Promise<void> {
  if (stillAdmin) return;
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM person_roles r
       JOIN people p ON p.id = r.person_id AND p.deleted_at IS NULL
       JOIN identities i ON i.id = p.id AND i.state = 'active'
      WHERE r.role = 'admin' AND r.person_id <> $1`,
    [personId],
  );
  if ((rows[0]?.n ?? 0) === 0) throw new AppError('conflict', 'this would leave no active admin: make someone else an admin first');
}

export interface PersonUpdate {
  id: string;
  name?: string | undefined;
  roles?: Role[] | undefined;
  state?: 'active' | 'inactive' | undefined;
  /**
   * Hosted mode (docs/HOSTED.md "Roles per organization"): the organization the change is made in. Its
   * `roles` (one role) are then the person's membership role there; their own roles are left alone.
   */
  organizationId?: string | undefined;
}

/**
 * Changes a person's name, roles or state (deactivating ends their sessions and tokens stop working). In
 * an organization, roles change the membership's role (404 when the person is not a member of it).
 */
export async function updatePerson(pool: pg.Pool, update: PersonUpdate): Promise<void> {
  // The organization whose membership role changes (hosted mode), else the person's own roles do.
  const memberOf = update.roles !== undefined ? update.organizationId : undefined;
  await inTransaction(pool, async (client) => {
    const found = await client.query<{ state: string }>(
      'SELECT i.state FROM people p JOIN identities i ON i.id = p.id WHERE p.id = $1 AND p.deleted_at IS NULL FOR UPDATE OF p',
      [update.id],
    );
    if (!found.rowCount) throw new AppError('not_found', `person ${update.id} not found`);
    const current = await client.query<{ role: string }>('SELECT role FROM person_roles WHERE person_id = $1', [update.id]);
    const isAdminNow = current.rows.some((row) => row.role === 'admin');
    if (isAdminNow) {
      const staysAdmin = (update.roles && memberOf === undefined ? update.roles.includes('admin') : true) && update.state !== 'inactive';
      await keepAnAdmin(client, update.id, staysAdmin);
    }
    if (update.name !== undefined) {
      await client.query('UPDATE people SET name = $2 WHERE id = $1', [update.id, update.name.trim()]);
    }
    if (memberOf !== undefined) {
      const [role] = update.roles ?? [];
      if (!(await setMembershipRole(client, memberOf, update.id, role ?? null))) {
        throw new AppError('not_found', `person ${update.id} is not a member of this organization`);
      }
    } else if (update.roles) {
      await client.query('DELETE FROM person_roles WHERE person_id = $1', [update.id]);
      for (const role of new Set(update.roles)) await client.query('INSERT INTO person_roles (person_id, role) VALUES ($1, $2)', [update.id, role]);
    }
    if (update.state && update.state !== found.rows[0]?.state) {
      await client.query('UPDATE identities SET state = $2, state_changed_at = now() WHERE id = $1', [update.id, update.state]);
      if (update.state === 'inactive') await client.query('UPDATE sessions SET active = false WHERE identity_id = $1 AND active', [update.id]);
    }
  });
}

/**
 * Deletes a person's account: the identity with its credentials and sessions goes, their tokens are
 * revoked, roles and team memberships removed. The people row stays, marked deleted, so what they
 * created still names them; their email becomes free for a new account.
 */
export async function deletePerson(pool: pg.Pool, personId: string): Promise<void> {
  await inTransaction(pool, async (client) => {
    const found = await client.query('SELECT 1 FROM people WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [personId]);
    if (!found.rowCount) throw new AppError('not_found', `person ${personId} not found`);
    const roles = await client.query<{ role: string }>('SELECT role FROM person_roles WHERE person_id = $1', [personId]);
    if (roles.rows.some((row) => row.role === 'admin')) await keepAnAdmin(client, personId, false);
    await client.query('DELETE FROM identities WHERE id = $1', [personId]);
    await client.query('UPDATE access_tokens SET deleted_at = now() WHERE person_id = $1 AND deleted_at IS NULL', [personId]);
    await client.query('DELETE FROM person_roles WHERE person_id = $1', [personId]);
    await client.query('DELETE FROM team_members WHERE person_id = $1', [personId]);
    await client.query('UPDATE permissions SET deleted_at = now() WHERE person_id = $1 AND deleted_at IS NULL', [personId]);
    await client.query('UPDATE people SET deleted_at = now() WHERE id = $1', [personId]);
  });
}
