import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { healthEvent } from '../../../common/events';
import type { ComponentHealth } from '../../../common/topology';
import { publishMany, type PendingEvent } from '../../platform/jobs/event-queue';
import { flatten, type BuiltComponent } from './build';
import { asHealth, rollupAll, type RollupInput } from './rollup';

export interface StoreSummary {
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  components: Array<{ id: string; name: string; type: string | null; health: ComponentHealth; parent_id: string | null }>;
}

/** The columns a run writes, in the form jsonb_to_recordset reads them. */
const COLUMNS = `id uuid, parent_id uuid, external_id text, path text, name text, text text, type text, icon text, owner text, tooltip text,
  description text, labels jsonb, properties jsonb, health text, own_health text, status text, status_reason text, hidden boolean, config_id uuid, summary jsonb,
  sort_order int`;
const FIELDS = ['parent_id', 'external_id', 'path', 'name', 'text', 'type', 'icon', 'owner', 'tooltip', 'description', 'labels', 'properties', 'health', 'own_health', 'status', 'status_reason', 'hidden', 'config_id', 'summary', 'sort_order'] as const;
/** The fields the store reads back typed; the others it only compares and writes. */
interface TypedFields {
  id: string;
  parent_id: string | null;
  external_id: string;
  name: string;
  type: string | null;
  health: ComponentHealth;
}
type Row = TypedFields & Record<Exclude<(typeof FIELDS)[number], keyof TypedFields>, unknown>;

/** JSON with sorted keys, so a row read back from jsonb compares equal to the one built. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(Reflect.get(value, key))}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Writes one run's tree in the caller's transaction: components matched to the last run's by external
 * id keep their ids (links and bookmarks survive), unchanged rows are not rewritten, components no
 * longer built are soft-deleted, and the checks, configs and components each one selected replace the
 * last run's links (manual links stay). Health is rolled up before it is stored, and a component whose
 * stored health changed (or a new one that is not healthy) publishes component.<health> in the same
 * transaction. Stores of one topology are serialized by a transaction-scoped advisory lock.
 */
