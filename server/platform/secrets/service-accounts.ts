import type pg from 'pg';

/**
 * canary-checker's `valueFrom.serviceAccount: <name>` asks Kubernetes for a token of a service account.
 * Here the console issues it: an API token acting for the account named (a person of this console, by
 * email), read-only, valid for an hour. The identity feature registers the issuer; tokens are reused
 * until ten minutes before they expire, so a check every minute does not make a token a minute.
 */
export type ServiceAccountIssuer = (pool: pg.Pool, account: string) => Promise<{ token: string; expiresAt: Date } | undefined>;

let issuer: ServiceAccountIssuer | undefined;
const issued = new WeakMap<pg.Pool, Map<string, { token: string; expiresAt: Date }>>();
const REUSE_MARGIN_MS = 10 * 60_000;

export function registerServiceAccountIssuer(next: ServiceAccountIssuer): void {
  issuer = next;
}

/** A token for the account, or undefined when no account has that name (or no issuer is registered). */
export async function serviceAccountToken(pool: pg.Pool, account: string): Promise<string | undefined> {
  let cache = issued.get(pool);
  if (!cache) {
    cache = new Map();
    issued.set(pool, cache);
  }
  const hit = cache.get(account);
  if (hit && hit.expiresAt.getTime() - Date.now() > REUSE_MARGIN_MS) return hit.token;
  const fresh = issuer ? await issuer(pool, account) : undefined;
  if (!fresh) {
    cache.delete(account);
    return undefined;
  }
  cache.set(account, fresh);
  return fresh.token;
}
