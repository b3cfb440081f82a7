import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../platform/context';
import { messageOf } from '../../platform/errors';
import { inTransaction } from '../../platform/jobs/db';
import { ROOT } from '../../platform/paths';
import { saveScraper } from './scrapers';

/**
 * `serve --demo`: two scrapers in the `demo` namespace (source Demo, read-only in the editor).
 * - demo/kubernetes-cluster reads a copy of examples/catalog/demo-cluster (a small shop's manifests) in the
 *   data directory every minute: edit a file there and the next scrape records the change with its diff.
 * - demo/console-database reads this console's own PostgreSQL: the database and the definition of each of
 *   its tables, as a least-privileged role made for it (it can read the system catalogs, no table).
 * Both run at once on start; nothing in them is invented.
 */
export const DEMO_NAMESPACE = 'demo';
export const DEMO_READER_ROLE = 'watchkeeper_demo_reader';
export const DEMO_MANIFESTS = path.join(ROOT, 'examples', 'catalog', 'demo-cluster');

/** The manifests folder the demo scrapes: copied once, so the user's edits survive restarts. */
export async function demoManifestsFolder(dataDir: string): Promise<string> {
  const folder = path.join(dataDir, 'demo', 'kubernetes');
  const exists = await fs.access(folder).then(() => true, () => false);
  if (!exists) await fs.cp(DEMO_MANIFESTS, folder, { recursive: true });
  return folder;
}

export function kubernetesDemoSpec(folder: string): Record<string, unknown> {
  return {
    schedule: '@every 1m',
    kubernetesFile: [
      {
        paths: [folder],
        tags: { cluster: 'demo' },
        transform: {
          relationship: [
            // A Service fronts the workload of the same name in its namespace.
            { filter: "config.kind == 'Service'", type: 'Kubernetes::Deployment', name: { expr: 'config.metadata.name' }, namespace: { expr: 'config.metadata.namespace' }, relation: 'routes to' },
            { filter: "config.kind == 'Service'", type: 'Kubernetes::StatefulSet', name: { expr: 'config.metadata.name' }, namespace: { expr: 'config.metadata.namespace' }, relation: 'routes to' },
          ],
        },
      },
    ],
  };
}

const DATABASE_QUERY = `SELECT current_database() AS name, split_part(version(), ' on ', 1) AS version,
  pg_encoding_to_char(d.encoding) AS encoding, d.datcollate AS collation,
  current_setting('max_connections')::int AS max_connections, current_setting('shared_buffers') AS shared_buffers,
  current_setting('TimeZone') AS timezone, pg_postmaster_start_time() AS started_at
FROM pg_database d WHERE d.datname = current_database()`;

const TABLES_QUERY = `SELECT c.relname AS name, n.nspname AS schema,
  CASE c.relkind WHEN 'v' THEN 'PostgreSQL::View' WHEN 'm' THEN 'PostgreSQL::View' ELSE 'PostgreSQL::Table' END AS type,
  obj_description(c.oid, 'pg_class') AS description,
  (SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'nullable', NOT a.attnotnull,
                                     'default', pg_get_expr(ad.adbin, ad.adrelid)) ORDER BY a.attnum)
     FROM pg_attribute a LEFT JOIN pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
    WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns,
  (SELECT json_agg(json_build_object('name', i.relname, 'definition', pg_get_indexdef(x.indexrelid)) ORDER BY i.relname)
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = c.oid) AS indexes,
  (SELECT json_agg(json_build_object('name', k.conname, 'definition', pg_get_constraintdef(k.oid)) ORDER BY k.conname)
     FROM pg_constraint k WHERE k.conrelid = c.oid) AS constraints
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm')
ORDER BY c.relname`;

