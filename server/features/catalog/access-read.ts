import { isRecord } from '../../platform/errors';
import type { AnalysisInput, ChangeInput, Severity } from './types';
import { SEVERITIES } from './types';
import type { ConfigRef, EntityInput, FullDocument, LogInput, Principal } from './access-types';

/** Reading a full-form document (access.ts stores what it reads). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL = '00000000-0000-0000-0000-000000000000';

const KEYS = {
  users: ['external_users', 'users'],
  groups: ['external_groups', 'groups'],
  roles: ['external_roles', 'roles'],
  userGroups: ['external_user_groups', 'user_groups'],
  access: ['config_access', 'access'],
  logs: ['access_logs', 'config_access_logs', 'logs'],
} as const;

function findKey(doc: Record<string, unknown>, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) if (doc[key] !== undefined && doc[key] !== null) return { key, value: doc[key] };
  return undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return undefined;
}

function textList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return [...new Set(list.map(text).filter((item): item is string => item !== undefined))];
}

function uuidOf(value: unknown): string | undefined {
  const id = text(value);
  return id && UUID.test(id) && id !== NIL ? id.toLowerCase() : undefined;
}

function principal(entry: Record<string, unknown>, idKey: string, aliasKeys: string[]): Principal | undefined {
  const id = uuidOf(entry[idKey]);
  const aliases = [...new Set(aliasKeys.flatMap((key) => textList(entry[key])))];
  return id || aliases.length > 0 ? { ...(id ? { id } : {}), aliases } : undefined;
}

/** external_config_id {config_type, external_id, config_id}, or config_id / external_id / config_type on the entry itself. */
function configRefOf(entry: Record<string, unknown>): ConfigRef {
  const nested = isRecord(entry.external_config_id) ? entry.external_config_id : undefined;
  const ref: ConfigRef = {};
  for (const source of [entry, ...(nested ? [nested] : [])]) {
    const configId = text(source.config_id) ?? text(source.uuid);
    if (configId !== undefined) {
      if (UUID.test(configId)) ref.configId = configId.toLowerCase();
      else ref.externalId = configId;
    }
    const externalId = text(source.external_id);
    if (externalId !== undefined) ref.externalId = externalId;
    const type = text(source.config_type) ?? (source === nested ? text(source.type) : undefined);
    if (type !== undefined) ref.type = type;
  }
  return ref;
}

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function listAt(doc: Record<string, unknown>, keys: readonly string[], where: string, problems: string[]): Array<{ entry: Record<string, unknown>; where: string }> {
  const found = findKey(doc, keys);
  if (!found) return [];
  if (!Array.isArray(found.value)) {
    problems.push(`${where}.${found.key}: must be a list`);
    return [];
  }
  const out: Array<{ entry: Record<string, unknown>; where: string }> = [];
  found.value.forEach((entry: unknown, index) => {
    const at = `${where}.${found.key}[${index}]`;
    if (isRecord(entry)) out.push({ entry, where: at });
    else problems.push(`${at}: must be a mapping`);
  });
  return out;
}

function entityOf(entry: Record<string, unknown>, where: string, columns: Record<string, string[]>, problems: string[]): EntityInput | undefined {
  const id = uuidOf(entry.id);
  const aliases = textList(entry.aliases);
  if (!id && aliases.length === 0) {
    problems.push(`${where}: needs aliases (the ids the source knows it by) or a uuid id`);
    return undefined;
  }
  const fields: Record<string, string | null> = {};
  for (const [column, keys] of Object.entries(columns)) {
    const value = keys.map((key) => text(entry[key])).find((item) => item !== undefined);
    if (value !== undefined) fields[column] = value;
  }
  const name = text(entry.name);
  return { where, ...(id ? { id } : {}), aliases, ...(name ? { name } : {}), fields };
}

