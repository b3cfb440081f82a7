import type pg from 'pg';
import type { Logger } from '../logger';
import { currentOrganization } from '../db/tenant';
import { Listener } from '../jobs/listener';
import { isEncrypted, type Keyring } from './keyring';

/** The channel migration 0017's triggers notify on every change of a connection, secret or config map. */
export const SECRETS_CHANNEL = 'watchkeeper_secrets';

/** A connection row as stored: secret fields still encrypted or references. */
export interface StoredConnection {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecure_tls: boolean;
  properties: Record<string, unknown>;
}

interface Entry<T> {
  value: T | undefined;
  at: number;
}

/**
 * Reads connections, secrets and config maps for the runs that use them, through a cache: a check that
 * runs every 30 s reads its connection from memory. Every instance listens on SECRETS_CHANNEL, so a
 * change anywhere drops the entry everywhere at once; entries also expire after `ttlMs` in case a
 * notification was missed (a lost LISTEN connection clears everything on reconnect).
 * Secret values stay encrypted in the cache; they are decrypted for each use.
 */
export class SecretStore {
  private readonly cache = new Map<string, Entry<unknown>>();
  private listener: Listener | undefined;
  /**
   * Where this store looks things up, named by the messages of what it cannot find (`agent "edge-1"`: an
   * agent resolving the references of an action upstream gave it); unset on the console's own store.
   */
  readonly place: string | undefined = undefined;

  constructor(
    readonly pool: pg.Pool,
    readonly keyring: Keyring,
    private readonly ttlMs = 60_000,
  ) {}

  /** This store (the same database and cache) whose lookups that find nothing say they were made at `place`. */
  at(place: string): SecretStore {
    return Object.create(this, { place: { value: place, enumerable: true } }) as SecretStore;
  }

  encrypt(plain: string): string {
    return this.keyring.encrypt(plain);
  }

  /** A stored text in clear: encrypted values decrypted, anything else as it is. */
  reveal(stored: string): string {
    return isEncrypted(stored) ? this.keyring.decrypt(stored) : stored;
  }

  private async cached<T>(name: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    // Each organization has its own names (hosted mode): its entries are its own. An invalidation names
    // `secrets:ns/name` or `connections:ns/name`, and drops that name for every organization.
    const key = `${name}:${currentOrganization() ?? 'console'}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.value as T | undefined;
    const value = await load();
    // Only what exists is kept: a secret created after a run that missed it is read by the next run.
    if (value !== undefined) this.cache.set(key, { value, at: Date.now() });
    else this.cache.delete(key);
    return value;
  }

  /** The data of a Secret (values still encrypted) or ConfigMap; undefined when there is none of that name. */
  data(kind: 'Secret' | 'ConfigMap', namespace: string, name: string): Promise<Record<string, string> | undefined> {
    return this.cached(`secrets:${namespace}/${name}:${kind}`, async () => {
      const { rows } = await this.pool.query<{ data: Record<string, string> }>('SELECT data FROM secrets WHERE kind = $1 AND namespace = $2 AND name = $3 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [kind, namespace, name]);
      return rows[0]?.data;
    });
  }

  /** Helm release secrets of a release (labels owner=helm, name=<release>), newest version first. */
  helmReleases(namespace: string, release: string): Promise<Array<Record<string, string>> | undefined> {
    return this.cached(`helm:${namespace}/${release}`, async () => {
      const { rows } = await this.pool.query<{ data: Record<string, string> }>(
        `SELECT data FROM secrets WHERE kind = 'Secret' AND namespace = $1 AND deleted_at IS NULL AND labels->>'owner' = 'helm' AND labels->>'name' = $2
         ORDER BY CASE WHEN labels->>'version' ~ '^[0-9]+$' THEN (labels->>'version')::int ELSE 0 END DESC`,
        [namespace, release],
      );
      return rows.map((row) => row.data);
    });
  }

  connection(namespace: string, name: string): Promise<StoredConnection | undefined> {
    return this.cached(`connections:${namespace}/${name}`, async () => {
      const { rows } = await this.pool.query<StoredConnection>(
        'SELECT id, name, namespace, type, url, username, password, certificate, insecure_tls, properties FROM connections WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL',
        [namespace, name],
      );
      return rows[0];
    });
  }

  /** Drops what a notification names (`secrets:ns/name`, `connections:ns/name`), or everything. */
  invalidate(payload?: string): void {
    if (!payload) {
      this.cache.clear();
      return;
    }
    for (const key of this.cache.keys()) {
      if (key === payload || key.startsWith(`${payload}:`)) this.cache.delete(key);
      // A helm release's secrets: any change of a secret in that namespace may be a new revision.
      else if (payload.startsWith('secrets:') && key.startsWith(`helm:${payload.slice('secrets:'.length).split('/')[0]}/`)) this.cache.delete(key);
    }
  }

  /** Follows changes made by any instance (serve calls it once). */
  async listen(log: Logger): Promise<() => Promise<void>> {
    const listener = new Listener(this.pool, log);
    listener.on(SECRETS_CHANNEL, (payload) => this.invalidate(payload));
    await listener.start();
    this.listener = listener;
    return async () => {
      await listener.stop();
      this.listener = undefined;
    };
  }

  get listening(): boolean {
    return this.listener !== undefined;
  }
}
