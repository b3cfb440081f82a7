import type pg from 'pg';
import { CAPABILITY_ACTION, CAPABILITY_DESCRIPTIONS, type Capability } from '../../../common/rbac';
import { currentOrganization } from '../db/tenant';
import { isRecord } from '../errors';
import { AppError } from '../http/errors';
import { parseConnectionReference } from '../secrets/resolve';
import { decide } from './decide';
import type { Actor } from './types';

/**
 * Capabilities in specs (DESIGN §9, docs/SECURITY.md): which fields of a Canary, ScrapeConfig, Topology,
 * Playbook, View, Notification or log backend run code on the server, read its files, use a stored
 * connection or secret, or run SQL through a connection. A spec that uses one is refused at save for an
 * author without it (403 `capability_required`, naming the capability and the field), and is not run when
 * its last author (`updated_by`) no longer holds it. Specs from files (`apply -f`, the watched folder, the
 * demo) have no author: whoever can write the server's files already holds every capability.
 */
/** A pool, or a client inside a write's transaction. */
type Db = pg.Pool | pg.PoolClient;

export interface CapabilityUse {
  capability: Capability;
  /** The field that uses it, as problems name fields: `spec.exec[0]`, `spec.actions[1].exec`. */
  path: string;
  /** For a `connection: connection://…` use: the reference, so a permission to read that connection may allow it. */
  reference?: string;
}

/** Folder and file paths on another machine (read through a connection, not from this server's disk). */
const REMOTE = /^(s3|gcs|smb|sftp|https?|git|ssh):\/\//i;

const VALUE_FROM_KEYS = ['secretKeyRef', 'configMapKeyRef', 'helmRef', 'serviceAccount'];

function each(value: unknown, path: string, visit: (item: Record<string, unknown>, path: string) => void): void {
  if (Array.isArray(value)) value.forEach((item, index) => isRecord(item) && visit(item, `${path}[${index}]`));
  else if (isRecord(value)) visit(value, path);
}

/** A git URL that is a path or file:// on this server, not a remote (scp-like `git@host:repo` is remote). */
function isLocalPath(url: string): boolean {
  const text = url.trim();
  if (/^file:/i.test(text)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return false;
  if (/^[^/\s]+@[^/\s]+:/.test(text)) return false;
  return true;
}

/** True when a `connection` field names a stored connection (connection://ns/name), not an inline URL. */
function isConnectionReference(value: unknown): boolean {
  return typeof value === 'string' && parseConnectionReference(value, 'default') !== undefined;
}

/** True when a string is a stored-field reference to a secret or config map (`secret://name/key`). */
function isStoredReference(value: string): boolean {
  return /^(secret|configmap):\/\//i.test(value.trim());
}

/**
 * Every capability a spec uses, with its field. The rules go by field name, so they hold at any depth
 * (a check inside a topology component, an action of a playbook):
 * - `exec` (a mapping or a list of them): exec
 * - `javascript` (non-empty text): javascript
 * - `folder` / `junit` / `file` / `files` entries with a local `path`, `testResults` or `paths` (checks, file
 *   scrapers, log backends), and `git` / `checkout` of a repository on this server's disk: server_files
 * - `connection: connection://…`, `valueFrom: {secretKeyRef|configMapKeyRef|helmRef|serviceAccount}` and
 *   `secret://…` / `configmap://…` values: connection_use
 * - `sql` (a mapping or a list of them: a view query, a playbook action, a sql scraper): sql
 */
export function capabilityUses(spec: unknown, where = 'spec'): CapabilityUse[] {
  const uses: CapabilityUse[] = [];
  const seen = new Set<string>();
  const add = (capability: Capability, path: string, reference?: string) => {
    const key = `${capability} ${path}`;
    if (seen.has(key)) return;
    seen.add(key);
    uses.push({ capability, path, ...(reference === undefined ? {} : { reference }) });
  };
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (isStoredReference(value)) add('connection_use', path);
      return;
    }
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`));
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}.${key}`;
      switch (key) {
        case 'exec':
          each(item, at, (_entry, entryPath) => add('exec', entryPath));
          break;
        case 'javascript':
          if (typeof item === 'string' && item.trim() !== '') add('javascript', at);
          break;
        case 'folder':
          each(item, at, (entry, entryPath) => {
            if (typeof entry.path === 'string' && !REMOTE.test(entry.path.trim())) add('server_files', `${entryPath}.path`);
          });
          break;
        case 'junit':
          each(item, at, (entry, entryPath) => {
            if (typeof entry.testResults === 'string') add('server_files', `${entryPath}.testResults`);
          });
          break;
        case 'file':
        case 'files':
          each(item, at, (entry, entryPath) => {
            const paths = Array.isArray(entry.paths) ? entry.paths : typeof entry.path === 'string' ? [entry.path] : [];
            if (paths.some((file) => typeof file === 'string' && !REMOTE.test(file.trim()))) add('server_files', `${entryPath}.paths`);
          });
          break;
        case 'git':
        case 'checkout':
          // A repository on this server's disk (`url: .`, `/srv/repo`, `file://…`) is read as the server.
          each(item, at, (entry, entryPath) => {
            if (typeof entry.url === 'string' && entry.url.trim() !== '' && isLocalPath(entry.url)) add('server_files', `${entryPath}.url`);
          });
          break;
        case 'sql':
          each(item, at, (_entry, entryPath) => add('sql', entryPath));
          break;
        case 'connection':
          if (isConnectionReference(item)) add('connection_use', at, String(item));
          break;
        case 'valueFrom':
          if (isRecord(item) && VALUE_FROM_KEYS.some((ref) => item[ref] !== undefined && item[ref] !== null)) add('connection_use', at);
          break;
        default:
          break;
      }
      walk(item, at);
    }
  };
  walk(spec, where);
  return uses;
}

