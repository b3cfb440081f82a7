import type pg from 'pg';
import { escapeIdentifier } from 'pg';
import { codeOf, isRecord, messageOf } from '../../platform/errors';
import { NIL_AGENT, PUSH_TABLES, TABLE_DEFS, isPushTable, type PushTable, type PushTableDef } from './tables';

/**
 * POST /api/agent/push, the upstream side (issue 23; the wire format is in docs/API.md "Agents"): a batch
 * of rows an agent wrote, applied in one transaction with one `INSERT … SELECT FROM
 * jsonb_populate_recordset(…) ON CONFLICT (pk) DO UPDATE` per table, in foreign-key order. Rows keep their
 * ids; agent_id becomes the pushing agent's; references to people unknown here become NULL; an agent's
 * scheduled rows (canaries, scrapers, topologies) are never due upstream (next_run_at = infinity): the
 * agent runs them. Applying the same batch twice changes nothing (a row equal to the stored one is not
 * updated, a check status already stored is left alone, so the rollups count it once).
 */

export interface PushAgent {
  id: string;
  name: string;
}

export interface PushFailure {
  table: string;
  index: number;
  message: string;
}

export interface PushHeader {
  name: string;
  version: string | null;
  hostname: string | null;
  heartbeatSeconds: number | null;
}

interface Row {
  /** Index in the table's list as sent (what a failure names). */
  index: number;
  value: Record<string, unknown>;
}

export interface PushBatch {
  header: PushHeader;
  batchId: string | null;
  upserts: Map<PushTable, Row[]>;
  deletes: Map<PushTable, Row[]>;
}

/** A refusal of the whole batch: 400 (with the rows at fault) or 403; nothing was written. */
export class PushRefused extends Error {
  constructor(
    readonly status: 400 | 403,
    message: string,
    readonly failed: PushFailure[] = [],
  ) {
    super(message);
    this.name = 'PushRefused';
  }