function changeOf(entry: Record<string, unknown>, where: string, problems: string[]): ChangeInput | undefined {
  const changeType = text(entry.change_type);
  if (!changeType) {
    problems.push(`${where}.change_type: is required`);
    return undefined;
  }
  const severity = text(entry.severity)?.toLowerCase();
  const createdAt = dateOf(entry.created_at);
  return {
    changeType,
    ...(text(entry.external_change_id) ? { externalChangeId: text(entry.external_change_id) } : {}),
    ...(severity && (SEVERITIES as readonly string[]).includes(severity) ? { severity: severity as Severity } : {}),
    ...(text(entry.source) ? { source: text(entry.source) } : {}),
    ...(text(entry.summary) ? { summary: text(entry.summary) } : {}),
    ...(entry.details !== undefined ? { details: entry.details } : {}),
    ...(createdAt ? { createdAt } : {}),
  };
}

function analysisOf(entry: Record<string, unknown>, where: string, problems: string[]): AnalysisInput | undefined {
  const analyzer = text(entry.analyzer);
  if (!analyzer) {
    problems.push(`${where}.analyzer: is required`);
    return undefined;
  }
  const severity = text(entry.severity)?.toLowerCase();
  const status = text(entry.status);
  const messages = textList(entry.messages);
  return {
    analyzer,
    ...(text(entry.analysis_type) ? { analysisType: text(entry.analysis_type) } : {}),
    ...(severity && (SEVERITIES as readonly string[]).includes(severity) ? { severity: severity as Severity } : {}),
    ...(status === 'open' || status === 'resolved' || status === 'silenced' ? { status } : {}),
    ...(messages.length > 0 ? { message: messages.join('\n\n') } : text(entry.message) ? { message: text(entry.message) } : {}),
    ...(text(entry.summary) ? { summary: text(entry.summary) } : {}),
    ...(text(entry.source) ? { source: text(entry.source) } : {}),
    ...(entry.analysis !== undefined ? { analysis: entry.analysis } : {}),
  };
}

/**
 * Reads one full-form document (config-db `full: true`): `config` is the item to store (a document without
 * it carries only access data), `changes` and `analysis` belong to the item, and the access lists are
 * returned with `where` paths. Entries that cannot be read are reported in `problems` and left out; the rest
 * are kept. Access rows and logins without a config reference point at the document's own item.
 */
