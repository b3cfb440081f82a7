import { isRecord } from '../../platform/errors';
import { KUBE_GROUP, kubeRv, kubeSoftDelete, kubeText, type KubeKind, type KubeRow } from '../../platform/kube-kinds';
import { permissionGroupKind } from './permission-group-kind';
import { permissionKind } from './permission-kind';
import { scopeKind } from './scope-kind';
import { teamKind } from './team-kind';

/** A permission row's columns (and its person's email, its team's name) as the Permission spec that makes it. */
function permissionSpec(row: KubeRow): Record<string, unknown> {
  const p = row.extra ?? {};
  const subjectType = kubeText(p.subject_type);
  const subjectValue = subjectType === 'person' ? kubeText(p.person_email) || kubeText(p.subject) : subjectType === 'team' ? kubeText(p.team_name) || kubeText(p.subject) : kubeText(p.subject);
  const object: Record<string, unknown> = {};
  if (isRecord(p.object_selector)) Object.assign(object, p.object_selector);
  const byId: Array<[string, string]> = [['config_id', 'configs'], ['component_id', 'components'], ['playbook_id', 'playbooks'], ['connection_id', 'connections']];
  for (const [column, key] of byId) if (typeof p[column] === 'string') object[key] = [{ id: p[column] }];
  // A kind's global object is written back as Mission Control's usual form, its lone wildcard selector.
  const wildcard: Record<string, string> = { catalog: 'configs', topology: 'components', playbooks: 'playbooks', connection: 'connections', views: 'views' };
  if (typeof p.object === 'string' && p.object) {
    const key = wildcard[p.object];
    if (key && object[key] === undefined) object[key] = [{ name: '*' }];
    else if (p.object === 'mcp') object.mcp = true;
    else object.global = p.object;
  }
  const spec: Record<string, unknown> = {
    ...(typeof p.description === 'string' && p.description ? { description: p.description } : {}),
    actions: kubeText(p.action).split(',').map((action) => action.trim()).filter(Boolean),
    subject: { [subjectType]: subjectValue },
    object,
    deny: p.deny === true,
  };
  if (isRecord(p.tags) && Object.keys(p.tags).length > 0) spec.tags = p.tags;
  if (Array.isArray(p.agents) && p.agents.length > 0) spec.agents = p.agents;
  return spec;
}

/** Team as kubectl reads and writes it: cluster-scoped (docs/KUBECTL.md). */
export const teamKubeKind: KubeKind = {
  kind: 'Team', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'teams', singular: 'team', shortNames: [], namespaced: false,
  rows: `SELECT t.id, t.name, 'default' AS namespace, '{}'::jsonb AS labels,
           t.spec || jsonb_build_object('icon', t.icon, 'members', m.members) AS spec,
           t.source, t.created_at, ${kubeRv('t.')}, jsonb_build_object('members', jsonb_array_length(m.members)) AS extra
         FROM teams t
         CROSS JOIN LATERAL (SELECT coalesce(jsonb_agg(coalesce(p.email, p.id::text) ORDER BY coalesce(p.email, p.id::text)), '[]'::jsonb) AS members
                               FROM team_members tm JOIN people p ON p.id = tm.person_id AND p.deleted_at IS NULL WHERE tm.team_id = t.id) m
         WHERE t.deleted_at IS NULL`,
  rbac: 'database',
  writeRbac: 'identities',
  resourceKind: teamKind,
  columns: [{ name: 'Members', description: 'people in the team', cell: (row) => kubeText(row.extra?.members) }],
  remove: kubeSoftDelete('teams'),
};

