import type { RelationDef } from '../registry';

const fk = (relation: string, column: string, target: string) => ({ name: `${relation}_${column}_fkey`, target, columns: [[column, 'id']] as const });
const createdBy = { created_by: (actor: { id: string } | undefined) => actor?.id };

/**
 * Applications and the access data their reports read (migration 0022, docs/APPLICATIONS.md).
 * `applications` is read here and written through /api/applications (the spec checked whole); spec §6 guards
 * it with `views`. The access tables (Flanksource duty's names) are catalog data: read with the catalog's
 * object, and written here by those who may change the catalog (editors and admins), for sources that
 * record them (an identity export, an SSO log shipper) until a scraper records them itself.
 */
const rbac = 'config_scrapers' as const;

const USER = ['aliases', 'name', 'user_type', 'email'];
const GROUP = ['aliases', 'name', 'group_type'];
const ROLE = ['aliases', 'name', 'role_type', 'description', 'spec'];
const ACCESS = ['config_id', 'external_user_id', 'external_group_id', 'external_role_id', 'last_reviewed_at', 'last_reviewed_by', 'deleted_at', 'deleted_by'];
const LOG = ['config_id', 'external_user_id', 'external_role_id', 'client_ip', 'verb', 'outcome', 'mfa', 'properties', 'count', 'first_observed', 'created_at'];
const REVIEW = ['config_id', 'external_user_id', 'external_role_id', 'status', 'source', 'created_at'];

export const applicationRelations: RelationDef[] = [
  {
    name: 'applications',
    rbac: 'views',
    readable: ['id', 'name', 'namespace', 'type', 'description', 'labels', 'spec', 'source', 'error', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'type', 'labels', 'spec', 'source', 'created_at', 'updated_at'],
    relationships: [fk('applications', 'created_by', 'people')],
  },
  {
    name: 'external_users',
    rbac,
    readable: ['id', ...USER, 'scraper_id', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    insertable: ['id', ...USER],
    updatable: [...USER, 'deleted_at'],
    deletable: true,
    softDelete: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
  },
  {
    name: 'external_groups',
    rbac,
    readable: ['id', ...GROUP, 'scraper_id', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    insertable: ['id', ...GROUP],
    updatable: [...GROUP, 'deleted_at'],
    deletable: true,
    softDelete: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
  },
  {
    name: 'external_user_groups',
    rbac,
    readable: ['external_user_id', 'external_group_id', 'created_by', 'created_at', 'deleted_at'],
    insertable: ['external_user_id', 'external_group_id'],
    updatable: ['deleted_at'],
    deletable: true,
    primaryKey: ['external_user_id', 'external_group_id'],
    insertDefaults: createdBy,
    relationships: [fk('external_user_groups', 'external_user_id', 'external_users'), fk('external_user_groups', 'external_group_id', 'external_groups')],
  },
  {
    name: 'external_roles',
    rbac,
    readable: ['id', ...ROLE, 'scraper_id', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    insertable: ['id', ...ROLE],
    updatable: [...ROLE, 'deleted_at'],
    deletable: true,
    softDelete: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
  },
  {
    name: 'config_access',
    rbac,
    readable: ['id', ...ACCESS, 'scraper_id', 'created_by', 'created_at'],
    insertable: ['id', ...ACCESS.filter((column) => !column.startsWith('deleted'))],
    updatable: ACCESS,
    deletable: true,
    softDelete: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    relationships: [
      fk('config_access', 'config_id', 'config_items'),
      fk('config_access', 'external_user_id', 'external_users'),
      fk('config_access', 'external_group_id', 'external_groups'),
      fk('config_access', 'external_role_id', 'external_roles'),
    ],
  },
  {
    name: 'config_access_logs',
    rbac,
    readable: ['id', ...LOG, 'scraper_id', 'inserted_at'],
    insertable: ['id', ...LOG],
    deletable: true,
    primaryKey: ['id'],
    relationships: [fk('config_access_logs', 'config_id', 'config_items'), fk('config_access_logs', 'external_user_id', 'external_users'), fk('config_access_logs', 'external_role_id', 'external_roles')],
  },
  {
    name: 'access_reviews',
    rbac,
    readable: ['id', ...REVIEW, 'created_by'],
    insertable: ['id', ...REVIEW],
    deletable: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    relationships: [fk('access_reviews', 'config_id', 'config_items'), fk('access_reviews', 'external_user_id', 'external_users'), fk('access_reviews', 'external_role_id', 'external_roles')],
  },
];
