import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { messageOf } from '../../platform/errors';
import type { AccessSummary, ConfigRef, EntityInput, Principal, ScrapedAccess } from './access-types';

// Access data in three parts: its types and the module's story (access-types.ts), reading a full-form
// document (access-read.ts), and storing what it holds (here).
export type { AccessInput, AccessSummary, ConfigRef, EntityInput, FullDocument, LogInput, ScrapedAccess, UserGroupInput } from './access-types';
export { readFullDocument } from './access-read';

interface EntityTable {
  table: 'external_users' | 'external_groups' | 'external_roles';
  columns: string[];
}

const USERS: EntityTable = { table: 'external_users', columns: ['user_type', 'email'] };
const GROUPS: EntityTable = { table: 'external_groups', columns: ['group_type'] };
const ROLES: EntityTable = { table: 'external_roles', columns: ['role_type', 'description'] };

/** Finds the stored id of a principal by its uuid or any of its aliases. */
type Lookup = (principal: Principal) => string | undefined;

/**
 * Upserts one kind of entity: entries sharing an alias (in this run, or with a stored row) are one entity.
 * A stored match keeps its id and gains the new aliases; declared names and columns overwrite its own.
 * Principals only referred to (an access row's aliases) are created with their first alias as name.
 */
async function syncEntities(
  client: pg.PoolClient,
  kind: EntityTable,
  declared: EntityInput[],
  referred: Principal[],
  scraperId: string,
): Promise<{ lookup: Lookup; created: number; updated: number }> {
  const inputs: Array<EntityInput & { declared: boolean }> = [
    ...declared.map((entity) => ({ ...entity, declared: true })),
    ...referred.map((ref) => ({ where: '', ...(ref.id ? { id: ref.id } : {}), aliases: ref.aliases, fields: {}, declared: false })),
  ];
  // Union of entries sharing a key (an alias or a uuid).
  const parent = inputs.map((_, index) => index);
  const root = (index: number): number => {
    while (parent[index] !== index) index = parent[index] = parent[parent[index]!]!;
    return index;
  };
  const keyOwner = new Map<string, number>();
  const keysOf = (input: { id?: string; aliases: string[] }) => [...input.aliases.map((alias) => `a:${alias}`), ...(input.id ? [`i:${input.id}`] : [])];
  inputs.forEach((input, index) => {
    for (const key of keysOf(input)) {
      const owner = keyOwner.get(key);
      if (owner === undefined) keyOwner.set(key, index);
      else parent[root(index)] = root(owner);
    }
  });
  const groups = new Map<number, Array<(typeof inputs)[number]>>();
  inputs.forEach((input, index) => groups.set(root(index), [...(groups.get(root(index)) ?? []), input]));

  const allAliases = [...new Set(inputs.flatMap((input) => input.aliases))];
  const allIds = [...new Set(inputs.flatMap((input) => (input.id ? [input.id] : [])))];
  const { rows: stored } = await client.query<{ id: string; aliases: string[]; scraper_id: string | null; name: string } & Record<string, string | null>>(
    `SELECT id, aliases, scraper_id, name, ${kind.columns.join(', ')} FROM ${kind.table}
     WHERE deleted_at IS NULL AND (aliases && $1::text[] OR id = ANY($2::uuid[])) ORDER BY (scraper_id = $3) DESC NULLS LAST, created_at, id`,
    [allAliases, allIds, scraperId],
  );

  const inserts: Array<Record<string, unknown>> = [];
  const updates: Array<Record<string, unknown>> = [];
  const idByKey = new Map<string, string>();
  for (const members of groups.values()) {
    const aliases = [...new Set(members.flatMap((member) => member.aliases))];
    const ids = new Set(members.flatMap((member) => (member.id ? [member.id] : [])));
    const found = stored.find((row) => ids.has(row.id) || row.aliases.some((alias) => aliases.includes(alias)));
    const first = members.find((member) => member.declared);
    const fields: Record<string, string | null> = {};
    for (const member of members) for (const [column, value] of Object.entries(member.fields)) if (!(column in fields)) fields[column] = value;
    const name = members.find((member) => member.name)?.name ?? found?.name ?? aliases[0] ?? [...ids][0] ?? 'unknown';
    let id: string;
    if (found) {
      id = found.id;
      const merged = [...new Set([...found.aliases, ...aliases])];
      const changedColumns = first ? kind.columns.filter((column) => column in fields && fields[column] !== found[column]) : [];
      const renamed = first !== undefined && name !== found.name;
      if (merged.length !== found.aliases.length || changedColumns.length > 0 || renamed) {
        updates.push({ id, aliases: merged, name: first ? name : found.name, ...Object.fromEntries(kind.columns.map((column) => [column, column in fields && first ? fields[column] : found[column]])) });
      }
      // A matched row is taken by one group only: another group sharing none of its aliases gets its own.
      found.aliases = merged;
    } else {
      id = [...ids][0] ?? randomUUID();
      inserts.push({ id, aliases, name, ...Object.fromEntries(kind.columns.map((column) => [column, fields[column] ?? null])) });
      stored.push({ id, aliases, scraper_id: scraperId, name, ...fields } as (typeof stored)[number]);
    }
    for (const member of members) for (const key of keysOf(member)) idByKey.set(key, id);
  }

  const record = `id uuid, aliases text[], name text, ${kind.columns.map((column) => `${column} text`).join(', ')}`;
  if (inserts.length > 0) {
    const typeColumn = kind.columns[0]!;
    await client.query(
      `INSERT INTO ${kind.table} (id, aliases, name, ${kind.columns.join(', ')}, scraper_id)
       SELECT x.id, x.aliases, x.name, ${kind.columns.map((column) => (column === typeColumn ? `coalesce(x.${column}, '')` : `x.${column}`)).join(', ')}, $2
       FROM jsonb_to_recordset($1::jsonb) AS x(${record})`,
      [JSON.stringify(inserts), scraperId],
    );
  }
  if (updates.length > 0) {
    const typeColumn = kind.columns[0]!;
    await client.query(
      `UPDATE ${kind.table} t SET aliases = x.aliases, name = x.name, ${kind.columns.map((column) => (column === typeColumn ? `${column} = coalesce(x.${column}, '')` : `${column} = x.${column}`)).join(', ')}
       FROM jsonb_to_recordset($1::jsonb) AS x(${record}) WHERE t.id = x.id`,
      [JSON.stringify(updates)],
    );
  }
  const lookup: Lookup = (ref) => {
    for (const key of keysOf(ref)) {
      const id = idByKey.get(key);
      if (id) return id;
    }
    return undefined;
  };
  return { lookup, created: inserts.length, updated: updates.length };
}