  toBody(): Record<string, unknown> {
    return this.status === 403 ? { error: 'forbidden', message: this.message } : { error: 'invalid_request', message: this.message, failed: this.failed };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_HEARTBEAT_SECONDS = 86_400;

function invalid(failed: PushFailure[]): PushRefused {
  const first = failed[0];
  const where = (failure: PushFailure) => (failure.index < 0 ? failure.table : `${failure.table}[${failure.index}]`);
  const message = !first ? 'invalid push' : failed.length === 1 ? `${where(first)}: ${first.message}` : `${failed.length} problems, first ${where(first)}: ${first.message}`;
  return new PushRefused(400, message, failed);
}

function optionalText(value: unknown, path: string, problems: PushFailure[]): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.slice(0, 1024);
  problems.push({ table: path, index: -1, message: 'must be a text' });
  return null;
}

/** Checks the batch's shape (not the values: PostgreSQL judges those); every problem at once. */
export function parsePush(body: unknown): PushBatch {
  const problems: PushFailure[] = [];
  if (!isRecord(body)) throw invalid([{ table: 'body', index: -1, message: 'must be a JSON object with agent, upserts and deletes' }]);
  const agent = body.agent;
  let header: PushHeader = { name: '', version: null, hostname: null, heartbeatSeconds: null };
  if (!isRecord(agent)) problems.push({ table: 'agent', index: -1, message: 'must be an object with the agent name' });
  else {
    if (typeof agent.name !== 'string' || agent.name.trim() === '') problems.push({ table: 'agent.name', index: -1, message: 'is required' });
    const heartbeat = agent.heartbeat_seconds;
    let heartbeatSeconds: number | null = null;
    if (heartbeat !== undefined && heartbeat !== null) {
      if (typeof heartbeat !== 'number' || !Number.isInteger(heartbeat) || heartbeat < 1 || heartbeat > MAX_HEARTBEAT_SECONDS) {
        problems.push({ table: 'agent.heartbeat_seconds', index: -1, message: `must be a whole number of seconds from 1 to ${MAX_HEARTBEAT_SECONDS}` });
      } else heartbeatSeconds = heartbeat;
    }
    header = {
      name: typeof agent.name === 'string' ? agent.name.trim() : '',
      version: optionalText(agent.version, 'agent.version', problems),
      hostname: optionalText(agent.hostname, 'agent.hostname', problems),
      heartbeatSeconds,
    };
  }
  let batchId: string | null = null;
  if (body.batch_id !== undefined && body.batch_id !== null) {
    if (typeof body.batch_id !== 'string' || body.batch_id.length > 200) problems.push({ table: 'batch_id', index: -1, message: 'must be a text (a uuid)' });
    else batchId = body.batch_id;
  }
  const upserts = parseSection(body.upserts, 'upserts', problems);
  const deletes = parseSection(body.deletes, 'deletes', problems);
  if (problems.length > 0) throw invalid(problems);
  return { header, batchId, upserts, deletes };
}

function parseSection(section: unknown, name: 'upserts' | 'deletes', problems: PushFailure[]): Map<PushTable, Row[]> {
  const out = new Map<PushTable, Row[]>();
  if (section === undefined || section === null) return out;
  if (!isRecord(section)) {
    problems.push({ table: name, index: -1, message: 'must be an object of table names to lists of rows' });
    return out;
  }
  for (const [table, rows] of Object.entries(section)) {
    const path = `${name}.${table}`;
    if (!isPushTable(table)) {
      problems.push({ table: path, index: -1, message: `unknown table: one of ${PUSH_TABLES.join(', ')}` });
      continue;
    }
    if (!Array.isArray(rows)) {
      problems.push({ table: path, index: -1, message: 'must be a list of rows' });
      continue;
    }
    const def = TABLE_DEFS[table];
    const list: Row[] = [];
    rows.forEach((value: unknown, index) => {
      if (!isRecord(value)) {
        problems.push({ table: path, index, message: 'must be an object (a row)' });
        return;
      }
      for (const column of def.pk) {
        const key = value[column];
        if (key === undefined || key === null || key === '') problems.push({ table: path, index, message: `${column} is required (primary key)` });
        else if (column.endsWith('id') && !(typeof key === 'string' && UUID.test(key)) && column !== 'selector_id') {
          problems.push({ table: path, index, message: `${column} must be a uuid` });
        }
      }
      if (name === 'upserts') {
        for (const parent of def.parents) {
          const ref = value[parent.column];
          if (ref !== undefined && ref !== null && !(typeof ref === 'string' && UUID.test(ref))) problems.push({ table: path, index, message: `${parent.column} must be a uuid` });
        }
      }
      list.push({ index, value });
    });
    if (list.length > 0) out.set(table, list);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Statements, built once per pool from the catalog (so a migration adding a column is pushed as well).

interface Statements {
  upsert: string;
  delete: string;
  columns: string[];
  /** The statement takes the agent id as $2. */
  usesAgent: boolean;
}

const statementCache = new WeakMap<pg.Pool, Promise<Map<PushTable, Statements>>>();

function statementsOf(pool: pg.Pool): Promise<Map<PushTable, Statements>> {
  let cached = statementCache.get(pool);
  if (!cached) {
    cached = buildStatements(pool);
    cached.catch(() => statementCache.delete(pool));
    statementCache.set(pool, cached);
  }
  return cached;
}

async function buildStatements(pool: pg.Pool): Promise<Map<PushTable, Statements>> {
  const { rows } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = ANY($1) AND is_generated = 'NEVER'
      ORDER BY table_name, ordinal_position`,
    [PUSH_TABLES],
  );
  const out = new Map<PushTable, Statements>();
  for (const table of PUSH_TABLES) {
    // organization_id is this server's (the scope of the agent's organization, migration 0035), never the agent's.
    const columns = rows.filter((row) => row.table_name === table && row.column_name !== 'organization_id').map((row) => row.column_name);
    if (columns.length === 0) throw new Error(`agent push: table ${table} has no columns (migrations not applied?)`);
    out.set(table, build(TABLE_DEFS[table], columns));
  }
  return out;
}

function build(def: PushTableDef, columns: string[]): Statements {
  const q = escapeIdentifier;
  const t = q(def.name);
  const pk = def.pk.map(q).join(', ');
  const expression = (column: string): string => {
    if (column === 'agent_id' && def.agentId) return '$2::uuid';
    if (def.people.includes(column)) return `(SELECT p.id FROM people p WHERE p.id = r.${q(column)})`;
    if (def.scheduled && column === 'next_run_at') return "'infinity'::timestamptz";
    if (def.scheduled && (column === 'lease_owner' || column === 'lease_until')) return 'NULL';
    return `r.${q(column)}`;
  };
  const updatable = columns.filter((column) => !def.pk.includes(column) && column !== 'agent_id');
  const compared = updatable.filter((column) => column !== 'updated_at');
  let conflict: string;
  if (def.insertOnly || updatable.length === 0) conflict = 'DO NOTHING';
  else {
    const guard = [
      ...(def.agentId ? ['t.agent_id = $2::uuid'] : []),
      `(${compared.map((column) => `t.${q(column)}`).join(', ')}) IS DISTINCT FROM (${compared.map((column) => `EXCLUDED.${q(column)}`).join(', ')})`,
    ];
    conflict = `DO UPDATE SET ${updatable.map((column) => `${q(column)} = EXCLUDED.${q(column)}`).join(', ')} WHERE ${guard.join(' AND ')}`;
  }
  const upsert = `INSERT INTO ${t} AS t (${columns.map(q).join(', ')})
    SELECT ${columns.map(expression).join(', ')} FROM jsonb_populate_recordset(NULL::${t}, $1::jsonb) r
    ON CONFLICT (${pk}) ${conflict}`;
  const keyMatch = def.pk.map((column) => `t.${q(column)} = r.${q(column)}`).join(' AND ');
  const ownedParent = def.parents.find((parent) => parent.owned);
  const owner = def.agentId
    ? 't.agent_id = $2::uuid'
    : ownedParent
      ? `EXISTS (SELECT 1 FROM ${q(ownedParent.table)} o WHERE o.id = t.${q(ownedParent.column)} AND o.agent_id = $2::uuid)`
      : 'false';
  const del = `DELETE FROM ${t} t USING jsonb_populate_recordset(NULL::${t}, $1::jsonb) r WHERE ${keyMatch} AND ${owner}`;
  return { upsert, delete: del, columns, usesAgent: def.agentId };
}

// ---------------------------------------------------------------------------------------------------

function keyOf(def: PushTableDef, row: Record<string, unknown>): string {
  return def.pk.map((column) => String(row[column]).toLowerCase()).join('\u0000');
}

/** One row per key (the last one sent wins); rows being soft-deleted first, so a name freed in the batch is free. */
function dedupe(def: PushTableDef, rows: Row[]): Row[] {
  const byKey = new Map<string, Row>();
  for (const row of rows) {
    const key = keyOf(def, row.value);
    byKey.delete(key);
    byKey.set(key, row);
  }
  const unique = [...byKey.values()];
  if (!def.agentId) return unique;
  const deleted = (row: Row) => row.value.deleted_at !== undefined && row.value.deleted_at !== null;
  return [...unique.filter(deleted), ...unique.filter((row) => !deleted(row))];
}

const lower = (value: unknown) => String(value).toLowerCase();

interface OwnerRow {
  id: string;
  agent_id: string;
  agent_name: string | null;
}

function ownerName(row: OwnerRow): string {
  return row.agent_id === NIL_AGENT ? 'local (this instance)' : `agent "${row.agent_name ?? row.agent_id}"`;
}

/** Refuses the batch before anything is written when it touches a row another agent (or this instance) owns. */
async function checkOwnership(client: pg.PoolClient, agent: PushAgent, batch: PushBatch): Promise<void> {
  const notFound: PushFailure[] = [];
  const upserted = new Map<PushTable, Set<string>>();
  for (const [table, rows] of batch.upserts) {
    if (TABLE_DEFS[table].pk.length === 1) upserted.set(table, new Set(rows.map((row) => lower(row.value.id))));
  }
  for (const section of ['upserts', 'deletes'] as const) {
    for (const [table, rows] of batch[section]) {
      const def = TABLE_DEFS[table];
      const ids = def.pk.length === 1 ? [...new Set(rows.map((row) => lower(row.value.id)))] : [];
      if (def.agentId && ids.length > 0) {
        const { rows: others } = await client.query<OwnerRow>(
          `SELECT t.id::text, t.agent_id::text, a.name AS agent_name FROM ${escapeIdentifier(table)} t LEFT JOIN agents a ON a.id = t.agent_id
            WHERE t.id = ANY($1::uuid[]) AND t.agent_id <> $2::uuid LIMIT 1`,
          [ids, agent.id],
        );
        const other = others[0];
        if (other) throw new PushRefused(403, `${section}.${table}: ${table} ${other.id} belongs to ${ownerName(other)}, not to agent "${agent.name}"`);
      }
      const ownedParent = def.parents.find((parent) => parent.owned);
      if (!def.agentId && ownedParent && ids.length > 0) {
        // A child row kept by id (config_changes, config_analysis): the row upstream must hang off this agent's parent.
        const { rows: others } = await client.query<OwnerRow>(
          `SELECT t.id::text, o.agent_id::text, a.name AS agent_name FROM ${escapeIdentifier(table)} t
             JOIN ${escapeIdentifier(ownedParent.table)} o ON o.id = t.${escapeIdentifier(ownedParent.column)} LEFT JOIN agents a ON a.id = o.agent_id
            WHERE t.id = ANY($1::uuid[]) AND o.agent_id <> $2::uuid LIMIT 1`,
          [ids, agent.id],
        );
        const other = others[0];
        if (other) throw new PushRefused(403, `${section}.${table}: ${table} ${other.id} belongs to ${ownerName(other)}, not to agent "${agent.name}"`);
      }
      if (section === 'deletes') continue;
      // Parents the rows hang off: this agent's, upstream already or in this batch.
      for (const parent of def.parents.filter((item) => item.owned)) {
        const inBatch = upserted.get(parent.table) ?? new Set<string>();
        const wanted = new Map<string, Row>();
        for (const row of rows) {
          const ref = row.value[parent.column];
          if (ref === undefined || ref === null) continue;
          const id = lower(ref);
          if (!inBatch.has(id) && !wanted.has(id)) wanted.set(id, row);
        }
        if (wanted.size === 0) continue;
        const { rows: found } = await client.query<OwnerRow>(
          `SELECT t.id::text, t.agent_id::text, a.name AS agent_name FROM ${escapeIdentifier(parent.table)} t LEFT JOIN agents a ON a.id = t.agent_id WHERE t.id = ANY($1::uuid[])`,
          [[...wanted.keys()]],
        );
        const byId = new Map(found.map((row) => [row.id, row]));
        for (const [id, row] of wanted) {
          const owner = byId.get(id);
          if (!owner) notFound.push({ table: `upserts.${table}`, index: row.index, message: `${parent.column} ${id}: no such ${parent.table} row upstream; push it in this batch or before` });
          else if (owner.agent_id !== agent.id) {
            throw new PushRefused(403, `upserts.${table}[${row.index}]: ${parent.column} ${id} is a ${parent.table} row of ${ownerName(owner)}, not of agent "${agent.name}"`);
          }
        }
      }
    }
  }
  if (notFound.length > 0) throw invalid(notFound);
}

/** Errors that are about the data (a value PostgreSQL refuses): class 22 and 23. */
function isDataError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && /^2[23]/.test(code);
}

/**
 * Runs a table's statement on all its rows; when PostgreSQL refuses it, finds the rows it refuses one by
 * one (each in a savepoint), so the agent can hold back only those.
 */
async function runStatement(client: pg.PoolClient, sql: string, table: string, rows: Row[], agentParam: string[]): Promise<{ count: number; failed: PushFailure[] }> {
  await client.query('SAVEPOINT push_table');
  try {
    const result = await client.query(sql, [JSON.stringify(rows.map((row) => row.value)), ...agentParam]);
    await client.query('RELEASE SAVEPOINT push_table');
    return { count: result.rowCount ?? 0, failed: [] };
  } catch (error) {
    if (!isDataError(error)) throw error;
    await client.query('ROLLBACK TO SAVEPOINT push_table');
  }
  // Row by row, in passes: a row refused only because a row after it (its parent) was not in yet goes in
  // on the next pass; what no pass takes is refused.
  let pending = rows;
  let failed: PushFailure[] = [];
  for (;;) {
    const refused: Row[] = [];
    failed = [];
    for (const row of pending) {
      await client.query('SAVEPOINT push_row');
      try {
        await client.query(sql, [JSON.stringify([row.value]), ...agentParam]);
        await client.query('RELEASE SAVEPOINT push_row');
      } catch (error) {
        if (!isDataError(error)) throw error;
        await client.query('ROLLBACK TO SAVEPOINT push_row');
        refused.push(row);
        failed.push({ table, index: row.index, message: messageOf(error) });
      }
    }
    if (refused.length === 0 || refused.length === pending.length) break;
    pending = refused;
  }
  failed.sort((a, b) => a.index - b.index);
  // Rows refused only together (two rows of the batch claiming one name): the first row names it.
  if (failed.length === 0 && rows[0]) failed.push({ table, index: rows[0].index, message: 'the rows of this table are refused together (a unique name or key used twice in the batch?)' });
  return { count: 0, failed };
}

export interface PushResult {
  agent: PushAgent;
  accepted: Partial<Record<PushTable, number>>;
  deleted: Partial<Record<PushTable, number>>;
}

/** Applies a checked batch for `agent` in one transaction; throws PushRefused (nothing written) or answers the counts. */
export async function applyPush(pool: pg.Pool, agent: PushAgent, batch: PushBatch): Promise<PushResult> {
  if (batch.header.name !== agent.name) throw new PushRefused(403, `push for agent "${batch.header.name}" with the token of agent "${agent.name}"`);
  const statements = await statementsOf(pool);
  const client = await pool.connect();
  const accepted: PushResult['accepted'] = {};
  const deleted: PushResult['deleted'] = {};
  let rowsIn = 0;
  try {
    await client.query('BEGIN');
    // One push of an agent at a time: its batches apply in the order they arrive.
    await client.query('SELECT 1 FROM agents WHERE id = $1 FOR UPDATE', [agent.id]);
    await checkOwnership(client, agent, batch);
    for (const table of [...PUSH_TABLES].reverse()) {
      const rows = batch.deletes.get(table);
      if (!rows) continue;
      const def = TABLE_DEFS[table];
      const stmt = statements.get(table);
      if (!stmt) continue;
      const unique = dedupe(def, rows);
      const { count, failed } = await runStatement(client, stmt.delete, `deletes.${table}`, unique, [agent.id]);
      if (failed.length > 0) throw invalid(failed);
      deleted[table] = count;
      rowsIn += unique.length;
    }
    for (const table of PUSH_TABLES) {
      const rows = batch.upserts.get(table);
      if (!rows) continue;
      const def = TABLE_DEFS[table];
      const stmt = statements.get(table);
      if (!stmt) continue;
      const unique = dedupe(def, rows);
      const { failed } = await runStatement(client, stmt.upsert, `upserts.${table}`, unique, stmt.usesAgent ? [agent.id] : []);
      if (failed.length > 0) throw invalid(failed);
      accepted[table] = unique.length;
      rowsIn += unique.length;
    }
    const { header } = batch;
    await client.query(
      `UPDATE agents SET last_seen = now(), version = coalesce($2, version), hostname = coalesce($3, hostname),
              heartbeat_seconds = coalesce($4, heartbeat_seconds), last_received = CASE WHEN $5 THEN now() ELSE last_received END
        WHERE id = $1`,
      [agent.id, header.version, header.hostname, header.heartbeatSeconds, rowsIn > 0],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  return { agent, accepted, deleted };
}