export function readFullDocument(doc: unknown, where: string, problems: string[], own: ConfigRef): FullDocument {
  if (!isRecord(doc)) {
    problems.push(`${where}: with spec.full the result must be a mapping with config (and changes, external_users, config_access, access_logs …), not ${Array.isArray(doc) ? 'a list' : typeof doc}`);
    return { hasConfig: false, config: undefined, changes: [], analysis: [], access: null };
  }
  const hasConfig = doc.config !== undefined && doc.config !== null;
  // Changes and insights belong to the document's item: one naming another item is left out, said so.
  const ownIds = new Set([own.externalId, text(doc.external_id), text(doc.id)].filter((id): id is string => id !== undefined));
  const forOwn = (entry: Record<string, unknown>, at: string) => {
    const other = text(entry.external_id);
    if (other === undefined || ownIds.has(other)) return true;
    problems.push(`${at}: names another item (external_id ${other}); only the document's own item is read, left out`);
    return false;
  };
  const changes = listAt(doc, ['changes'], where, problems).flatMap(({ entry, where: at }) => (forOwn(entry, at) ? (changeOf(entry, at, problems) ?? []) : []));
  const analysis = listAt(doc, ['analysis'], where, problems).flatMap(({ entry, where: at }) => (forOwn(entry, at) ? (analysisOf(entry, at, problems) ?? []) : []));

  const users = listAt(doc, KEYS.users, where, problems).flatMap(({ entry, where: at }) =>
    entityOf(entry, at, { user_type: ['user_type', 'type'], email: ['email'] }, problems) ?? [],
  );
  const groups = listAt(doc, KEYS.groups, where, problems).flatMap(({ entry, where: at }) => entityOf(entry, at, { group_type: ['group_type', 'type'] }, problems) ?? []);
  const roles = listAt(doc, KEYS.roles, where, problems).flatMap(({ entry, where: at }) =>
    entityOf(entry, at, { role_type: ['role_type', 'type'], description: ['description'] }, problems) ?? [],
  );
  const userGroups = listAt(doc, KEYS.userGroups, where, problems).flatMap(({ entry, where: at }) => {
    const user = principal(entry, 'external_user_id', ['user', 'external_user_aliases']);
    const group = principal(entry, 'external_group_id', ['group', 'external_group_aliases']);
    if (!user || !group) {
      problems.push(`${at}: needs a user (user or external_user_aliases) and a group (group or external_group_aliases)`);
      return [];
    }
    return [{ where: at, user, group }];
  });

  // The document's own item: its uuid / external_id / id and type / config_type (config-db's defaults), else the mapped item.
  const docRef = configRefOf({ config_id: doc.config_id ?? doc.uuid, external_id: doc.external_id ?? doc.id, config_type: doc.config_type ?? doc.type });
  const defaultRef = (): ConfigRef => {
    return { ...(hasConfig ? own : {}), ...docRef };
  };
  const refOf = (entry: Record<string, unknown>, at: string): ConfigRef | undefined => {
    const ref = configRefOf(entry);
    const resolved = ref.configId || ref.externalId ? ref : defaultRef();
    if (!resolved.configId && !resolved.externalId) {
      problems.push(`${at}: names no config item (external_config_id: {config_type, external_id}, or config_id)`);
      return undefined;
    }
    return resolved;
  };

  const access = listAt(doc, KEYS.access, where, problems).flatMap(({ entry, where: at }) => {
    const config = refOf(entry, at);
    if (!config) return [];
    const user = principal(entry, 'external_user_id', ['external_user_aliases', 'user']);
    const group = principal(entry, 'external_group_id', ['external_group_aliases', 'group']);
    const role = principal(entry, 'external_role_id', ['external_role_aliases', 'role']);
    if (!user && !group) {
      problems.push(`${at}: names no user or group (external_user_aliases or external_group_aliases)`);
      return [];
    }
    return [{ where: at, config, ...(user ? { user } : {}), ...(group ? { group } : {}), ...(role ? { role } : {}) }];
  });

  const logs = listAt(doc, KEYS.logs, where, problems).flatMap(({ entry, where: at }) => {
    const config = refOf(entry, at);
    if (!config) return [];
    const user = principal(entry, 'external_user_id', ['external_user_aliases', 'user']);
    if (!user) {
      problems.push(`${at}: names no user (external_user_aliases or external_user_id)`);
      return [];
    }
    const createdAt = entry.created_at === undefined ? new Date() : dateOf(entry.created_at);
    if (!createdAt) {
      problems.push(`${at}.created_at: ${JSON.stringify(entry.created_at)} is not a time`);
      return [];
    }
    const count = entry.count === undefined || entry.count === null ? 1 : Number(entry.count);
    if (!Number.isInteger(count) || count < 1) {
      problems.push(`${at}.count: must be a whole number of at least 1`);
      return [];
    }
    if (entry.mfa !== undefined && entry.mfa !== null && typeof entry.mfa !== 'boolean') {
      problems.push(`${at}.mfa: must be true or false`);
      return [];
    }
    const properties = isRecord(entry.properties) ? entry.properties : null;
    const role = principal(entry, 'external_role_id', ['external_role_aliases', 'role']);
    const log: LogInput = {
      where: at,
      config,
      user,
      ...(role ? { role } : {}),
      createdAt,
      mfa: entry.mfa === true,
      count,
      clientIp: text(entry.client_ip) ?? (properties ? text(properties.ip_address) : undefined) ?? '',
      verb: text(entry.verb) ?? null,
      outcome: text(entry.outcome) ?? 'allowed',
      properties,
    };
    return [log];
  });

  const any = users.length + groups.length + roles.length + userGroups.length + access.length + logs.length > 0;
  return { hasConfig, config: hasConfig ? doc.config : undefined, changes, analysis, access: any ? { where, users, groups, roles, userGroups, access, logs } : null };
}
