import type { RelationDef } from '../registry';

/** Spec §7 /integrations_with_status (migration 0027): every integration with its health and last run. */
export const integrationRelations: RelationDef[] = [
  {
    name: 'integrations_with_status',
    rbac: 'integrations',
    // A row stands for a scraper, topology, canary, connection, notification or log backend: each is listed
    // only to callers who may read that kind too (a connection's name is not for every integrations reader).
    rowObjects: {
      column: 'integration_type',
      objects: { scrapers: 'config_scrapers', topologies: 'topologies', canaries: 'canaries', connections: 'connections', notifications: 'notifications', logging_backends: 'logging_backends' },
    },
    readable: [
      'id', 'name', 'namespace', 'description', 'integration_type', 'type', 'source', 'agent_id', 'agent', 'labels', 'created_by',
      'created_at', 'updated_at', 'health', 'job_name', 'job_status', 'job_time_start', 'job_time_end', 'job_duration_millis',
      'job_success_count', 'job_error_count', 'job_error', 'job_details', 'job_hostname', 'job_last_failed',
    ],
    primaryKey: ['id'],
    notNull: ['id', 'name', 'namespace', 'integration_type', 'source', 'agent_id', 'created_at', 'updated_at', 'health'],
    relationships: [
      { name: 'integrations_with_status_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] },
      { name: 'integrations_with_status_created_by_fkey', target: 'people', columns: [['created_by', 'id']] },
    ],
  },
];