export async function storeTopology(client: pg.PoolClient, topologyId: string, root: BuiltComponent): Promise<StoreSummary> {
  // One store of a topology at a time: a run from the API and one from the scheduler may finish together,
  // and the second must match the first's new components by external id instead of inserting them again.
  await client.query("SELECT pg_advisory_xact_lock(hashtext('topology:' || $1))", [topologyId]);
  const all = flatten(root);
  const existing = await client.query<Row>(
    `SELECT id, ${FIELDS.join(', ')} FROM components WHERE topology_id = $1 AND deleted_at IS NULL`,
    [topologyId],
  );
  const byExternal = new Map(existing.rows.map((row) => [row.external_id, row]));
  const ids = new Map<BuiltComponent, string>();
  for (const { component } of all) ids.set(component, byExternal.get(component.externalId)?.id ?? randomUUID());

  // Related components of other topologies count with their stored health.
  const relatedIds = [...new Set(all.flatMap(({ component }) => [...component.related]))];
  const related = relatedIds.length
    ? (await client.query<{ id: string; type: string | null; health: string }>('SELECT id, type, health FROM components WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL', [relatedIds])).rows
    : [];
  const relatedFound = new Set(related.map((row) => row.id));
  const inputs = new Map<string, RollupInput>();
  for (const row of related) inputs.set(row.id, { id: row.id, type: row.type, own: asHealth(row.health), ownReason: null, children: [], checks: [], configs: [] });
  for (const { component } of all) {
    const id = ids.get(component) ?? '';
    inputs.set(id, {
      id,
      type: component.type,
      own: component.own,
      ownReason: component.statusReason,
      children: [...component.children.map((child) => ids.get(child) ?? ''), ...[...component.related].filter((relatedId) => relatedFound.has(relatedId))],
      checks: [...component.checks.values()].map((check) => ({ name: check.name, status: check.status })),
      // A component that is a config has that config's health as its own; it is not counted twice.
      configs: [...component.configs.values()].filter((config) => !component.ownFromConfig || config.id !== component.configId).map((config) => ({ name: config.name, health: config.health })),
    });
  }
  const rolled = rollupAll(inputs);

  const paths = new Map<BuiltComponent, string>();
  const rows: Row[] = all.map(({ component, parent }) => {
    const id = ids.get(component) ?? '';
    const parentId = parent ? (ids.get(parent) ?? null) : null;
    const path = parent ? [paths.get(parent), parentId].filter(Boolean).join('.') : '';
    paths.set(component, path);
    const result = rolled.get(id);
    return {
      id,
      parent_id: parentId,
      external_id: component.externalId,
      path,
      name: component.name,
      text: component.text,
      type: component.type,
      icon: component.icon,
      owner: component.owner,
      tooltip: component.tooltip,
      description: component.description,
      labels: component.labels,
      properties: component.properties,
      health: result?.health ?? 'unknown',
      own_health: component.ownFromConfig ? null : component.own,
      status: component.ownFromConfig ? null : component.status,
      status_reason: result?.reason ?? component.statusReason,
      hidden: component.hidden,
      config_id: component.configId,
      summary: result ? { children: result.children, checks: result.checks, configs: result.configs } : {},
      sort_order: component.order,
    };
  });

  const created: Row[] = [];
  const changed: Row[] = [];
  for (const row of rows) {
    const before = byExternal.get(row.external_id);
    if (!before) created.push(row);
    else if (FIELDS.some((field) => canonical(before[field]) !== canonical(row[field]))) changed.push(row);
  }
  if (created.length > 0) {
    await client.query(
      `INSERT INTO components (id, topology_id, ${FIELDS.join(', ')})
       SELECT r.id, $1, ${FIELDS.map((field) => `r.${field}`).join(', ')} FROM jsonb_to_recordset($2::jsonb) AS r(${COLUMNS})`,
      [topologyId, JSON.stringify(created)],
    );
  }
  if (changed.length > 0) {
    await client.query(
      `UPDATE components c SET ${FIELDS.map((field) => `${field} = r.${field}`).join(', ')}
       FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS}) WHERE c.id = r.id`,
      [JSON.stringify(changed)],
    );
  }
  await publishMany(client, await healthEvents(client, topologyId, created, changed, byExternal));
  const kept = rows.map((row) => row.id);
  const deleted = await client.query('UPDATE components SET deleted_at = now() WHERE topology_id = $1 AND deleted_at IS NULL AND NOT (id = ANY($2::uuid[]))', [topologyId, kept]);

  // This run's links replace the last run's.
  await client.query(
    `DELETE FROM check_component_relationships r USING components c WHERE r.component_id = c.id AND c.topology_id = $1 AND r.selector_id = 'topology'`,
    [topologyId],
  );
  await client.query(
    `DELETE FROM config_component_relationships r USING components c WHERE r.component_id = c.id AND c.topology_id = $1 AND r.selector_id = 'topology'`,
    [topologyId],
  );
  await client.query(`DELETE FROM component_relationships r USING components c WHERE r.relationship_id = c.id AND c.topology_id = $1`, [topologyId]);
  const checkLinks: Array<{ check_id: string; component_id: string; canary_id: string }> = [];
  const configLinks: Array<{ config_id: string; component_id: string }> = [];
  const componentLinks: Array<{ component_id: string; relationship_id: string }> = [];
  for (const { component } of all) {
    const id = ids.get(component) ?? '';
    for (const check of component.checks.values()) checkLinks.push({ check_id: check.id, component_id: id, canary_id: check.canary_id });
    for (const config of component.configs.values()) configLinks.push({ config_id: config.id, component_id: id });
    for (const relatedId of component.related) if (relatedId !== id) componentLinks.push({ component_id: relatedId, relationship_id: id });
  }
  if (checkLinks.length > 0) {
    await client.query(
      `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id)
       SELECT r.check_id, r.component_id, r.canary_id, 'topology' FROM jsonb_to_recordset($1::jsonb) AS r(check_id uuid, component_id uuid, canary_id uuid)
       ON CONFLICT (check_id, component_id) DO UPDATE SET deleted_at = NULL, selector_id = EXCLUDED.selector_id`,
      [JSON.stringify(checkLinks)],
    );
  }
  if (configLinks.length > 0) {
    await client.query(
      `INSERT INTO config_component_relationships (config_id, component_id, selector_id)
       SELECT r.config_id, r.component_id, 'topology' FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, component_id uuid)
       ON CONFLICT (component_id, config_id) DO UPDATE SET deleted_at = NULL`,
      [JSON.stringify(configLinks)],
    );
  }
  if (componentLinks.length > 0) {
    await client.query(
      `INSERT INTO component_relationships (component_id, relationship_id, selector_id)
       SELECT r.component_id, r.relationship_id, 'topology' FROM jsonb_to_recordset($1::jsonb) AS r(component_id uuid, relationship_id uuid)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(componentLinks)],
    );
  }
  return {
    created: created.length,
    updated: changed.length,
    unchanged: rows.length - created.length - changed.length,
    deleted: deleted.rowCount ?? 0,
    components: rows.map((row) => ({ id: row.id, name: row.name, type: row.type, health: row.health, parent_id: row.parent_id })),
  };
}

/** component.<health> for each new component that is not healthy and each whose health changed, with the previous health. */
async function healthEvents(client: pg.PoolClient, topologyId: string, created: Row[], changed: Row[], before: Map<string, Row>): Promise<PendingEvent[]> {
  const transitions: Array<{ row: Row; name: string; previous: unknown }> = [];
  for (const row of created) {
    // A new component is presumed healthy, as a new check is.
    const name = row.health !== 'healthy' ? healthEvent('component', row.health) : undefined;
    if (name) transitions.push({ row, name, previous: null });
  }
  for (const row of changed) {
    const old = before.get(row.external_id);
    if (!old || old.health === row.health) continue;
    const name = healthEvent('component', row.health);
    if (name) transitions.push({ row, name, previous: { health: old.health, status: old.status } });
  }
  if (transitions.length === 0) return [];
  const { rows } = await client.query<{ name: string; namespace: string }>('SELECT name, namespace FROM topologies WHERE id = $1', [topologyId]);
  const topology = rows[0];
  return transitions.map(({ row, name, previous }) => ({
    name,
    properties: {
      id: row.id,
      component_id: row.id,
      name: row.name,
      type: row.type,
      namespace: topology?.namespace ?? null,
      topology_id: topologyId,
      topology: topology?.name ?? null,
      parent_id: row.parent_id,
      health: row.health,
      status: row.status,
      status_reason: row.status_reason,
      previous: previous ? previous : { health: null, status: null },
    },
  }));
}