export function databaseDemoSpec(url: string, password: string, database: string): Record<string, unknown> {
  const auth = { username: DEMO_READER_ROLE, password };
  return {
    schedule: '@every 5m',
    sql: [
      { connection: url, auth, query: DATABASE_QUERY, type: 'PostgreSQL::Database', id: '$.name', name: '$.name', class: 'Database', tags: { database: database } },
      {
        connection: url,
        auth,
        query: TABLES_QUERY,
        type: '$.type',
        id: { expr: "config.schema + '.' + config.name" },
        name: '$.name',
        class: 'Table',
        description: '$.description',
        tags: { database, schema: '$.schema' },
        transform: { relationship: [{ type: 'PostgreSQL::Database', name: database, parent: true }] },
      },
    ],
  };
}

/** host:port and database of the app's own pool, as a URL without credentials. */
function ownDatabase(ctx: AppContext): { url: string; database: string } | undefined {
  const options = ctx.pool.options;
  if (options.connectionString) {
    try {
      const url = new URL(options.connectionString);
      const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'postgres';
      return { url: `postgres://${url.host}/${encodeURIComponent(database)}${url.search}`, database };
    } catch {
      return undefined;
    }
  }
  if (!options.host || !options.database) return undefined;
  return { url: `postgres://${options.host}:${options.port ?? 5432}/${encodeURIComponent(options.database)}`, database: options.database };
}

/** Creates (or keeps) the demo reader role with the given password; false when the console may not create roles. */
async function ensureReaderRole(ctx: AppContext, password: string): Promise<boolean> {
  try {
    await ctx.pool.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${DEMO_READER_ROLE}') THEN CREATE ROLE ${DEMO_READER_ROLE}; END IF;
    END $$`);
    // The password is random base64url (no quote can occur): DDL takes no parameters.
    await ctx.pool.query(`ALTER ROLE ${DEMO_READER_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE CONNECTION LIMIT 3 PASSWORD '${password}'`);
    return true;
  } catch (error) {
    ctx.log.warn({ err: messageOf(error) }, `the demo database scraper needs a role ${DEMO_READER_ROLE}, which this database user may not create; it is left out`);
    return false;
  }
}

/** Applies the demo scrapers and schedules their first run now; answers what was added. */
export async function applyCatalogDemo(ctx: AppContext): Promise<string> {
  const folder = await demoManifestsFolder(ctx.config.dataDir);
  const scrapers: Array<{ name: string; labels: Record<string, string>; spec: Record<string, unknown>; description: string }> = [
    { name: 'kubernetes-cluster', labels: { team: 'platform' }, spec: kubernetesDemoSpec(folder), description: `Kubernetes manifests of a small shop, read from ${folder}` },
  ];
  const own = ownDatabase(ctx);
  if (own) {
    const previous = await ctx.pool.query<{ password: unknown }>(
      "SELECT spec #>> '{sql,0,auth,password}' AS password FROM config_scrapers WHERE namespace = $1 AND name = 'console-database' AND deleted_at IS NULL",
      [DEMO_NAMESPACE],
    );
    const kept = previous.rows[0]?.password;
    const password = typeof kept === 'string' && /^[A-Za-z0-9_-]{24,}$/.test(kept) ? kept : randomBytes(24).toString('base64url');
    if (await ensureReaderRole(ctx, password)) {
      scrapers.push({ name: 'console-database', labels: { team: 'platform' }, spec: databaseDemoSpec(own.url, password, own.database), description: "This console's own PostgreSQL: the database and its tables' definitions" });
    }
  }
  const ids: string[] = [];
  for (const scraper of scrapers) {
    const saved = await inTransaction(ctx.pool, (client) => saveScraper(client, { ...scraper, namespace: DEMO_NAMESPACE, source: 'Demo' }));
    ids.push(saved.id);
  }
  await ctx.pool.query('UPDATE config_scrapers SET next_run_at = now() WHERE id = ANY($1::uuid[])', [ids]);
  return `${ids.length} demo scrapers in the namespace "${DEMO_NAMESPACE}" (Kubernetes manifests in ${folder}${ids.length > 1 ? " and this console's database" : ''})`;
}
