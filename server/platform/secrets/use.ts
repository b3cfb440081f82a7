import type pg from 'pg';
import { allows } from '../auth/decide';
import type { Actor } from '../auth/types';
import { isRecord } from '../errors';
import { AppError } from '../http/errors';
import { parseConnectionReference } from './resolve';

/** Every `connection://` reference of a spec, with its path (`spec.http[0].connection`). */
export function connectionReferences(spec: unknown, namespace: string, where = 'spec'): Array<{ path: string; text: string; namespace: string; name: string }> {
  const found: Array<{ path: string; text: string; namespace: string; name: string }> = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (isRecord(value)) {
      for (const [key, item] of Object.entries(value)) {
        const target = key === 'connection' && typeof item === 'string' ? parseConnectionReference(item, namespace) : undefined;
        if (target) found.push({ path: `${path}.${key}`, text: item as string, ...target });
        else walk(item, `${path}.${key}`);
      }
    }
  };
  walk(spec, where);
  return found;
}

/**
 * Spec §6: a connection is the admins' to read; a check, scraper or topology of the same namespace may use
 * it, but one that names a connection of another namespace needs its author to be allowed to read that
 * connection (a role, or a permission row on the connection or on `connection` objects). Refused with
 * 403 naming the reference, before anything is written.
 */
export async function assertConnectionUse(pool: pg.Pool, actor: Actor | undefined, spec: unknown, namespace: string, where = 'body.spec'): Promise<void> {
  const foreign = connectionReferences(spec, namespace, where).filter((ref) => ref.namespace !== namespace);
  for (const ref of foreign) {
    const { rows } = await pool.query<{ id: string; name: string; namespace: string; type: string; labels: Record<string, string> }>(
      'SELECT id, name, namespace, type, labels FROM connections WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL',
      [ref.namespace, ref.name],
    );
    const row = rows[0];
    // A connection that does not exist yet is named by the run that needs it.
    if (!row) continue;
    if (allows(actor, 'connections', 'read', { kind: 'connection', id: row.id, name: row.name, namespace: row.namespace, type: row.type, labels: row.labels, tags: row.labels })) continue;
    throw new AppError(
      'forbidden',
      `${ref.path}: ${ref.text} is a connection of the namespace "${ref.namespace}", not "${namespace}"; using a connection of another namespace needs permission to read it (a permission on that connection, or on connection objects)`,
      { path: ref.path, resource: 'connections', action: 'read' },
    );
  }
}
