import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Organizations that share this server's database (hosted mode, an organization without a backend URL,
 * docs/HOSTED.md "Row-level security"): the work done for one runs inside `inOrganization(id, fn)`. Every
 * connection the pool hands out inside it is switched to the role `watchkeeper_tenant` (which owns no
 * table, so the policies of migration 0035 apply to it) with `watchkeeper.organization` set to the
 * organization; outside it, the connection is this server's own user again. The switch is one statement
 * when a connection changes hands between organizations and none when it does not.
 */

export const TENANT_ROLE = 'watchkeeper_tenant';

interface TenantScope {
  organizationId: string;
}

const scope = new AsyncLocalStorage<TenantScope>();

/** The organization whose work is running, if any. */
export function currentOrganization(): string | undefined {
  return scope.getStore()?.organizationId;
}

/** Runs `fn` (and everything it starts) for one organization: its queries see that organization's rows only. */
export function inOrganization<T>(organizationId: string, fn: () => T): T {
  return scope.run({ organizationId }, fn);
}

/** Runs `fn` in the scope of the organization a row belongs to, or as this server for a row of none. */
export function inOrganizationOf<T>(organizationId: string | null | undefined, fn: () => T): T {
  return organizationId ? scope.run({ organizationId }, fn) : scope.exit(fn);
}

/** Runs `fn` as this server itself (a worker that serves every organization): no organization's scope. */
export function outsideOrganizations<T>(fn: () => T): T {
  return scope.exit(fn);
}

/**
 * Runs `fn` on `client` as this server's own user for the rest of its statements, inside the caller's
 * transaction: DDL an organization's work needs (a view's table) that the tenant role may not do. `fn`
 * must not read organizations' rows: it would see all of them.
 */
export async function asServer<T>(client: pg.PoolClient, fn: () => Promise<T>): Promise<T> {
  const { rows } = await client.query<{ role: string }>("SELECT current_setting('role') AS role");
  const role = rows[0]?.role ?? 'none';
  if (role === 'none') return fn();
  await client.query("SELECT set_config('role', 'none', true)");
  try {
    return await fn();
  } finally {
    // After an error the transaction is aborted and its rollback restores the role anyway.
    await client.query("SELECT set_config('role', $1, true)", [role]).catch(() => undefined);
  }
}

const applied = new WeakMap<pg.PoolClient, string>();

/** Puts a client into the scope of the running work (one statement, only when it changes). */
async function align(client: pg.PoolClient): Promise<void> {
  const want = currentOrganization() ?? '';
  if ((applied.get(client) ?? '') === want) return;
  if (want) {
    await client.query(`SELECT set_config('role', '${TENANT_ROLE}', false), set_config('watchkeeper.organization', $1, false)`, [want]);
  } else {
    await client.query("SELECT set_config('role', 'none', false), set_config('watchkeeper.organization', '', false)");
  }
  applied.set(client, want);
}

type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, release: (release?: unknown) => void) => void;

/**
 * Makes every connection of `pool` (pool.connect, pool.query, Kysely over it) follow the running scope.
 * A connection that cannot be switched is released with the error and the caller gets the error.
 */
export function scopeConnections(pool: pg.Pool): pg.Pool {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const scoped = async (): Promise<pg.PoolClient> => {
    const client = await connect();
    try {
      await align(client);
    } catch (error) {
      applied.delete(client);
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    return client;
  };
  // pg-pool's own query() calls this.connect(callback): both forms go through the scope.
  Object.defineProperty(pool, 'connect', {
    configurable: true,
    writable: true,
    value: (callback?: ConnectCallback) => {
      if (!callback) return scoped();
      scoped().then(
        (client) => callback(undefined, client, (release?: unknown) => client.release(release instanceof Error ? release : Boolean(release))),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), undefined, () => undefined),
      );
      return undefined;
    },
  });
  return pool;
}
