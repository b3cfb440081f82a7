import type { FunctionDef, RelationDef } from '../registry';

const CHECK_COLUMNS = [
  'id', 'canary_id', 'canary_name', 'canary_namespace', 'agent_id', 'key', 'type', 'name', 'namespace', 'description', 'icon', 'endpoint',
  'labels', 'owner', 'severity', 'spec', 'transformed_from', 'status', 'last_runtime', 'last_pass', 'last_fail', 'last_transition_time',
  'next_runtime', 'created_at', 'updated_at', 'deleted_at',
];

const SUMMARY_COLUMNS = [
  'id', 'canary_id', 'canary_name', 'canary_namespace', 'agent_id', 'name', 'namespace', 'type', 'icon', 'description', 'endpoint', 'labels',
  'owner', 'severity', 'status', 'transformed_from', 'last_runtime', 'last_transition_time', 'next_runtime', 'created_at', 'updated_at',
  'deleted_at', 'since', 'uptime', 'latency',
];

/**
 * Health's relations (migration 0005), read-only here: canaries change through /api/canary/canaries,
 * which validates the whole spec and keeps the checks in step with it.
 */
export const healthRelations: RelationDef[] = [
  {
    name: 'canaries',
    // Secrets in specs show as ****** (migration 0011); the canary API keeps them when a mask is saved back.
    source: 'canaries_shown',
    rbac: 'canaries',
    readable: ['id', 'name', 'namespace', 'agent_id', 'labels', 'spec', 'schedule', 'source', 'created_by', 'next_run_at', 'last_run_at', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    relationships: [
      { name: 'canaries_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] },
      { name: 'canaries_created_by_fkey', target: 'people', columns: [['created_by', 'id']] },
    ],
  },
  {
    name: 'checks',
    // checks_view with secrets in the spec as ****** (migration 0011).
    source: 'checks_shown',
    rbac: 'canaries',
    readable: CHECK_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'canary_id', 'agent_id', 'key', 'type', 'name', 'namespace', 'labels', 'severity', 'spec', 'created_at', 'updated_at'],
    relationships: [
      { name: 'checks_canary_id_fkey', target: 'canaries', columns: [['canary_id', 'id']] },
      { name: 'checks_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] },
    ],
  },
  {
    // The History tab: pages of 50 raw results (spec §9), newest first.
    name: 'check_statuses',
    rbac: 'canaries',
    readable: ['check_id', 'time', 'status', 'invalid', 'duration', 'message', 'error', 'details', 'created_at'],
    primaryKey: ['check_id', 'time'],
    relationships: [{ name: 'check_statuses_check_id_fkey', target: 'checks', columns: [['check_id', 'id']] }],
  },
  {
    name: 'canary_names',
    rbac: 'canaries',
    readable: ['id', 'name', 'namespace'],
    primaryKey: ['id'],
  },
  {
    // Every check with uptime and latency over the last 24 hours in whole hours (`since` says from when);
    // /api/canary/api/summary answers any other range.
    name: 'check_summary',
    rbac: 'canaries',
    readable: SUMMARY_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    relationships: [{ name: 'check_summary_canary_id_fkey', target: 'canaries', columns: [['canary_id', 'id']] }],
  },
  {
    name: 'checks_by_component',
    rbac: 'canaries',
    readable: ['component_id', 'id', 'canary_id', 'name', 'namespace', 'type', 'icon', 'description', 'endpoint', 'labels', 'severity', 'status',
      'last_runtime', 'last_transition_time', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['component_id', 'id'],
    softDelete: true,
  },
  {
    name: 'check_summary_for_config',
    rbac: 'canaries',
    readable: ['config_id', ...SUMMARY_COLUMNS],
    primaryKey: ['config_id', 'id'],
    softDelete: true,
  },
  {
    name: 'check_component_relationships',
    rbac: 'canaries',
    readable: ['check_id', 'component_id', 'canary_id', 'selector_id', 'created_at', 'deleted_at'],
    primaryKey: ['check_id', 'component_id'],
    softDelete: true,
    relationships: [
      { name: 'check_component_relationships_check_id_fkey', target: 'checks', columns: [['check_id', 'id']] },
      { name: 'check_component_relationships_component_id_fkey', target: 'components', columns: [['component_id', 'id']] },
    ],
  },
  {
    name: 'check_config_relationships',
    rbac: 'canaries',
    readable: ['check_id', 'config_id', 'canary_id', 'selector_id', 'created_at', 'deleted_at'],
    primaryKey: ['check_id', 'config_id'],
    softDelete: true,
    relationships: [
      { name: 'check_config_relationships_check_id_fkey', target: 'checks', columns: [['check_id', 'id']] },
      { name: 'check_config_relationships_config_id_fkey', target: 'config_items', columns: [['config_id', 'id']] },
    ],
  },
];

export const healthFunctions: FunctionDef[] = [];
