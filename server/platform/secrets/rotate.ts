import type pg from 'pg';
import { addKey, isEncrypted, Keyring, retireKeys } from './keyring';

const BATCH = 1000;

export interface RotateResult {
  /** The id of the key every value is now encrypted with. */
  key: string;
  /** Values written again under it. */
  reencrypted: number;
  /** Keys taken out of the key file (with `retire`): no value uses them any more. */
  retired: string[];
  /** Values still under another key (written by an instance during the run); a later rotate takes them. */
  remaining: number;
}

function again(keyring: Keyring, value: unknown, count: { n: number }): unknown {
  if (!isEncrypted(value) || Keyring.keyIdOf(value) === keyring.activeId) return value;
  count.n += 1;
  return keyring.encrypt(keyring.decrypt(value));
}

function againMap(keyring: Keyring, map: Record<string, unknown>, count: { n: number }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, again(keyring, value, count)]));
}

/** Encrypts one batch of connections (after `after`, by id) again with the newest key; answers the batch's last id. */
async function rotateConnections(client: pg.PoolClient, keyring: Keyring, after: string, count: { n: number }): Promise<string | undefined> {
  const { rows } = await client.query<{ id: string; url: string | null; username: string | null; password: string | null; certificate: string | null; properties: Record<string, unknown> }>(
    'SELECT id, url, username, password, certificate, properties FROM connections WHERE id > $1 ORDER BY id LIMIT $2 FOR UPDATE',
    [after, BATCH],
  );
  const before = count.n;
  const changed = rows.map((row) => ({
    id: row.id,
    url: again(keyring, row.url, count),
    username: again(keyring, row.username, count),
    password: again(keyring, row.password, count),
    certificate: again(keyring, row.certificate, count),
    properties: JSON.stringify(againMap(keyring, row.properties, count)),
  }));
  if (count.n > before) {
    await client.query(
      `UPDATE connections c SET url = u.url, username = u.username, password = u.password, certificate = u.certificate, properties = u.properties::jsonb
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(id, url, username, password, certificate, properties) WHERE c.id = u.id`,
      [changed.map((r) => r.id), changed.map((r) => r.url), changed.map((r) => r.username), changed.map((r) => r.password), changed.map((r) => r.certificate), changed.map((r) => r.properties)],
    );
  }
  return rows.at(-1)?.id;
}

/** Encrypts one batch of Secrets' data (after `after`, by id) again with the newest key; answers the batch's last id. */
async function rotateSecretData(client: pg.PoolClient, keyring: Keyring, after: string, count: { n: number }): Promise<string | undefined> {
  const { rows } = await client.query<{ id: string; data: Record<string, unknown> }>('SELECT id, data FROM secrets WHERE id > $1 ORDER BY id LIMIT $2 FOR UPDATE', [after, BATCH]);
  const before = count.n;
  const changed = rows.map((row) => ({ id: row.id, data: JSON.stringify(againMap(keyring, row.data, count)) }));
  if (count.n > before) {
    await client.query('UPDATE secrets s SET data = u.data::jsonb FROM unnest($1::uuid[], $2::text[]) AS u(id, data) WHERE s.id = u.id', [changed.map((r) => r.id), changed.map((r) => r.data)]);
  }
  return rows.at(-1)?.id;
}

/**
 * `watchkeeper secrets rotate`: a new key becomes the one values are written with, and every stored
 * secret is re-encrypted under it, a batch of rows per transaction, while the console keeps running
 * (instances read the key file again when it changes, and still hold the old keys to read what is not
 * re-encrypted yet). With `retire`, keys no value uses any more leave the key file afterwards.
 */
export async function rotateSecrets(pool: pg.Pool, dataDir: string, options: { retire?: boolean; keyring?: Keyring } = {}): Promise<RotateResult> {
  const keyring = options.keyring ?? addKey(dataDir);
  const count = { n: 0 };
  for (const table of ['connections', 'secrets'] as const) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const client = await pool.connect();
      let last: string | undefined;
      try {
        await client.query('BEGIN');
        last = table === 'connections' ? await rotateConnections(client, keyring, after, count) : await rotateSecretData(client, keyring, after, count);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      if (!last) break;
      after = last;
    }
  }
  const inUse = await keysInUse(pool);
  const remaining = [...inUse.entries()].filter(([id]) => id !== keyring.activeId).reduce((sum, [, n]) => sum + n, 0);
  const retired = options.retire ? retireKeys(dataDir, [...inUse.keys()]) : [];
  return { key: keyring.activeId, reencrypted: count.n, retired, remaining };
}

/** How many stored values each key encrypts. */
export async function keysInUse(pool: pg.Pool): Promise<Map<string, number>> {
  const { rows } = await pool.query<{ kid: string; n: string }>(
    `SELECT split_part(v, ':', 3) AS kid, count(*) AS n FROM (
       SELECT unnest(ARRAY[url, username, password, certificate]) AS v FROM connections
       UNION ALL SELECT value #>> '{}' FROM connections, jsonb_each(properties)
       UNION ALL SELECT value #>> '{}' FROM secrets, jsonb_each(data)
     ) values_ WHERE v LIKE 'wk:%' GROUP BY 1`,
  );
  return new Map(rows.map((row) => [row.kid, Number(row.n)]));
}
