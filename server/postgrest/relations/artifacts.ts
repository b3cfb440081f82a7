import type { RelationDef } from '../registry';

/**
 * Artifact rows (migration 0016), read-only and without their content (GET /api/artifacts/download/{id}
 * serves it): check artifacts that have not expired, read with `canaries` like the results they belong to.
 */
export const artifactRelations: RelationDef[] = [
  {
    name: 'artifacts',
    source: 'check_artifacts',
    rbac: 'canaries',
    readable: ['id', 'check_id', 'check_time', 'playbook_run_action_id', 'path', 'filename', 'size', 'stored_size', 'truncated', 'content_type', 'checksum',
      'created_at', 'updated_at', 'expires_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'path', 'filename', 'size', 'stored_size', 'truncated', 'checksum', 'created_at', 'updated_at'],
    relationships: [{ name: 'artifacts_check_id_fkey', target: 'checks', columns: [['check_id', 'id']] }],
  },
];