/** Whether the actor holds a capability (by role, or a permission on it); undefined (files, the system) holds all. */
export function holdsCapability(actor: Actor | undefined, capability: Capability): boolean {
  if (!actor) return true;
  return decide(actor, capability, CAPABILITY_ACTION).allowed;
}

/** The uses the actor may not make, each once per capability and field. */
export function missingCapabilities(actor: Actor | undefined, uses: readonly CapabilityUse[]): CapabilityUse[] {
  if (!actor) return [];
  const held = new Map<Capability, boolean>();
  return uses.filter((use) => {
    let has = held.get(use.capability);
    if (has === undefined) {
      has = holdsCapability(actor, use.capability);
      held.set(use.capability, has);
    }
    return !has;
  });
}

/** `spec.exec[0]: needs the capability "exec" (run code on the server: …)`. */
function describeMissing(use: CapabilityUse): string {
  return `${use.path}: needs the capability "${use.capability}" (${CAPABILITY_DESCRIPTIONS[use.capability]})`;
}

export const CAPABILITY_REQUIRED = 'capability_required';

/** The 403 a save gets when its author lacks a capability the spec uses: every missing one named. */
export function capabilityError(missing: readonly CapabilityUse[]): AppError {
  const capabilities = [...new Set(missing.map((use) => use.capability))];
  const fields = missing.map(describeMissing);
  return new AppError(
    'forbidden',
    `${fields.join('; ')}; no role or permission of yours grants ${capabilities.length === 1 ? 'it' : 'them'}: an admin grants a capability in Settings → Permissions`,
    { error: CAPABILITY_REQUIRED, capabilities, fields: missing.map((use) => ({ path: use.path, capability: use.capability })) },
  );
}

/**
 * The uses the actor may not make, where a `connection://` reference is also allowed by a permission to
 * read that one connection (an admin who lets someone read a connection lets them use it).
 */
export async function missingWithConnections(pool: Db, actor: Actor | undefined, uses: readonly CapabilityUse[], namespace: string): Promise<CapabilityUse[]> {
  const missing = missingCapabilities(actor, uses);
  if (!actor || missing.length === 0) return missing;
  const out: CapabilityUse[] = [];
  for (const use of missing) {
    if (use.capability === 'connection_use' && use.reference !== undefined && (await mayReadConnection(pool, actor, use.reference, namespace))) continue;
    out.push(use);
  }
  return out;
}

async function mayReadConnection(pool: Db, actor: Actor, reference: string, namespace: string): Promise<boolean> {
  const target = parseConnectionReference(reference, namespace);
  if (!target) return false;
  const { rows } = await pool.query<{ id: string; name: string; namespace: string; type: string; labels: Record<string, string> }>(
    'SELECT id, name, namespace, type, labels FROM connections WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL',
    [target.namespace, target.name],
  );
  const row = rows[0];
  if (!row) return false;
  return decide(actor, 'connections', 'read', { kind: 'connection', id: row.id, name: row.name, namespace: row.namespace, type: row.type, labels: row.labels, tags: row.labels }).allowed;
}

