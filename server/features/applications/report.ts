import type pg from 'pg';
import { AppError } from '../../platform/http/errors';
import { selectConfigs, type AppConfig } from './selectors';
import { checkApplicationSpec, type AppSelector, type ApplicationSpec } from './spec';
import { isOneOf } from '../../../common/guards';

/**
 * The audit report of one application over a time range (docs/APPLICATIONS.md): its overview, environments
 * with their config items and health, who logged in, who holds which role, access reviews, changes and
 * incidents of its config items, and the views of its sections. Everything is read live from the catalog
 * and the access tables; nothing is stored.
 */

const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
type Health = (typeof HEALTHS)[number];
export type HealthSummary = Record<Health, number> & { total: number };

/** Rows of each list the report holds at most (the newest first); `truncated` says when more exist. */
export const REPORT_LIMIT = 500;

export interface ApplicationRow {
  id: string;
  name: string;
  namespace: string;
  type: string;
  description: string | null;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  source: string;
  created_at: string;
  updated_at: string;
}

export interface ReportConfig {
  id: string;
  name: string | null;
  type: string;
  namespace: string | null;
  health: string | null;
  status: string | null;
  labels: Record<string, string>;
  deleted: boolean;
}

export interface ApplicationReport {
  id: string;
  name: string;
  namespace: string;
  type: string;
  description: string | null;
  labels: Record<string, string>;
  source: string;
  created_at: string;
  updated_at: string;
  properties: Array<Record<string, unknown>>;
  range: { from: string; to: string };
  health: HealthSummary;
  environments: Array<{ name: string; purpose: string | null; health: HealthSummary; configs: ReportConfig[] }>;
  datasources: ReportConfig[];
  logins: Array<{
    id: string; config: ConfigRef; user: UserRef; role: string | null; client_ip: string; verb: string | null; outcome: string; mfa: boolean; count: number;
    first_observed: string | null; created_at: string;
  }>;
  access: Array<{
    id: string; config: ConfigRef; user: UserRef | null; group: { id: string; name: string; group_type: string } | null; role: string | null; mapped_role: string | null;
    created_at: string; last_reviewed_at: string | null; last_login: string | null;
  }>;
  accessReviews: Array<{ id: string; config: ConfigRef; user: UserRef; role: string | null; status: string; source: string; created_at: string }>;
  changes: Array<{ id: string; config: ConfigRef; change_type: string; severity: string; summary: string | null; source: string | null; count: number; created_at: string }>;
  incidents: Array<{ id: string; incident_id: string; title: string; type: string; severity: string; status: string; created_at: string; resolved_at: string | null; config: ConfigRef }>;
  sections: Array<{ title: string; icon: string | null; namespace: string; name: string; id: string | null; error?: string }>;
  truncated: string[];
  warnings: string[];
}

interface ConfigRef { id: string; name: string | null; type: string }
interface UserRef { id: string; name: string; email: string | null; user_type: string }

function present(config: AppConfig): ReportConfig {
  return { id: config.id, name: config.name, type: config.type, namespace: config.namespace, health: config.health, status: config.status, labels: config.labels, deleted: config.deleted_at !== null };
}

export function healthOf(configs: ReadonlyArray<{ health: string | null; deleted?: boolean }>): HealthSummary {
  const out: HealthSummary = { healthy: 0, unhealthy: 0, warning: 0, unknown: 0, total: 0 };
  for (const config of configs) {
    if (config.deleted) continue;
    const health = isOneOf(HEALTHS, config.health) ? config.health : 'unknown';
    out[health] += 1;
    out.total += 1;
  }
  return out;
}

/** Only selectors that say something: upstream's empty selector matches nothing, not the whole catalog. */
function meaningful(selector: AppSelector): boolean {
  return Object.entries(selector).some(([key, value]) => !['includeDeleted', 'limit', 'cache', 'scope', 'purpose', 'role'].includes(key) && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0));
}

async function pick(db: pg.Pool, selectors: readonly AppSelector[]): Promise<AppConfig[]> {
  return selectConfigs(db, selectors.filter(meaningful));
}

export async function loadApplication(db: pg.Pool, namespace: string, name: string): Promise<ApplicationRow> {
  const { rows } = await db.query<ApplicationRow>(
    'SELECT id, name, namespace, type, description, labels, spec, source, created_at, updated_at FROM applications WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL',
    [namespace, name],
  );
  const row = rows[0];
  if (!row) throw new AppError('not_found', `application ${namespace}/${name} not found`);
  return row;
}

const CONFIG_REF = "jsonb_build_object('id', ci.id, 'name', ci.name, 'type', ci.type)";
const USER_REF = "jsonb_build_object('id', u.id, 'name', u.name, 'email', u.email, 'user_type', u.user_type)";

