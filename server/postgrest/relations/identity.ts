import type { RelationDef } from '../registry';

const PERMISSION_COLUMNS = [
  'id', 'name', 'namespace', 'description', 'action', 'deny', 'subject', 'subject_type', 'person_id', 'team_id', 'notification_id',
  'object', 'object_selector', 'config_id', 'component_id', 'canary_id', 'playbook_id', 'connection_id', 'tags', 'agents', 'until',
  'source', 'error', 'created_by', 'updated_by', 'created_at', 'updated_at', 'deleted_at', 'waiting_for',
];
const PERMISSION_WRITABLE = [
  'name', 'namespace', 'description', 'action', 'deny', 'subject', 'subject_type', 'person_id', 'team_id', 'notification_id',
  'object', 'object_selector', 'config_id', 'component_id', 'canary_id', 'playbook_id', 'connection_id', 'tags', 'agents', 'until',
];

/**
 * Identity's relations (migration 0004). Credentials, sessions, flows and token hashes are not here, so
 * /api/db can never reach them. People and teams are read by everyone who reads the console; changing
 * who belongs where, and permission rows, needs identities or rbac.
 */
export const identityRelations: RelationDef[] = [
  {
    // The Users page.
    name: 'people_roles',
    rbac: 'identities',
    readable: ['id', 'name', 'email', 'avatar', 'last_login', 'created_at', 'updated_at', 'deleted_at', 'state', 'state_changed_at', 'roles', 'teams'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'created_at', 'updated_at', 'state', 'state_changed_at', 'roles', 'teams'],
  },
  {
    name: 'identities',
    rbac: 'identities',
    readable: ['id', 'schema_id', 'state', 'state_changed_at', 'traits', 'created_at', 'updated_at'],
    primaryKey: ['id'],
    relationships: [{ name: 'identities_id_fkey', target: 'people', columns: [['id', 'id']] }],
  },
  {
    name: 'teams',
    rbac: 'database',
    writeRbac: 'identities',
    readable: ['id', 'name', 'icon', 'spec', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    insertable: ['name', 'icon', 'spec'],
    updatable: ['name', 'icon', 'spec'],
    deletable: true,
    primaryKey: ['id'],
    softDelete: true,
    writableWhere: { column: 'source', equals: 'UI' },
    insertDefaults: { created_by: (actor) => actor?.id },
    relationships: [{ name: 'teams_created_by_fkey', target: 'people', columns: [['created_by', 'id']] }],
  },
  {
    name: 'teams_summary',
    rbac: 'database',
    readable: ['id', 'name', 'icon', 'spec', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at', 'members'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'icon', 'spec', 'source', 'created_at', 'updated_at', 'members'],
  },
  {
    name: 'team_members',
    rbac: 'database',
    writeRbac: 'identities',
    readable: ['team_id', 'person_id', 'created_at'],
    insertable: ['team_id', 'person_id'],
    deletable: true,
    primaryKey: ['team_id', 'person_id'],
    relationships: [
      { name: 'team_members_team_id_fkey', target: 'teams', columns: [['team_id', 'id']] },
      { name: 'team_members_person_id_fkey', target: 'people', columns: [['person_id', 'id']] },
    ],
  },
  {
    name: 'permissions',
    rbac: 'rbac',
    readable: PERMISSION_COLUMNS,
    insertable: PERMISSION_WRITABLE,
    updatable: PERMISSION_WRITABLE,
    deletable: true,
    primaryKey: ['id'],
    softDelete: true,
    writableWhere: { column: 'source', equals: 'UI' },
    insertDefaults: { created_by: (actor) => actor?.id, updated_by: (actor) => actor?.id },
    updateDefaults: { updated_by: (actor) => actor?.id },
    relationships: [
      { name: 'permissions_person_id_fkey', target: 'people', columns: [['person_id', 'id']] },
      { name: 'permissions_team_id_fkey', target: 'teams', columns: [['team_id', 'id']] },
    ],
  },
  {
    // PermissionGroup resources (applied from YAML): who a group holds, read by admins like permissions.
    name: 'permission_groups',
    rbac: 'rbac',
    readable: ['id', 'name', 'namespace', 'labels', 'people', 'teams', 'selectors', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'labels', 'people', 'teams', 'selectors', 'source', 'created_at', 'updated_at'],
  },
  {
    // Scope resources (applied from YAML, migration 0041): the targets a permission's object names in `scopes`.
    name: 'scopes',
    rbac: 'rbac',
    readable: ['id', 'name', 'namespace', 'description', 'labels', 'targets', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'labels', 'targets', 'source', 'created_at', 'updated_at'],
  },
  {
    // Plugin resources (applied from YAML, migration 0041): stored, never run.
    name: 'plugins',
    rbac: 'rbac',
    readable: ['id', 'name', 'namespace', 'labels', 'spec', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'labels', 'spec', 'source', 'created_at', 'updated_at'],
  },
  {
    // The Permissions page (spec §3: summary rows carry person, team and group).
    name: 'permissions_summary',
    rbac: 'rbac',
    readable: [...PERMISSION_COLUMNS, 'person', 'team', 'group', 'created_by_person', 'connection_object'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'action', 'deny', 'subject', 'subject_type', 'source', 'created_at', 'updated_at'],
  },
];
