import type { Queryable } from '../../platform/jobs/db';
import { evaluateCel } from '../../platform/expressions';
import type { CheckSelector, ComponentSelector, ConfigSelector } from './spec';

/** A config item as selectors and lookups see it. */
export interface SelectedConfig {
  id: string;
  name: string | null;
  type: string;
  namespace: string | null;
  health: string | null;
  status: string | null;
  tags: Record<string, string>;
  labels: Record<string, string>;
  config?: unknown;
}

export interface SelectedCheck {
  id: string;
  name: string;
  type: string;
  icon: string | null;
  status: string | null;
  canary_id: string;
  labels: Record<string, string>;
}

/** Queries with bound values only: each selector adds conditions, never text from the spec into SQL. */
class Where {
  readonly parts: string[] = [];
  readonly values: unknown[] = [];
  add(template: (placeholder: string) => string, value: unknown) {
    this.values.push(value);
    this.parts.push(template(`$${this.values.length}`));
  }
  text(): string {
    return this.parts.length > 0 ? ` AND ${this.parts.join(' AND ')}` : '';
  }
}

/** `web-*` globs match with LIKE; anything else must be equal. */
function matchName(where: Where, column: string, pattern: string) {
  if (pattern.includes('*')) where.add((p) => `${column} LIKE ${p}`, pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%'));
  else where.add((p) => `${column} = ${p}`, pattern);
}

/** Kubernetes-style `app=web,tier!=db,canary` label selectors. */
export function parseLabelSelector(text: string): { equal: Record<string, string>; notEqual: Record<string, string>; exists: string[] } {
  const equal: Record<string, string> = {};
  const notEqual: Record<string, string> = {};
  const exists: string[] = [];
  for (const part of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    const not = part.match(/^([^!=]+)!=(.*)$/);
    const eq = part.match(/^([^!=]+)==?(.*)$/);
    if (not?.[1]) notEqual[not[1].trim()] = (not[2] ?? '').trim();
    else if (eq?.[1]) equal[eq[1].trim()] = (eq[2] ?? '').trim();
    else exists.push(part);
  }
  return { equal, notEqual, exists };
}

function matchLabels(where: Where, column: string, labels: Record<string, string> | undefined, selector: string | undefined) {
  const parsed = selector ? parseLabelSelector(selector) : { equal: {}, notEqual: {}, exists: [] };
  const equal = { ...(labels ?? {}), ...parsed.equal };
  if (Object.keys(equal).length > 0) where.add((p) => `${column} @> ${p}::jsonb`, JSON.stringify(equal));
  for (const [key, value] of Object.entries(parsed.notEqual)) where.add((p) => `NOT (${column} @> ${p}::jsonb)`, JSON.stringify({ [key]: value }));
  for (const key of parsed.exists) where.add((p) => `${column} ? ${p}`, key);
}

/** At most this many configs per selector: a selector matching more is too wide for a topology. */
export const MAX_SELECTED = 50_000;

export async function selectConfigs(db: Queryable, selector: ConfigSelector, options: { withConfig?: boolean } = {}): Promise<SelectedConfig[]> {
  const where = new Where();
  if (selector.id) where.add((p) => `id::text = ${p}`, selector.id);
  if (selector.name) matchName(where, 'name', selector.name);
  const types = [...(selector.type ? [selector.type] : []), ...(selector.types ?? [])];
  if (types.length > 0) where.add((p) => `type = ANY(${p}::text[])`, types);
  if (selector.namespace) where.add((p) => `namespace = ${p}`, selector.namespace);
  matchLabels(where, 'tags', selector.tags, undefined);
  matchLabels(where, 'labels', selector.labels, selector.labelSelector);
  const withConfig = options.withConfig === true || Boolean(selector.expr);
  const { rows } = await db.query<SelectedConfig>(
    `SELECT id, name, type, namespace, health, status, tags, labels${withConfig ? ', config' : ''}
     FROM config_items WHERE deleted_at IS NULL${where.text()} ORDER BY name, id LIMIT ${MAX_SELECTED}`,
    where.values,
  );
  if (!selector.expr) return rows;
  const expr = selector.expr;
  return rows.filter((row) => evaluateCel('configs.expr', expr, { config: row }) === true);
}

export async function selectChecks(db: Queryable, selector: CheckSelector): Promise<SelectedCheck[]> {
  const where = new Where();
  if (selector.name) matchName(where, 'c.name', selector.name);
  if (selector.type) where.add((p) => `c.type = ${p}`, selector.type);
  if (selector.canary) matchName(where, 'cn.name', selector.canary);
  if (selector.namespace) where.add((p) => `c.namespace = ${p}`, selector.namespace);
  matchLabels(where, 'c.labels', selector.labels, selector.labelSelector);
  const { rows } = await db.query<SelectedCheck>(
    `SELECT c.id, c.name, c.type, c.icon, c.status, c.canary_id, c.labels
     FROM checks c JOIN canaries cn ON cn.id = c.canary_id
     WHERE c.deleted_at IS NULL AND cn.deleted_at IS NULL${where.text()} ORDER BY c.name, c.id LIMIT ${MAX_SELECTED}`,
    where.values,
  );
  if (!selector.expr) return rows;
  const expr = selector.expr;
  return rows.filter((row) => evaluateCel('checks.expr', expr, { check: row }) === true);
}

/** Components of other topologies (a topology's own are being rebuilt by its run). */
export async function selectComponents(db: Queryable, selector: ComponentSelector, exceptTopology: string): Promise<string[]> {
  const where = new Where();
  where.add((p) => `(c.topology_id IS DISTINCT FROM ${p})`, exceptTopology);
  if (selector.name) matchName(where, 'c.name', selector.name);
  const types = [...(selector.type ? [selector.type] : []), ...(selector.types ?? [])];
  if (types.length > 0) where.add((p) => `c.type = ANY(${p}::text[])`, types);
  if (selector.owner) where.add((p) => `c.owner = ${p}`, selector.owner);
  if (selector.topology) where.add((p) => `t.name = ${p}`, selector.topology);
  matchLabels(where, 'c.labels', selector.labels, selector.labelSelector);
  const { rows } = await db.query<{ id: string }>(
    `SELECT c.id FROM components c LEFT JOIN topologies t ON t.id = c.topology_id
     WHERE c.deleted_at IS NULL${where.text()} ORDER BY c.name LIMIT ${MAX_SELECTED}`,
    where.values,
  );
  return rows.map((row) => row.id);
}