/** Permission as kubectl reads and writes it (docs/KUBECTL.md). */
export const permissionKubeKind: KubeKind = {
  kind: 'Permission', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'permissions', singular: 'permission', shortNames: ['perm'], namespaced: true,
  // Console permissions without a name are not resources kubectl can address: they are left out.
  rows: `SELECT pm.id, pm.name, coalesce(pm.namespace, 'default') AS namespace, '{}'::jsonb AS labels, NULL::jsonb AS spec, pm.source, pm.created_at, ${kubeRv('pm.')},
           jsonb_build_object('description', pm.description, 'action', pm.action, 'deny', pm.deny, 'subject_type', pm.subject_type, 'subject', pm.subject,
             'person_email', p.email, 'team_name', t.name, 'object', pm.object, 'object_selector', pm.object_selector, 'config_id', pm.config_id,
             'component_id', pm.component_id, 'playbook_id', pm.playbook_id, 'connection_id', pm.connection_id, 'tags', pm.tags, 'agents', pm.agents) AS extra
         FROM permissions pm LEFT JOIN people p ON p.id = pm.person_id LEFT JOIN teams t ON t.id = pm.team_id
         WHERE pm.deleted_at IS NULL AND pm.name IS NOT NULL`,
  rbac: 'rbac',
  resourceKind: permissionKind,
  specOf: permissionSpec,
  columns: [
    { name: 'Subject', description: 'who: person, team or group', cell: (row) => `${kubeText(row.extra?.subject_type)}:${kubeText(row.extra?.person_email) || kubeText(row.extra?.team_name) || kubeText(row.extra?.subject)}` },
    { name: 'Object', description: 'what it is about', cell: (row) => kubeText(row.extra?.object) || (isRecord(row.extra?.object_selector) ? Object.keys(row.extra.object_selector).join(',') : '') || ['config_id', 'component_id', 'playbook_id', 'connection_id'].map((key) => kubeText(row.extra?.[key])).find(Boolean) || '<none>' },
    { name: 'Action', description: 'the actions', cell: (row) => kubeText(row.extra?.action) },
    { name: 'Deny', description: 'true: denies', cell: (row) => String(row.extra?.deny === true) },
  ],
  remove: kubeSoftDelete('permissions'),
};

/** PermissionGroup as kubectl reads and writes it (docs/KUBECTL.md). */
export const permissionGroupKubeKind: KubeKind = {
  kind: 'PermissionGroup', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'permissiongroups', singular: 'permissiongroup', shortNames: ['pg'], namespaced: true,
  rows: `SELECT id, name, namespace, labels,
           jsonb_strip_nulls(jsonb_build_object('people', CASE WHEN cardinality(people) > 0 THEN to_jsonb(people) END, 'teams', CASE WHEN cardinality(teams) > 0 THEN to_jsonb(teams) END)) || selectors AS spec,
           source, created_at, ${kubeRv()}, jsonb_build_object('people', cardinality(people), 'teams', cardinality(teams)) AS extra
         FROM permission_groups WHERE deleted_at IS NULL`,
  rbac: 'rbac',
  resourceKind: permissionGroupKind,
  columns: [
    { name: 'People', description: 'people named', cell: (row) => kubeText(row.extra?.people) },
    { name: 'Teams', description: 'teams named', cell: (row) => kubeText(row.extra?.teams) },
  ],
  remove: kubeSoftDelete('permission_groups'),
};

/** Scope as kubectl reads and writes it (docs/KUBECTL.md). */
export const scopeKubeKind: KubeKind = {
  kind: 'Scope', group: KUBE_GROUP.missionControl, version: 'v1', plural: 'scopes', singular: 'scope', shortNames: [], namespaced: true,
  rows: `SELECT id, name, namespace, labels, jsonb_strip_nulls(jsonb_build_object('description', description, 'targets', targets)) AS spec,
           source, created_at, ${kubeRv()}, jsonb_build_object('targets', jsonb_array_length(targets)) AS extra
         FROM scopes WHERE deleted_at IS NULL`,
  rbac: 'rbac',
  resourceKind: scopeKind,
  columns: [{ name: 'Targets', description: 'number of targets', cell: (row) => kubeText(row.extra?.targets) }],
  remove: kubeSoftDelete('scopes'),
};
