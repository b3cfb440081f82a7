import type { RelationDef } from '../registry';

const creator = (table: string) => ({ name: `${table}_created_by_fkey`, target: 'people', columns: [['created_by', 'id']] as const });

/**
 * Connections, secrets and config maps (migration 0017), read only, admins only (spec §6: the
 * `connections` resource). Secret values are never readable: the views answer ****** for an encrypted
 * value and keys without values for a Secret. Writes go through /api/connections, /api/secrets and
 * /api/config_maps, which check and encrypt them.
 */
export const connectionRelations: RelationDef[] = [
  {
    name: 'connections',
    source: 'connections_shown',
    rbac: 'connections',
    readable: ['id', 'name', 'namespace', 'type', 'url', 'username', 'password', 'certificate', 'insecure_tls', 'properties', 'labels', 'tags', 'source', 'agent_id', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'type', 'insecure_tls', 'created_at', 'updated_at'],
    relationships: [creator('connections')],
  },
  {
    name: 'secrets',
    source: 'secrets_shown',
    rbac: 'connections',
    readable: ['id', 'name', 'namespace', 'type', 'keys', 'labels', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    relationships: [creator('secrets')],
  },
  {
    name: 'config_maps',
    source: 'config_maps_shown',
    rbac: 'connections',
    readable: ['id', 'name', 'namespace', 'keys', 'data', 'labels', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    relationships: [creator('config_maps')],
  },
];