export async function applicationReport(db: pg.Pool, app: ApplicationRow, range: { from: Date; to: Date }): Promise<ApplicationReport> {
  const result = checkApplicationSpec(app.spec);
  // A stored spec was checked on save; one that no longer checks (an older console wrote it) still reports.
  const spec: ApplicationSpec = result.checked?.spec ?? {};
  const warnings = result.checked?.warnings ?? result.problems.map((problem) => `${problem.path}: ${problem.message}`);
  const mapping = spec.mapping ?? {};
  const truncated: string[] = [];
  const limited = <T>(list: T[], what: string): T[] => {
    if (list.length > REPORT_LIMIT) truncated.push(what);
    return list.slice(0, REPORT_LIMIT);
  };

  const environments: ApplicationReport['environments'] = [];
  // By name: the spec's order does not survive jsonb (which orders keys by length), nor upstream's Go map.
  for (const [envName, selectors] of Object.entries(mapping.environments ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const configs = (await pick(db, selectors)).map(present);
    const purposes = [...new Set(selectors.map((selector) => selector.purpose).filter((purpose): purpose is string => Boolean(purpose)))];
    environments.push({ name: envName, purpose: purposes.join(', ') || null, health: healthOf(configs), configs });
  }
  const datasources = (await pick(db, mapping.datasources ?? [])).map(present);
  const loginConfigs = await pick(db, mapping.logins ?? []);
  const reviewConfigs = await pick(db, mapping.accessReviews ?? []);
  // roles: each mapping names the role that holding access to its configs (a group) means.
  const roleOf = new Map<string, string>();
  for (const role of mapping.roles ?? []) for (const config of await pick(db, [role])) if (!roleOf.has(config.id)) roleOf.set(config.id, role.role);

  const all = new Map<string, { health: string | null; deleted: boolean }>();
  for (const env of environments) for (const config of env.configs) all.set(config.id, config);
  for (const config of datasources) all.set(config.id, config);
  for (const config of [...loginConfigs, ...reviewConfigs]) all.set(config.id, { health: config.health, deleted: config.deleted_at !== null });
  for (const id of roleOf.keys()) if (!all.has(id)) all.set(id, { health: null, deleted: true });
  const allIds = [...all.keys()];
  const healthIds = [...environments.flatMap((env) => env.configs), ...datasources];
  // Logins and reviews are read from their own mapping when it is given, else from every config of the application.
  const loginIds = mapping.logins?.length ? loginConfigs.map((config) => config.id) : allIds;
  const reviewIds = mapping.accessReviews?.length ? reviewConfigs.map((config) => config.id) : allIds;
  const accessIds = [...new Set([...allIds, ...roleOf.keys()])];
  const window = [range.from.toISOString(), range.to.toISOString()];

  const logins = await db.query<ApplicationReport['logins'][number]>(
    `SELECT l.id, ${CONFIG_REF} AS config, ${USER_REF} AS user, r.name AS role, l.client_ip, l.verb, l.outcome, l.mfa, l.count, l.first_observed, l.created_at
     FROM config_access_logs l JOIN config_items ci ON ci.id = l.config_id JOIN external_users u ON u.id = l.external_user_id
     LEFT JOIN external_roles r ON r.id = l.external_role_id
     WHERE l.config_id = ANY($1::uuid[]) AND l.created_at >= $2 AND l.created_at <= $3
     ORDER BY l.created_at DESC, l.id LIMIT ${REPORT_LIMIT + 1}`,
    [loginIds, ...window],
  );

  // Who holds access now (the access rows live at the end of the range), with each one's last login.
  const access = await db.query<Omit<ApplicationReport['access'][number], 'mapped_role'> & { config_id: string }>(
    `SELECT a.id, a.config_id, ${CONFIG_REF} AS config,
       CASE WHEN u.id IS NULL THEN NULL ELSE ${USER_REF} END AS user,
       CASE WHEN g.id IS NULL THEN NULL ELSE jsonb_build_object('id', g.id, 'name', g.name, 'group_type', g.group_type) END AS group,
       r.name AS role, a.created_at, a.last_reviewed_at,
       (SELECT max(l.created_at) FROM config_access_logs l WHERE l.config_id = a.config_id AND l.external_user_id = a.external_user_id AND l.created_at <= $3) AS last_login
     FROM config_access a JOIN config_items ci ON ci.id = a.config_id
     LEFT JOIN external_users u ON u.id = a.external_user_id LEFT JOIN external_groups g ON g.id = a.external_group_id
     LEFT JOIN external_roles r ON r.id = a.external_role_id
     WHERE a.config_id = ANY($1::uuid[]) AND a.created_at <= $3 AND (a.deleted_at IS NULL OR a.deleted_at >= $2)
     ORDER BY coalesce(u.name, g.name), ci.name, a.id LIMIT ${REPORT_LIMIT + 1}`,
    [accessIds, ...window],
  );

  const reviews = await db.query<ApplicationReport['accessReviews'][number]>(
    `SELECT v.id, ${CONFIG_REF} AS config, ${USER_REF} AS user, r.name AS role, v.status, v.source, v.created_at
     FROM access_reviews v JOIN config_items ci ON ci.id = v.config_id JOIN external_users u ON u.id = v.external_user_id
     LEFT JOIN external_roles r ON r.id = v.external_role_id
     WHERE v.config_id = ANY($1::uuid[]) AND v.created_at >= $2 AND v.created_at <= $3
     ORDER BY v.created_at DESC, v.id LIMIT ${REPORT_LIMIT + 1}`,
    [reviewIds, ...window],
  );

  const changes = await db.query<ApplicationReport['changes'][number]>(
    `SELECT ch.id, ${CONFIG_REF} AS config, ch.change_type, ch.severity, ch.summary, ch.source, ch.count, ch.created_at
     FROM config_changes ch JOIN config_items ci ON ci.id = ch.config_id
     WHERE ch.config_id = ANY($1::uuid[]) AND ch.created_at >= $2 AND ch.created_at <= $3
     ORDER BY ch.created_at DESC, ch.id LIMIT ${REPORT_LIMIT + 1}`,
    [allIds, ...window],
  );

  // Incidents about the application's configs (opened by a rule for one, or with one as evidence), open at any time in the range.
  const incidents = await db.query<ApplicationReport['incidents'][number]>(
    `SELECT DISTINCT ON (i.created_at, i.id) i.id, i.incident_id, i.title, i.type, i.severity, i.status, i.created_at, coalesce(i.resolved_at, i.closed_at) AS resolved_at, ${CONFIG_REF} AS config
     FROM incidents i
     JOIN LATERAL (
       SELECT i.source_id AS config_id WHERE i.source_kind = 'config'
       UNION
       SELECT coalesce(e.config_id, ch.config_id, an.config_id) FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id
         LEFT JOIN config_changes ch ON ch.id = e.config_change_id LEFT JOIN config_analysis an ON an.id = e.config_analysis_id
       WHERE h.incident_id = i.id
     ) linked ON linked.config_id = ANY($1::uuid[])
     JOIN config_items ci ON ci.id = linked.config_id
     WHERE i.created_at <= $3 AND coalesce(i.resolved_at, i.closed_at, 'infinity') >= $2
     ORDER BY i.created_at DESC, i.id LIMIT ${REPORT_LIMIT + 1}`,
    [allIds, ...window],
  );

  const sections: ApplicationReport['sections'] = [];
  for (const section of spec.sections ?? []) {
    if (!section.viewRef) continue;
    const namespace = section.viewRef.namespace || app.namespace;
    const id = await viewId(db, namespace, section.viewRef.name);
    sections.push({
      title: section.title, icon: section.icon ?? null, namespace, name: section.viewRef.name, id,
      ...(id ? {} : { error: `the view ${namespace}/${section.viewRef.name} does not exist` }),
    });
  }

  const properties = [...(spec.properties ?? [])].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  return {
    id: app.id, name: app.name, namespace: app.namespace, type: app.type, description: app.description, labels: app.labels, source: app.source,
    created_at: app.created_at, updated_at: app.updated_at, properties,
    range: { from: range.from.toISOString(), to: range.to.toISOString() },
    health: healthOf(healthIds),
    environments, datasources,
    logins: limited(logins.rows, 'logins'),
    access: limited(access.rows, 'access').map(({ config_id, ...row }) => ({ ...row, mapped_role: roleOf.get(config_id) ?? null })),
    accessReviews: limited(reviews.rows, 'accessReviews'),
    changes: limited(changes.rows, 'changes'),
    incidents: limited(incidents.rows, 'incidents'),
    sections, truncated, warnings,
  };
}

/** A view by namespace and name; null while the views table does not exist yet or has no such view. */
async function viewId(db: pg.Pool, namespace: string, name: string): Promise<string | null> {
  const { rows: exists } = await db.query<{ found: boolean }>("SELECT to_regclass('public.views') IS NOT NULL AS found");
  if (!exists[0]?.found) return null;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM views WHERE namespace = $1 AND name = $2 AND organization_id IS NOT DISTINCT FROM current_organization() AND deleted_at IS NULL', [namespace, name]);
  return rows[0]?.id ?? null;
}
