import type pg from 'pg';
import { AppError } from '../../../platform/http/errors';
import type { Queryable } from '../../../platform/jobs/db';
import type { ResourceSource } from '../../../platform/resources';
import { parseRuleSpec, type RuleSpec } from './spec';

export class RuleInvalid extends Error {
  constructor(readonly problems: Array<{ path: string; message: string }>) {
    super(problems.map((problem) => `${problem.path}: ${problem.message}`).join('; '));
  }
}

export interface RuleInput {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  source: ResourceSource | string;
  createdBy?: string;
}

/**
 * Creates or updates an incident rule by namespace and name (or by id from the console). The whole spec is
 * checked first; a rule made in the console is never taken over by a file of the same name.
 */
export async function saveIncidentRule(client: pg.PoolClient, input: RuleInput, options: { id?: string; createOnly?: boolean } = {}) {
  const parsed = parseRuleSpec(input.spec);
  if (parsed.errors.length > 0) throw new RuleInvalid(parsed.errors);
  const found = options.id
    ? await client.query<{ id: string; source: string }>('SELECT id, source FROM incident_rules WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [options.id])
    : await client.query<{ id: string; source: string }>('SELECT id, source FROM incident_rules WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL FOR UPDATE', [input.namespace, input.name]);
  const existing = found.rows[0];
  if (options.id && !existing) throw new AppError('not_found', `incident rule ${options.id} not found`);
  if (options.createOnly && existing) throw new AppError('conflict', `metadata.name: a rule "${input.name}" already exists in the namespace "${input.namespace}"; choose another name or edit that one`);
  if (existing && !options.id && existing.source === 'UI' && input.source !== 'UI') {
    throw new AppError('conflict', `metadata.name: the rule "${input.namespace}/${input.name}" was created in the console; rename one of them`);
  }
  if (existing && options.id && existing.source !== 'UI' && input.source === 'UI') throw new AppError('conflict', `this rule comes from ${existing.source}: change it there`);
  if (existing) {
    await client.query('UPDATE incident_rules SET name = $2, namespace = $3, labels = $4, spec = $5, source = $6 WHERE id = $1', [
      existing.id, input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), input.source,
    ]);
    return { id: existing.id, action: 'updated' as const, warnings: [] };
  }
  const { rows } = await client.query<{ id: string }>(
    'INSERT INTO incident_rules (name, namespace, labels, spec, source, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
    [input.name, input.namespace, JSON.stringify(input.labels), JSON.stringify(input.spec), input.source, input.createdBy || null],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('incident rule insert returned no row');
  return { id, action: 'created' as const, warnings: [] };
}

export async function deleteIncidentRule(db: Queryable, id: string): Promise<boolean> {
  const result = await db.query('UPDATE incident_rules SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL', [id]);
  return (result.rowCount ?? 0) > 0;
}

export interface StoredRule {
  id: string;
  name: string;
  spec: RuleSpec;
}

/** The live rules whose specs still parse (a rule stored by an older version that no longer does is skipped). */
export async function loadRules(db: Queryable): Promise<{ rules: StoredRule[]; broken: string[] }> {
  const { rows } = await db.query<{ id: string; name: string; spec: unknown }>('SELECT id, name, spec FROM incident_rules WHERE deleted_at IS NULL ORDER BY name');
  const rules: StoredRule[] = [];
  const broken: string[] = [];
  for (const row of rows) {
    const parsed = parseRuleSpec(row.spec);
    if (parsed.spec) rules.push({ id: row.id, name: row.name, spec: parsed.spec });
    else broken.push(row.name);
  }
  return { rules, broken };
}
