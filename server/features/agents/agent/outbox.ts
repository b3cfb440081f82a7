import type pg from 'pg';
import { PUSH_TABLES } from '../tables';

/**
 * The tables an agent pushes upstream, in the order upstream applies them (foreign keys first): the same
 * list upstream reads a push with (../tables.ts). The wire format is described in docs/AGENTS.md and
 * docs/API.md.
 */
export const PUSHED_TABLES = PUSH_TABLES;
export type PushedTable = (typeof PUSHED_TABLES)[number];

/** Notified (once per writing transaction) when rows were queued: the pusher wakes at once. */
export const AGENT_PUSH_CHANNEL = 'watchkeeper_agent_push';

/** Serialises trigger installs of several instances sharing one database. */
const INSTALL_LOCK = 4_242_026;

const TRIGGERS = ['agent_push_insert', 'agent_push_update', 'agent_push_delete'] as const;

export interface TableInfo {
  name: PushedTable;
  /** Primary key columns with their SQL types, in key order. */
  key: Array<{ name: string; type: string }>;
  /** A jsonb `spec` column: pushed with its secrets redacted (no secret leaves the server). */
  hasSpec: boolean;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** Each pushed table's primary key as the database has it (read, not assumed). */
export async function readTableInfo(db: pg.Pool | pg.PoolClient): Promise<Map<PushedTable, TableInfo>> {
  const { rows } = await db.query<{ table_name: PushedTable; key: Array<{ name: string; type: string }>; has_spec: boolean }>(
    `SELECT c.relname AS table_name,
            (SELECT jsonb_agg(jsonb_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)) ORDER BY k.ord)
               FROM unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum) AS key,
            EXISTS (SELECT 1 FROM pg_attribute s WHERE s.attrelid = c.oid AND s.attname = 'spec' AND s.atttypid = 'jsonb'::regtype AND NOT s.attisdropped) AS has_spec
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
       JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
      WHERE c.relname = ANY($1)`,
    [PUSHED_TABLES],
  );
  const info = new Map<PushedTable, TableInfo>();
  for (const row of rows) info.set(row.table_name, { name: row.table_name, key: row.key, hasSpec: row.has_spec });
  for (const table of PUSHED_TABLES) tableInfoOf(info, table);
  return info;
}

/** One table's info from readTableInfo (which has every pushed table's). */
function tableInfoOf(info: Map<PushedTable, TableInfo>, table: PushedTable): TableInfo {
  const found = info.get(table);
  if (!found) throw new Error(`table ${table} has no primary key; the agent cannot push it`);
  return found;
}

/**
 * The queueing function of one table: statement-level, reading the transition tables, so a bulk write
 * queues its rows in one INSERT. An UPDATE that changes nothing (same bytes) queues nothing; an UPDATE of
 * a key queues the old key as a delete. Rows are queued in the order of the statement.
 */
function enqueueFunctionSql(info: TableInfo): string {
  const keyOf = (alias: string) => `jsonb_build_object(${info.key.map((column) => `${literal(column.name)}, ${alias}.${ident(column.name)}`).join(', ')})`;
  const same = info.key.map((column) => `o.${ident(column.name)} = n.${ident(column.name)}`).join(' AND ');
  const table = literal(info.name);
  return `CREATE OR REPLACE FUNCTION ${ident(`agent_push_enqueue_${info.name}`)}() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  queued bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO agent_push_queue (table_name, row_key, op) SELECT ${table}, ${keyOf('n')}, 'upsert' FROM agent_push_new n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO agent_push_queue (table_name, row_key, op)
      SELECT ${table}, ${keyOf('n')}, 'upsert' FROM agent_push_new n
        WHERE NOT EXISTS (SELECT 1 FROM agent_push_old o WHERE ${same} AND o *= n)
      UNION ALL
      SELECT ${table}, ${keyOf('o')}, 'delete' FROM agent_push_old o
        WHERE NOT EXISTS (SELECT 1 FROM agent_push_new n WHERE ${same});
  ELSE
    INSERT INTO agent_push_queue (table_name, row_key, op) SELECT ${table}, ${keyOf('o')}, 'delete' FROM agent_push_old o;
  END IF;
  GET DIAGNOSTICS queued = ROW_COUNT;
  IF queued > 0 THEN
    PERFORM pg_notify(${literal(AGENT_PUSH_CHANNEL)}, '');
  END IF;
  RETURN NULL;
END
$fn$`;
}

function triggerSql(info: TableInfo): string[] {
  const table = ident(info.name);
  const fn = ident(`agent_push_enqueue_${info.name}`);
  return [
    enqueueFunctionSql(info),
    `CREATE OR REPLACE TRIGGER agent_push_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS agent_push_new FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE OR REPLACE TRIGGER agent_push_update AFTER UPDATE ON ${table} REFERENCING OLD TABLE AS agent_push_old NEW TABLE AS agent_push_new FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    `CREATE OR REPLACE TRIGGER agent_push_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS agent_push_old FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
  ];
}

/** How a full refill orders a table's rows, so that parents are queued before their children. */
const REFILL_ORDER: Partial<Record<PushedTable, string>> = {
  config_items: 'length(t.path), t.created_at',
  checks: 't.transformed_from IS NOT NULL, t.created_at',
  components: 't.parent_id IS NOT NULL, t.created_at',
  check_statuses: 't.time',
  config_changes: 't.created_at',
  job_history: 't.time_start',
};

async function installedTriggerCount(db: pg.Pool | pg.PoolClient): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE t.tgname = ANY($1) AND c.relname = ANY($2) AND NOT t.tgisinternal`,
    [TRIGGERS, PUSHED_TABLES],
  );
  return rows[0]?.n ?? 0;
}

export interface InstallResult {
  /** Rows queued by a refill (the triggers were missing, or the upstream or agent name changed). */
  refilled: number;
}

/**
 * Creates (or replaces) the queueing triggers on every pushed table. When they were not all there before
 * (first start as an agent, or a start as a plain console dropped them), or the queue was filled for
 * another upstream or agent name, every existing row is queued, parents first: the upstream gets the
 * whole state, and nothing written while the triggers were missing is lost. One transaction: writers wait
 * for it, so no write falls between the refill and the triggers.
 */
export async function installOutbox(pool: pg.Pool, target: { upstream: string; agentName: string }): Promise<InstallResult> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [INSTALL_LOCK]);
    const info = await readTableInfo(client);
    const complete = (await installedTriggerCount(client)) === PUSHED_TABLES.length * TRIGGERS.length;
    const state = await client.query<{ upstream: string | null; agent_name: string | null }>('SELECT upstream, agent_name FROM agent_push_state');
    const same = state.rows[0]?.upstream === target.upstream && state.rows[0]?.agent_name === target.agentName;
    for (const table of PUSHED_TABLES) {
      for (const statement of triggerSql(tableInfoOf(info, table))) await client.query(statement);
    }
    let refilled = 0;
    if (!complete || !same) {
      // The old queue was meant for what the state row names; the refill covers every row anyway.
      await client.query('DELETE FROM agent_push_queue');
      for (const table of PUSHED_TABLES) {
        const tableInfo = tableInfoOf(info, table);
        const key = `jsonb_build_object(${tableInfo.key.map((column) => `${literal(column.name)}, t.${ident(column.name)}`).join(', ')})`;
        const order = REFILL_ORDER[table];
        const result = await client.query(
          `INSERT INTO agent_push_queue (table_name, row_key, op) SELECT ${literal(table)}, ${key}, 'upsert' FROM ${ident(table)} t${order ? ` ORDER BY ${order}` : ''}`,
        );
        refilled += result.rowCount ?? 0;
      }
      await client.query(
        `INSERT INTO agent_push_state (id, upstream, agent_name, agent_id, updated_at) VALUES (true, $1, $2, NULL, now())
         ON CONFLICT (id) DO UPDATE SET upstream = $1, agent_name = $2, agent_id = NULL, updated_at = now()`,
        [target.upstream, target.agentName],
      );
    }
    await client.query('COMMIT');
    return { refilled };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A console that is not an agent: the triggers go (when there), the queue is emptied. Nothing is taken
 * when there is nothing to drop, so a plain console's start locks no table.
 */
export async function removeOutbox(pool: pg.Pool): Promise<boolean> {
  if ((await installedTriggerCount(pool)) === 0) {
    await pool.query('DELETE FROM agent_push_queue WHERE true');
    return false;
  }
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [INSTALL_LOCK]);
    for (const table of PUSHED_TABLES) {
      for (const trigger of TRIGGERS) await client.query(`DROP TRIGGER IF EXISTS ${trigger} ON ${ident(table)}`);
      await client.query(`DROP FUNCTION IF EXISTS ${ident(`agent_push_enqueue_${table}`)}()`);
    }
    await client.query('DELETE FROM agent_push_queue');
    await client.query('COMMIT');
    return true;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export interface QueueEntry {
  seq: string;
  table: PushedTable;
  key: Record<string, unknown>;
}

/** One row to push: its key, every queue seq it stands for, and (after loading) its current data. */
export interface PendingRow {
  table: PushedTable;
  key: Record<string, unknown>;
  seqs: string[];
  /** The row as row_to_json gives it (JSON text), or undefined when it is gone (a delete). */
  row?: string;
}

/**
 * The oldest queue entries, coalesced per key in the order each key was first queued: a key changed ten
 * times is pushed once, as it is now.
 */
export async function readQueue(db: pg.Pool | pg.PoolClient, limit: number): Promise<PendingRow[]> {
  const { rows } = await db.query<{ seq: string; table_name: PushedTable; row_key: Record<string, unknown>; key_text: string }>(
    'SELECT q.seq::text AS seq, q.table_name, q.row_key, q.row_key::text AS key_text FROM agent_push_queue q ORDER BY q.seq LIMIT $1',
    [limit],
  );
  const byKey = new Map<string, PendingRow>();
  for (const row of rows) {
    const id = `${row.table_name}\u0000${row.key_text}`;
    const found = byKey.get(id);
    if (found) found.seqs.push(row.seq);
    else byKey.set(id, { table: row.table_name, key: row.row_key, seqs: [row.seq] });
  }
  return [...byKey.values()];
}

/** Loads the current rows of the pending keys (one query per table); a key without a row stays a delete. */
export async function loadRows(db: pg.Pool | pg.PoolClient, info: Map<PushedTable, TableInfo>, pending: PendingRow[]): Promise<void> {
  const byTable = new Map<PushedTable, PendingRow[]>();
  for (const row of pending) {
    const list = byTable.get(row.table);
    if (list) list.push(row);
    else byTable.set(row.table, [row]);
  }
  for (const [table, rows] of byTable) {
    const tableInfo = info.get(table);
    if (!tableInfo) continue;
    const columns = tableInfo.key.map((column) => `${ident(column.name)} ${column.type}`).join(', ');
    const join = tableInfo.key.map((column) => `t.${ident(column.name)} = k.${ident(column.name)}`).join(' AND ');
    const shape = tableInfo.hasSpec ? `(to_jsonb(t) || jsonb_build_object('spec', redact_secrets(t.spec)))::text` : 'row_to_json(t)::text';
    const { rows: found } = await db.query<{ ord: string; row: string }>(
      `SELECT k.ord::text AS ord, ${shape} AS row
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (${columns})) WITH ORDINALITY AS k(${tableInfo.key.map((column) => ident(column.name)).join(', ')}, ord)
         JOIN ${ident(table)} t ON ${join}`,
      [JSON.stringify(rows.map((row) => row.key))],
    );
    for (const row of rows) delete row.row;
    for (const item of found) {
      const target = rows[Number(item.ord) - 1];
      if (target) target.row = item.row;
    }
  }
}

/** Removes the queue entries upstream accepted (by seq: a change queued since stays queued). */
export async function dequeue(db: pg.Pool | pg.PoolClient, rows: PendingRow[]): Promise<void> {
  const seqs = rows.flatMap((row) => row.seqs);
  if (seqs.length === 0) return;
  await db.query('DELETE FROM agent_push_queue WHERE seq = ANY($1::bigint[])', [seqs]);
}
