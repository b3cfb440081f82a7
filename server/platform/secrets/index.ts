import path from 'node:path';
import type pg from 'pg';
import { secureDataDirSync } from '../data-dir';
import { loadKeyring, type Keyring } from './keyring';
import { SecretStore } from './store';

export { SecretStore, SECRETS_CHANNEL, type StoredConnection } from './store';
export { Keyring, KeyringError, isEncrypted, loadKeyring, KEY_FILE, SECRET_KEY_ENV } from './keyring';

/**
 * The secrets service of this process: one keyring (server/platform/secrets/keyring.ts) and one
 * SecretStore per database pool. `serve`, `apply` and the other commands call initSecrets with the data
 * directory first; a process that did not (a tool, a test) reads WATCHKEEPER_SECRET_KEY or ./data.
 */
let keyring: Keyring | undefined;
let keyringDir: string | undefined;
const stores = new WeakMap<pg.Pool, SecretStore>();

export function initSecrets(dataDir: string): Keyring {
  const dir = path.resolve(dataDir);
  if (!keyring || keyringDir !== dir) {
    keyring = loadKeyring(dir);
    keyringDir = dir;
    // Made by earlier versions with the default mode, or just now: scripts must not read it (docs/OPERATIONS.md).
    secureDataDirSync(dir);
  }
  return keyring;
}

export function processKeyring(): Keyring {
  return keyring ?? initSecrets(process.env.WATCHKEEPER_DATA ?? './data');
}

/** The store that reads secrets and connections of this pool's database (cached, see SecretStore). */
export function secretStore(pool: pg.Pool): SecretStore {
  let store = stores.get(pool);
  if (!store || store.keyring !== processKeyring()) {
    store = new SecretStore(pool, processKeyring());
    stores.set(pool, store);
  }
  return store;
}
