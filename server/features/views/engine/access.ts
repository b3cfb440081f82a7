import { decide, mayAllowSome } from '../../../platform/auth/decide';
import { forbidden, UNAUTHORIZED_MESSAGE } from '../../../platform/auth/guard';
import { selectsKind } from '../../../platform/auth/object-selector';
import type pg from 'pg';
import type { AccessTarget, Actor } from '../../../platform/auth/types';
import { AppError } from '../../../platform/http/errors';

/** A view as RBAC sees it: permissions select views by id, name (`*` wildcards) and namespace. */
export function viewTarget(view: { id: string; name: string; namespace: string }): AccessTarget {
  return { kind: 'view', id: view.id, name: view.name, namespace: view.namespace };
}

/** May this caller read this view (its rows, its table)? Roles, permissions on all views, or ones selecting it; a deny wins. */
export function mayReadView(actor: Actor | undefined, view: { id: string; name: string; namespace: string }): boolean {
  return actor !== undefined && decide(actor, 'views', 'read', viewTarget(view)).allowed;
}

/** 401 without a caller, 403 when no role or permission of theirs allows reading this view. */
export function assertReadsView(actor: Actor | undefined, view: { id: string; name: string; namespace: string }): void {
  if (!actor) throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
  if (!mayReadView(actor, view)) throw forbidden(`views/${view.namespace}/${view.name}`, 'read');
}

/** 401 without a caller, 403 when the caller can read no view at all (a list then keeps the views they may read). */
export function assertReadsSomeView(actor: Actor | undefined): Actor {
  if (!actor) throw new AppError('unauthorized', UNAUTHORIZED_MESSAGE);
  if (!mayAllowSome(actor, 'views', 'read', 'view')) throw forbidden('views', 'read');
  return actor;
}

/**
 * The ids of the views this caller may read, for /api/db/views and /api/db/views_summary; undefined when
 * they read all of them (a role or a permission on all views, and no permission selecting single views).
 */
export async function readableViewIds(pool: pg.Pool, actor: Actor): Promise<string[] | undefined> {
  const selects = actor.permissions.some((rule) => selectsKind(rule, 'view'));
  if (!selects && decide(actor, 'views', 'read').allowed) return undefined;
  const { rows } = await pool.query<{ id: string; name: string; namespace: string }>('SELECT id, name, namespace FROM views');
  return rows.filter((view) => mayReadView(actor, view)).map((view) => view.id);
}