/** Config items by uuid, or by type and external id (this scraper's first), as config-db finds an access row's config. */
async function resolveConfigs(client: pg.PoolClient, refs: ConfigRef[], scraperId: string): Promise<(ref: ConfigRef) => string | undefined> {
  const externalIds = [...new Set(refs.flatMap((ref) => (ref.externalId ? [ref.externalId] : [])))];
  const uuids = [...new Set(refs.flatMap((ref) => (ref.configId ? [ref.configId] : [])))];
  const { rows } = await client.query<{ id: string; type: string; external_id: string[] }>(
    `SELECT id, type, external_id FROM config_items WHERE deleted_at IS NULL AND (external_id && $1::text[] OR id = ANY($2::uuid[]))
     ORDER BY (scraper_id = $3) DESC NULLS LAST, created_at, id`,
    [externalIds, uuids, scraperId],
  );
  const byKey = new Map<string, string>();
  const byId = new Map<string, string>();
  const known = new Set(rows.map((row) => row.id));
  for (const row of rows) {
    for (const externalId of row.external_id) {
      const key = `${row.type.toLowerCase()}\u0000${externalId}`;
      if (!byKey.has(key)) byKey.set(key, row.id);
      if (!byId.has(externalId)) byId.set(externalId, row.id);
    }
  }
  return (ref) => {
    if (ref.configId) return known.has(ref.configId) ? ref.configId : undefined;
    if (!ref.externalId) return undefined;
    return ref.type ? byKey.get(`${ref.type.toLowerCase()}\u0000${ref.externalId}`) : byId.get(ref.externalId);
  };
}

function describeRef(ref: ConfigRef): string {
  return ref.configId ? `config item ${ref.configId}` : ref.type ? `config item of type ${ref.type} with external id ${ref.externalId}` : `config item with external id ${ref.externalId}`;
}

/**
 * Writes the access data of one run in the caller's transaction, after its items: users, groups and roles
 * upserted by alias, memberships, config_access rows (new ones inserted; this scraper's rows no longer
 * reported ended when `deleteStale`), and logins counted per config-db's key (config, user, role, client,
 * outcome, MFA, source and UTC day: reading the same logs again changes nothing). An entry that cannot be
 * resolved (no such config item) is reported through `error` with its path; the others are stored.
 */
