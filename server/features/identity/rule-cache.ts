import type pg from 'pg';
import { parseObjectSelector, scopeAlternatives, type ObjectSelector } from '../../platform/auth/object-selector';
import { outsideOrganizations } from '../../platform/db/tenant';
import type { PermissionRule } from '../../platform/auth/types';
import { isRecord } from '../../platform/errors';

interface StoredRule extends PermissionRule {
  until: number | null;
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Scopes (kind Scope) by `<organization>|<namespace>/<name>` and `<organization>|<id>`: their targets as alternatives. */
type ScopeIndex = Map<string, ObjectSelector[]>;

/** The alternatives of the scopes a row's object names; a scope that does not exist (yet) adds none. */
function scopesOf(selector: unknown, organization: string, scopes: ScopeIndex): ObjectSelector[] | null {
  if (!isRecord(selector) || !Array.isArray(selector.scopes)) return null;
  const out: ObjectSelector[] = [];
  for (const ref of selector.scopes) {
    if (!isRecord(ref)) continue;
    const key = typeof ref.name === 'string' ? `${typeof ref.namespace === 'string' ? ref.namespace : 'default'}/${ref.name}` : typeof ref.id === 'string' ? ref.id : undefined;
    if (key) out.push(...(scopes.get(`${organization}|${key}`) ?? []));
  }
  return out;
}

/** A permission row from the database, checked field by field. */
export function parseRule(row: unknown, scopes: ScopeIndex = new Map()): StoredRule | undefined {
  if (!isRecord(row) || typeof row.id !== 'string') return undefined;
  return {
    id: row.id,
    action: String(row.action),
    deny: row.deny === true,
    subject_type: String(row.subject_type),
    subject: String(row.subject),
    object: stringOrNull(row.object),
    config_id: stringOrNull(row.config_id),
    component_id: stringOrNull(row.component_id),
    canary_id: stringOrNull(row.canary_id),
    playbook_id: stringOrNull(row.playbook_id),
    connection_id: stringOrNull(row.connection_id),
    tags: isRecord(row.tags) ? Object.fromEntries(Object.entries(row.tags).map(([key, value]) => [key, String(value)])) : null,
    agents: Array.isArray(row.agents) ? row.agents.map(String) : null,
    object_selector: parseObjectSelector(row.object_selector),
    scopes: scopesOf(row.object_selector, typeof row.organization_id === 'string' ? row.organization_id : '', scopes),
    until: row.until instanceof Date ? row.until.getTime() : null,
  };
}

function subjectKey(type: string, subject: string): string {
  return `${type}:${subject}`;
}

/**
 * Permission rows, kept in memory per instance and indexed by subject. Every request reads the
 * database's `rbac_version` with the caller (one query it makes anyway); when it differs from the cached
 * version the rows are loaded again, once, before the request is decided. So a change is seen by the
 * very next request on every instance, and a request costs a map lookup however many rows there are.
 */
export class RuleCache {
  private version = -1;
  private bySubject = new Map<string, StoredRule[]>();
  private loading: Promise<void> | undefined;
  private loadingVersion = -1;

  constructor(private readonly pool: pg.Pool) {}

  /** The rows whose subject is the person, one of their teams, or a group: one of their roles or permission groups. */
  async rulesFor(
    version: number,
    subject: { personId: string; teamIds: readonly string[]; roles: readonly string[]; groups?: readonly string[]; organizationId?: string | null },
    now = Date.now(),
  ): Promise<PermissionRule[]> {
    if (version !== this.version) await this.reload(version);
    const groups = new Set([...subject.roles, ...(subject.groups ?? [])]);
    // Hosted mode: only the rows of the organization the request works in (the console's own: organization_id NULL).
    const organization = subject.organizationId ?? '';
    const keys = [subjectKey('person', subject.personId), ...subject.teamIds.map((id) => subjectKey('team', id)), ...[...groups].map((group) => subjectKey('group', group))].map(
      (key) => `${organization}|${key}`,
    );
    const lists: StoredRule[][] = [];
    for (const key of keys) {
      const list = this.bySubject.get(key);
      if (list) lists.push(list);
    }
    // The common cases allocate nothing: no rows, or one subject's rows none of which expire.
    if (lists.length === 0) return [];
    const only = lists[0];
    if (lists.length === 1 && only && !only.some((rule) => rule.until !== null)) return only;
    return lists.flat().filter((rule) => rule.until === null || rule.until > now);
  }

  private reload(version: number): Promise<void> {
    if (this.loading && this.loadingVersion >= version) return this.loading;
    this.loadingVersion = version;
    // Every organization's rows, whoever asks first (the cache serves them all, indexed by organization).
    const loading = outsideOrganizations(() => this.load()).finally(() => {
      if (this.loading === loading) this.loading = undefined;
    });
    this.loading = loading;
    return loading;
  }

  private async load(): Promise<void> {
    // Version and rows from one snapshot, so the cache never pairs a version with older rows.
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const versionRow = await client.query<{ version: number }>('SELECT version::int AS version FROM rbac_version');
      const { rows } = await client.query(
        `SELECT id, action, deny, subject_type, subject, object, object_selector, config_id, component_id, canary_id, playbook_id, connection_id, tags, agents, until,
                organization_id
           FROM permissions WHERE deleted_at IS NULL AND (until IS NULL OR until > now())
             -- A person or team subject still waiting for its account (migration 0041) is no one's.
             AND NOT (subject_type = 'person' AND person_id IS NULL) AND NOT (subject_type = 'team' AND team_id IS NULL)`,
      );
      const scopeRows = await client.query<{ id: string; namespace: string; name: string; targets: unknown; organization_id: string | null }>(
        'SELECT id, namespace, name, targets, organization_id FROM scopes WHERE deleted_at IS NULL',
      );
      await client.query('COMMIT');
      const scopes: ScopeIndex = new Map();
      for (const scope of scopeRows.rows) {
        const alternatives = scopeAlternatives(scope.targets);
        scopes.set(`${scope.organization_id ?? ''}|${scope.namespace}/${scope.name}`, alternatives);
        scopes.set(`${scope.organization_id ?? ''}|${scope.id}`, alternatives);
      }
      const index = new Map<string, StoredRule[]>();
      for (const row of rows) {
        const rule = parseRule(row, scopes);
        if (!rule) continue;
        const key = `${typeof row.organization_id === 'string' ? row.organization_id : ''}|${subjectKey(rule.subject_type, rule.subject)}`;
        const list = index.get(key);
        if (list) list.push(rule);
        else index.set(key, [rule]);
      }
      this.bySubject = index;
      this.version = versionRow.rows[0]?.version ?? 0;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
