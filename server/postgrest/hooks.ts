import type pg from 'pg';
import type { Actor } from '../platform/auth/types';
import type { AfterWrite, RelationDef } from './registry';

/**
 * What features add to /api/db (docs/ARCHITECTURE.md "Layers"): postgrest is platform-level and imports no
 * feature, so a feature gives its hooks in `Feature.postgrestHooks` and the app registers them when it
 * composes (server/app.ts). The relations ask for them by name when a request runs.
 */
export interface PostgrestHooks {
  /** Runs in a write's transaction after rows of the named relation changed (e.g. `incidents`). */
  afterWrite?: Readonly<Record<string, AfterWrite>>;
  /** The ids of the rows of a row-scoped kind (RelationDef.rowScope) the actor may read; undefined: all. */
  rowScope?: Readonly<Partial<Record<RowScopeKind, (pool: pg.Pool, actor: Actor) => Promise<readonly string[] | undefined>>>>;
}

type RowScopeKind = NonNullable<RelationDef['rowScope']>;

const afterWrites = new Map<string, AfterWrite>();
const rowScopes = new Map<RowScopeKind, NonNullable<PostgrestHooks['rowScope']>[RowScopeKind]>();

function put<K, V>(map: Map<K, V>, key: K, value: V, what: string): void {
  const known = map.get(key);
  if (known !== undefined && known !== value) throw new Error(`/api/db: two ${what} hooks for ${String(key)}`);
  map.set(key, value);
}

/** Registers a feature's hooks; registering the same hook again (another app in the process) changes nothing. */
export function registerPostgrestHooks(hooks: PostgrestHooks): void {
  for (const [relation, hook] of Object.entries(hooks.afterWrite ?? {})) put(afterWrites, relation, hook, 'afterWrite');
  for (const [kind, hook] of Object.entries(hooks.rowScope ?? {})) if (hook) put(rowScopes, kind as RowScopeKind, hook, 'rowScope');
}

/** The relation's afterWrite, resolved when a write runs; a write with no hook registered fails rather than skip it. */
export function registeredAfterWrite(relation: string): AfterWrite {
  return async (client, write) => {
    const hook = afterWrites.get(relation);
    if (!hook) throw new Error(`/api/db: no afterWrite hook is registered for ${relation} (a feature's postgrestHooks, registered by server/app.ts)`);
    await hook(client, write);
  };
}

/** The rows of a row-scoped kind the actor may read: none when no feature registered the kind. */
export function registeredRowScope(pool: pg.Pool, actor: Actor, kind: RowScopeKind): Promise<readonly string[] | undefined> {
  const hook = rowScopes.get(kind);
  return hook ? hook(pool, actor) : Promise.resolve([]);
}