export async function storeAccess(
  client: pg.PoolClient,
  bundles: ScrapedAccess[],
  options: { scraperId: string; now: Date; deleteStale: boolean; error: (message: string) => void },
): Promise<AccessSummary> {
  const summary: AccessSummary = {
    users: { created: 0, updated: 0 },
    groups: { created: 0, updated: 0 },
    roles: { created: 0, updated: 0 },
    userGroups: 0,
    access: { created: 0, unchanged: 0, deleted: 0 },
    logins: 0,
    skipped: 0,
  };
  const { scraperId, error } = options;
  // All of it or none: a failing statement rolls back the access data only, never the items of the run.
  await client.query('SAVEPOINT scrape_access');
  try {
    const accesses = bundles.flatMap((bundle) => bundle.access);
    const logs = bundles.flatMap((bundle) => bundle.logs);
    const userGroups = bundles.flatMap((bundle) => bundle.userGroups);
    const users = await syncEntities(client, USERS, bundles.flatMap((b) => b.users), [...accesses.flatMap((a) => (a.user ? [a.user] : [])), ...logs.map((l) => l.user), ...userGroups.map((g) => g.user)], scraperId);
    const groups = await syncEntities(client, GROUPS, bundles.flatMap((b) => b.groups), [...accesses.flatMap((a) => (a.group ? [a.group] : [])), ...userGroups.map((g) => g.group)], scraperId);
    const roles = await syncEntities(client, ROLES, bundles.flatMap((b) => b.roles), [...accesses.flatMap((a) => (a.role ? [a.role] : [])), ...logs.flatMap((l) => (l.role ? [l.role] : []))], scraperId);
    summary.users = { created: users.created, updated: users.updated };
    summary.groups = { created: groups.created, updated: groups.updated };
    summary.roles = { created: roles.created, updated: roles.updated };

    const memberships = new Map<string, { external_user_id: string; external_group_id: string }>();
    for (const membership of userGroups) {
      const userId = users.lookup(membership.user);
      const groupId = groups.lookup(membership.group);
      if (userId && groupId) memberships.set(`${userId}|${groupId}`, { external_user_id: userId, external_group_id: groupId });
    }
    if (memberships.size > 0) {
      const result = await client.query(
        `INSERT INTO external_user_groups (external_user_id, external_group_id)
         SELECT x.external_user_id, x.external_group_id FROM jsonb_to_recordset($1::jsonb) AS x(external_user_id uuid, external_group_id uuid)
         ON CONFLICT (external_user_id, external_group_id) DO UPDATE SET deleted_at = NULL WHERE external_user_groups.deleted_at IS NOT NULL`,
        [JSON.stringify([...memberships.values()])],
      );
      summary.userGroups = result.rowCount ?? 0;
    }

    const configOf = await resolveConfigs(client, [...accesses.map((a) => a.config), ...logs.map((l) => l.config)], scraperId);

    const accessRows = new Map<string, { config_id: string; external_user_id: string | null; external_group_id: string | null; external_role_id: string | null }>();
    for (const access of accesses) {
      const configId = configOf(access.config);
      if (!configId) {
        summary.skipped += 1;
        error(`${access.where}: no ${describeRef(access.config)}`);
        continue;
      }
      const row = {
        config_id: configId,
        external_user_id: access.user ? (users.lookup(access.user) ?? null) : null,
        external_group_id: access.group ? (groups.lookup(access.group) ?? null) : null,
        external_role_id: access.role ? (roles.lookup(access.role) ?? null) : null,
      };
      accessRows.set([row.config_id, row.external_user_id, row.external_group_id, row.external_role_id].join('|'), row);
    }
    const seen: string[] = [];
    if (accessRows.size > 0) {
      const rows = JSON.stringify([...accessRows.values()]);
      const inserted = await client.query(
        `INSERT INTO config_access (config_id, external_user_id, external_group_id, external_role_id, scraper_id, created_at)
         SELECT x.config_id, x.external_user_id, x.external_group_id, x.external_role_id, $2, $3
         FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, external_user_id uuid, external_group_id uuid, external_role_id uuid)
         ON CONFLICT DO NOTHING`,
        [rows, scraperId, options.now],
      );
      summary.access.created = inserted.rowCount ?? 0;
      summary.access.unchanged = accessRows.size - summary.access.created;
      const { rows: live } = await client.query<{ id: string }>(
        `SELECT a.id FROM config_access a
         JOIN jsonb_to_recordset($1::jsonb) AS x(config_id uuid, external_user_id uuid, external_group_id uuid, external_role_id uuid)
           ON a.config_id = x.config_id AND a.external_user_id IS NOT DISTINCT FROM x.external_user_id
          AND a.external_group_id IS NOT DISTINCT FROM x.external_group_id AND a.external_role_id IS NOT DISTINCT FROM x.external_role_id
         WHERE a.deleted_at IS NULL`,
        [rows],
      );
      seen.push(...live.map((row) => row.id));
    }
    if (options.deleteStale) {
      const ended = await client.query('UPDATE config_access SET deleted_at = $3 WHERE scraper_id = $1 AND deleted_at IS NULL AND id <> ALL($2::uuid[])', [scraperId, seen, options.now]);
      summary.access.deleted = ended.rowCount ?? 0;
    }

    // Logins: one row per key and UTC day; entries of one run under one key are added up, and a run reading
    // the same day again keeps the larger count (a source reports the day whole, not only what is new).
    const logRows = new Map<string, { config_id: string; external_user_id: string; external_role_id: string | null; client_ip: string; verb: string | null; outcome: string; mfa: boolean; properties: unknown; count: number; first_observed: string; created_at: string }>();
    for (const log of logs) {
      const configId = configOf(log.config);
      const userId = users.lookup(log.user);
      if (!configId || !userId) {
        summary.skipped += 1;
        error(`${log.where}: no ${describeRef(log.config)}`);
        continue;
      }
      const roleId = log.role ? (roles.lookup(log.role) ?? null) : null;
      const day = log.createdAt.toISOString().slice(0, 10);
      const key = [configId, userId, roleId ?? '', log.clientIp, log.outcome, log.mfa, day].join('|');
      const at = log.createdAt.toISOString();
      const previous = logRows.get(key);
      if (previous) {
        previous.count += log.count;
        if (at > previous.created_at) Object.assign(previous, { created_at: at, verb: log.verb ?? previous.verb, properties: log.properties ?? previous.properties });
        if (at < previous.first_observed) previous.first_observed = at;
      } else {
        logRows.set(key, { config_id: configId, external_user_id: userId, external_role_id: roleId, client_ip: log.clientIp, verb: log.verb, outcome: log.outcome, mfa: log.mfa, properties: log.properties, count: log.count, first_observed: at, created_at: at });
      }
    }
    if (logRows.size > 0) {
      const result = await client.query(
        `INSERT INTO config_access_logs (config_id, scraper_id, external_user_id, external_role_id, client_ip, verb, outcome, mfa, properties, count, first_observed, created_at, inserted_at)
         SELECT x.config_id, $2, x.external_user_id, x.external_role_id, x.client_ip, x.verb, x.outcome, x.mfa, x.properties, x.count, x.first_observed, x.created_at, $3
         FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, external_user_id uuid, external_role_id uuid, client_ip text, verb text, outcome text, mfa boolean,
           properties jsonb, count integer, first_observed timestamptz, created_at timestamptz)
         ON CONFLICT (config_id, external_user_id, coalesce(external_role_id, '00000000-0000-0000-0000-000000000000'::uuid), client_ip, outcome, mfa,
           coalesce(scraper_id, '00000000-0000-0000-0000-000000000000'::uuid), ((created_at AT TIME ZONE 'UTC')::date))
         DO UPDATE SET count = greatest(config_access_logs.count, EXCLUDED.count),
           first_observed = least(config_access_logs.first_observed, EXCLUDED.first_observed),
           verb = CASE WHEN EXCLUDED.created_at >= config_access_logs.created_at THEN coalesce(EXCLUDED.verb, config_access_logs.verb) ELSE config_access_logs.verb END,
           properties = CASE WHEN EXCLUDED.created_at >= config_access_logs.created_at THEN coalesce(EXCLUDED.properties, config_access_logs.properties) ELSE config_access_logs.properties END,
           created_at = greatest(config_access_logs.created_at, EXCLUDED.created_at)
         WHERE config_access_logs.count < EXCLUDED.count OR config_access_logs.created_at < EXCLUDED.created_at
           OR config_access_logs.first_observed IS DISTINCT FROM least(config_access_logs.first_observed, EXCLUDED.first_observed)`,
        [JSON.stringify([...logRows.values()]), scraperId, options.now],
      );
      summary.logins = result.rowCount ?? 0;
    }
    await client.query('RELEASE SAVEPOINT scrape_access');
  } catch (problem) {
    await client.query('ROLLBACK TO SAVEPOINT scrape_access');
    error(`access data: ${messageOf(problem)}; nothing of it was stored in this run`);
  }
  return summary;
}
