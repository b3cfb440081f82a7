import type pg from 'pg';
import { AppError } from '../../platform/http/errors';
import { isRecord } from '../../platform/errors';
import type { Queryable } from '../../platform/jobs/db';
import { firstRunAt } from '../../platform/jobs/schedule';
import { restoreSecrets } from '../../platform/peers/credentials';
import { COMBINED_CHECK, JUNIT_RESULT_MODE } from './result-mode';
import { parseCanarySpec, type CheckDefinition, type ParsedCanary } from './spec';

export interface CanaryInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  source: string;
  createdBy?: string | undefined;
}

export interface SavedCanary {
  id: string;
  action: 'created' | 'updated' | 'unchanged';
  warnings: string[];
  checks: number;
}

export class CanaryInvalid extends AppError {
  constructor(readonly problems: ParsedCanary['errors']) {
    super('invalid_request', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  }
}

interface ExistingCanary {
  /** The agent that runs this resource and pushes it here (not one defined here for it), else null. */
  pushed_by?: string | null;
  id: string;
  source: string;
  schedule: string | null;
  spec: unknown;
  labels: unknown;
}

/**
 * Creates or updates a canary and its checks in one transaction (the caller's). Checks are matched by
 * type and name: kept checks keep their history, new ones are created, and checks no longer in the spec
 * are removed (soft delete). An `@every` schedule starts within its first interval (spread by name); a
 * canary without a schedule runs only when asked (Run Now).
 */
export async function saveCanary(client: pg.PoolClient, input: CanaryInput, options: { id?: string; createOnly?: boolean } = {}): Promise<SavedCanary> {
  const found = options.id
    ? await client.query<ExistingCanary>("SELECT id, source, schedule, spec, labels, (SELECT a.name FROM agents a WHERE a.id = agent_id AND NOT upstream_origin AND agent_id <> '00000000-0000-0000-0000-000000000000') AS pushed_by FROM canaries WHERE id = $1 AND deleted_at IS NULL FOR UPDATE", [options.id])
    : await client.query<ExistingCanary>(
        "SELECT id, source, schedule, spec, labels FROM canaries WHERE agent_id = agent_target($3::jsonb) AND namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL FOR UPDATE",
        // The agent its label watchkeeper.io/agent names (docs/AGENTS.md), else this console.
        [input.namespace, input.name, JSON.stringify(input.labels)],
      );
  const existing = found.rows[0];
  // The editor was shown masked secrets (canaries_shown): a mask saved back keeps the stored secret. Restored
  // before the spec is read, so neither the canary nor the check rows made from it ever store a mask.
  if (existing) input = { ...input, spec: withStoredSecrets(input.spec, existing.spec) };
  const parsed = parseCanarySpec(input.spec, { namespace: input.namespace });
  if (parsed.errors.length > 0) throw new CanaryInvalid(parsed.errors);
  if (options.id && !existing) throw new AppError('not_found', `canary ${options.id} not found`);
  if (options.createOnly && existing) {
    throw new AppError('conflict', `metadata.name: a canary "${input.name}" already exists in the namespace "${input.namespace}"; choose another name or edit that one`);
  }
  if (existing && !options.id && existing.source === 'UI' && input.source !== 'UI') {
    throw new AppError('conflict', `metadata.name: a canary "${input.namespace}/${input.name}" was created in the console; rename one of them (a console canary is never taken over)`);
  }
  if (existing?.pushed_by) throw new AppError('conflict', `this canary runs on the agent "${existing.pushed_by}", which pushes it here: change it on that agent`);
  if (existing && options.id && existing.source !== 'UI' && input.source === 'UI') {
    throw new AppError('conflict', `this canary comes from ${existing.source}: change it there`);
  }
  // Spread by name: canaries applied together come due evenly over their interval.
  const nextRun = parsed.schedule ? firstRunAt(parsed.schedule, new Date(), `${input.namespace}/${input.name}`) : null;
  let id: string;
  let action: SavedCanary['action'];
  if (existing) {
    id = existing.id;
    const same = JSON.stringify(existing.spec) === JSON.stringify(input.spec) && JSON.stringify(existing.labels) === JSON.stringify(input.labels);
    action = same ? 'unchanged' : 'updated';
    await client.query(
      `UPDATE canaries SET name = $2, namespace = $3, labels = $4, spec = $5, schedule = $6, source = $7, updated_by = $9,
         next_run_at = CASE WHEN schedule IS DISTINCT FROM $6 THEN coalesce($8::timestamptz, 'infinity') ELSE next_run_at END
       WHERE id = $1`,
      [id, input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), parsed.schedule, input.source, nextRun, input.createdBy || null],
    );
  } else {
    const inserted = await client.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, labels, spec, schedule, source, created_by, updated_by, next_run_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $7, coalesce($8::timestamptz, 'infinity'))
       RETURNING id`,
      [input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), parsed.schedule, input.source, input.createdBy || null, nextRun],
    );
    const row = inserted.rows[0];
    if (!row) throw new Error('canary insert returned no row');
    id = row.id;
    action = 'created';
  }
  const keys: string[] = [];
  // resultMode junit (canary-checker): the checks run from the spec and only their combined report is a check.
  const rows = parsed.resultMode === JUNIT_RESULT_MODE ? [combinedCheck(input, parsed)] : parsed.checks;
  for (const check of rows) {
    keys.push(check.key);
    await client.query(
      `INSERT INTO checks (canary_id, key, type, name, namespace, description, icon, endpoint, labels, owner, severity, spec, next_runtime)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, (SELECT nullif(next_run_at, 'infinity') FROM canaries WHERE id = $1))
       ON CONFLICT (canary_id, key) WHERE deleted_at IS NULL DO UPDATE SET
         type = EXCLUDED.type, name = EXCLUDED.name, namespace = EXCLUDED.namespace, description = EXCLUDED.description, icon = EXCLUDED.icon,
         endpoint = EXCLUDED.endpoint, labels = EXCLUDED.labels, owner = EXCLUDED.owner, severity = EXCLUDED.severity, spec = EXCLUDED.spec,
         next_runtime = EXCLUDED.next_runtime`,
      [id, check.key, check.type, check.name, check.namespace, check.description, check.icon, check.endpoint, JSON.stringify({ ...input.labels, ...check.labels }), parsed.owner, parsed.severity, JSON.stringify(check.spec)],
    );
  }
  // Checks (and what their transforms made) that the spec no longer has.
  await client.query(
    `UPDATE checks SET deleted_at = now()
      WHERE canary_id = $1 AND deleted_at IS NULL AND transformed_from IS NULL AND NOT (key = ANY($2))`,
    [id, keys],
  );
  await client.query('UPDATE checks c SET deleted_at = now() FROM checks p WHERE c.transformed_from = p.id AND p.deleted_at IS NOT NULL AND c.deleted_at IS NULL AND p.canary_id = $1', [id]);
  return { id, action, warnings: parsed.warnings, checks: parsed.checks.length };
}

/** The one check of a junit-mode canary: named after the canary, of type junit. */
function combinedCheck(input: CanaryInput, parsed: ParsedCanary): CheckDefinition {
  return {
    type: COMBINED_CHECK.type,
    key: `${COMBINED_CHECK.type}/${input.name}`,
    path: 'spec',
    name: input.name,
    namespace: input.namespace,
    description: COMBINED_CHECK.description,
    icon: parsed.icon,
    endpoint: `${parsed.checks.length} check${parsed.checks.length === 1 ? '' : 's'}`,
    labels: {},
    test: undefined,
    display: undefined,
    transform: undefined,
    transformDeleteStrategy: undefined,
    dependsOn: [],
    spec: { ...COMBINED_CHECK.spec },
  };
}

function withStoredSecrets(spec: Record<string, unknown>, stored: unknown): Record<string, unknown> {
  const restored = restoreSecrets(spec, stored);
  return isRecord(restored) ? restored : spec;
}

/** Deletes a canary (soft) with its checks; their history stays until retention removes it. */
export async function deleteCanary(db: Queryable, id: string): Promise<boolean> {
  const result = await db.query('UPDATE canaries SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
  await db.query('UPDATE checks SET deleted_at = now() WHERE canary_id = $1 AND deleted_at IS NULL', [id]);
  return (result.rowCount ?? 0) > 0;
}

export interface CanaryForRun {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  /** Who last saved the spec from the console or the API (null: a file, the system): its capabilities are checked at run. */
  updatedBy: string | null;
  /** The spec's digest (md5 of its text), so a run can reuse what it read from the same spec last time. */
  specHash: string;
}

export async function loadCanary(db: Queryable, id: string): Promise<CanaryForRun | undefined> {
  const { rows } = await db.query<{ id: string; name: string; namespace: string; labels: unknown; spec: unknown; updated_by: string | null; spec_hash: string }>(
    'SELECT id, name, namespace, labels, spec, updated_by, md5(spec::text) AS spec_hash FROM canaries WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  const row = rows[0];
  if (!row) return undefined;
  const labels = isRecord(row.labels) ? Object.fromEntries(Object.entries(row.labels).map(([key, value]) => [key, String(value)])) : {};
  return { id: row.id, name: row.name, namespace: row.namespace, labels, spec: isRecord(row.spec) ? row.spec : {}, updatedBy: row.updated_by, specHash: row.spec_hash };
}