/**
 * At save, for the console and the API: refuses (403 `capability_required`, every missing capability and
 * field named) a spec that uses what its author does not hold. Nothing is written.
 */
export async function assertSpecCapabilities(pool: Db, actor: Actor | undefined, spec: unknown, namespace: string, where = 'spec', extra: readonly CapabilityUse[] = []): Promise<void> {
  const missing = await missingWithConnections(pool, actor, [...capabilityUses(spec, where), ...extra], namespace);
  if (missing.length > 0) throw capabilityError(missing);
}

// ---------------------------------------------------------------------------------------------------
// At run time: the spec's last author must still hold what it uses.

type ActorLoader = (pool: pg.Pool, personId: string) => Promise<Actor | undefined>;
let loadActor: ActorLoader | undefined;

/** Identity registers how a person's roles and permissions are read (platform never imports a feature). */
export function registerActorLoader(loader: ActorLoader): void {
  loadActor = loader;
}

/** Authors read for runs, kept a few seconds: a canary of many checks asks once per run, not per check. */
const AUTHOR_TTL_MS = 5000;
const authors = new WeakMap<pg.Pool, Map<string, { at: number; actor: Promise<Actor | undefined> }>>();

async function authorActor(pool: pg.Pool, personId: string): Promise<Actor | undefined> {
  if (!loadActor) return undefined;
  let cache = authors.get(pool);
  if (!cache) {
    cache = new Map();
    authors.set(pool, cache);
  }
  const now = Date.now();
  // Hosted mode: the author's roles are those of the organization the run works in (docs/HOSTED.md).
  const key = `${currentOrganization() ?? ''}/${personId}`;
  const hit = cache.get(key);
  if (hit && now - hit.at < AUTHOR_TTL_MS) return hit.actor;
  if (cache.size > 1000) cache.clear();
  const actor = loadActor(pool, personId);
  cache.set(key, { at: now, actor });
  try {
    return await actor;
  } catch (error) {
    cache.delete(key);
    throw error;
  }
}

/** What a run may not do because its author does not hold a capability any more (or was deleted). */
export interface RunRefusal {
  missing: CapabilityUse[];
  message: string;
}

/**
 * Checks a spec's uses against its last author (`updated_by`), when the spec runs. No author: written by
 * a file or the system, allowed. An author that no longer exists holds nothing. Answers undefined when
 * the run may go on.
 */
export async function runRefusal(pool: pg.Pool, authorId: string | null | undefined, uses: readonly CapabilityUse[], namespace = 'default'): Promise<RunRefusal | undefined> {
  if (!authorId || uses.length === 0) return undefined;
  const actor = await authorActor(pool, authorId);
  const missing = actor ? await missingWithConnections(pool, actor, uses, namespace) : [...uses];
  if (missing.length === 0) return undefined;
  const names = [...new Set(missing.map((use) => `"${use.capability}"`))];
  const who = actor ? `its last author (${actor.email ?? actor.name})` : 'its last author, who no longer exists,';
  const needs = `${missing.length === 1 ? 'needs' : 'need'} ${names.length === 1 ? `the capability ${names[0]}` : `the capabilities ${names.join(', ')}`}`;
  return {
    missing,
    message: `not run: ${missing.map((use) => use.path).join(', ')} ${needs}, which ${who} does not hold; an admin grants ${names.length === 1 ? 'it' : 'them'}, or saves the spec again`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Settings kept as properties

/**
 * Properties that change sign-in and identity (`auth.registration.disable`, `auth.registration.default_role`,
 * every `auth.*`): the `properties` relation is the feature-flags resource editors write, so these need the
 * capability `auth_settings` as well (an editor could otherwise make the next self-registration an admin).
 */
export function propertyCapability(name: unknown): Capability | undefined {
  return typeof name === 'string' && name.trim().toLowerCase().startsWith('auth.') ? 'auth_settings' : undefined;
}

/** Refuses (403) a write to properties that touches one a capability guards, old name or new. */
export function assertPropertyWrites(actor: Actor | undefined, changes: ReadonlyArray<{ old: Record<string, unknown> | null; new: Record<string, unknown> | null }>): void {
  for (const change of changes) {
    for (const row of [change.old, change.new]) {
      const capability = propertyCapability(row?.name);
      if (capability && !holdsCapability(actor, capability)) {
        throw capabilityError([{ capability, path: `properties.${String(row?.name)}` }]);
      }
    }
  }
}
