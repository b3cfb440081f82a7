import type pg from 'pg';
import { AppError } from '../../platform/http/errors';
import { isRecord } from '../../platform/errors';
import type { Queryable } from '../../platform/jobs/db';
import { restoreSecrets } from '../../platform/peers/credentials';
import type { SpecProblem } from '../catalog';
import { parseTopologySpec } from './spec';
import { canonical } from './store';

export interface TopologyInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  source: string;
  createdBy?: string | undefined;
}

export interface SavedTopology {
  id: string;
  action: 'created' | 'updated' | 'unchanged';
  warnings: string[];
}

export class TopologyInvalid extends AppError {
  constructor(readonly problems: SpecProblem[]) {
    super('invalid_request', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  }
}

interface ExistingTopology {
  /** The agent that runs this resource and pushes it here (not one defined here for it), else null. */
  pushed_by?: string | null;
  id: string;
  source: string;
  spec: unknown;
  labels: unknown;
}

/**
 * Creates or updates a topology in the caller's transaction after checking its whole spec. A new or
 * changed one runs at once, so the dashboard shows it; one created in the console is never
 * taken over by a file or CRD of the same name. Masked secrets saved back keep the stored ones.
 */
export async function saveTopology(client: pg.PoolClient, input: TopologyInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedTopology> {
  const parsed = parseTopologySpec(input.spec, input.name);
  if (parsed.errors.length > 0) throw new TopologyInvalid(parsed.errors);
  const found = options.id
    ? await client.query<ExistingTopology>("SELECT id, source, spec, labels, (SELECT a.name FROM agents a WHERE a.id = agent_id AND NOT upstream_origin AND agent_id <> '00000000-0000-0000-0000-000000000000') AS pushed_by FROM topologies WHERE id = $1 AND deleted_at IS NULL FOR UPDATE", [options.id])
    : await client.query<ExistingTopology>(
        "SELECT id, source, spec, labels FROM topologies WHERE agent_id = agent_target($3::jsonb) AND namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE",
        // The agent its label watchkeeper.io/agent names (docs/AGENTS.md), else this console.
        [input.namespace, input.name, JSON.stringify(input.labels)],
      );
  const existing = found.rows[0];
  if (options.id && !existing) throw new AppError('not_found', `topology ${options.id} not found`);
  if (options.createOnly && existing) {
    throw new AppError('conflict', `metadata.name: a topology "${input.name}" already exists in the namespace "${input.namespace}"; choose another name or edit that one`);
  }
  if (existing && !options.id && existing.source === 'UI' && input.source !== 'UI') {
    throw new AppError('conflict', `metadata.name: a topology "${input.namespace}/${input.name}" was created in the console; rename one of them (a console topology is never taken over)`);
  }
  if (existing?.pushed_by) throw new AppError('conflict', `this topology runs on the agent "${existing.pushed_by}", which pushes it here: change it on that agent`);
  if (existing && options.id && existing.source !== 'UI' && input.source === 'UI') {
    throw new AppError('conflict', `this topology comes from ${existing.source}: change it there`);
  }
  const icon = typeof input.spec.icon === 'string' && input.spec.icon ? input.spec.icon : null;
  if (existing) {
    const spec = restoreSecrets(input.spec, existing.spec) as Record<string, unknown>;
    const same = canonical(existing.spec) === canonical(spec) && canonical(existing.labels) === canonical(input.labels);
    // A changed spec runs at once, so the dashboard shows it; an unchanged one keeps its slot.
    await client.query(
      `UPDATE topologies SET name = $2, namespace = $3, labels = $4, spec = $5, schedule = $6, source = $7, icon = $8, updated_by = $10,
         next_run_at = CASE WHEN $9 THEN next_run_at WHEN $6::text IS NULL THEN 'infinity' ELSE now() END
       WHERE id = $1`,
      [existing.id, input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(spec), parsed.schedule, input.source, icon, same, input.createdBy || null],
    );
    return { id: existing.id, action: same ? 'unchanged' : 'updated', warnings: parsed.warnings };
  }
  const inserted = await client.query<{ id: string }>(
    `INSERT INTO topologies (name, namespace, labels, spec, schedule, source, created_by, updated_by, next_run_at, icon)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7, CASE WHEN $5::text IS NULL THEN 'infinity'::timestamptz ELSE now() END, $8) RETURNING id`,
    [input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), parsed.schedule, input.source, input.createdBy || null, icon],
  );
  const row = inserted.rows[0];
  if (!row) throw new Error('topology insert returned no row');
  return { id: row.id, action: 'created', warnings: parsed.warnings };
}

/** Deletes a topology (soft) and the components it built. */
export async function deleteTopology(db: Queryable, id: string): Promise<boolean> {
  const result = await db.query('UPDATE topologies SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
  if ((result.rowCount ?? 0) === 0) return false;
  await db.query('UPDATE components SET deleted_at = now() WHERE topology_id = $1 AND deleted_at IS NULL', [id]);
  return true;
}

export interface TopologyForRun {
  id: string;
  name: string;
  namespace: string;
  icon: string | null;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  /** Who last saved the spec from the console or the API (null: a file, the system): its capabilities are checked at run. */
  updated_by: string | null;
}

export async function loadTopology(db: Queryable, id: string): Promise<TopologyForRun | undefined> {
  const { rows } = await db.query<{ id: string; name: string; namespace: string; icon: string | null; labels: unknown; spec: unknown; updated_by: string | null }>(
    'SELECT id, name, namespace, icon, labels, spec, updated_by FROM topologies WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const labels = isRecord(row.labels) ? Object.fromEntries(Object.entries(row.labels).map(([key, value]) => [key, String(value)])) : {};
  return { ...row, labels, spec: isRecord(row.spec) ? row.spec : {} };
}
