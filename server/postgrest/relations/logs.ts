import type { RelationDef } from '../registry';

/** Logs (migration 0013): backends are written through /api/logs/backends, which checks the whole spec. */
export const logRelations: RelationDef[] = [
  {
    name: 'logging_backends',
    rbac: 'logging_backends',
    readable: ['id', 'name', 'namespace', 'labels', 'spec', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
  },
  { name: 'components_with_logs', rbac: 'logging_backends', readable: ['id', 'name', 'type', 'icon', 'topology_id', 'health', 'logs'], primaryKey: ['id'] },
];
