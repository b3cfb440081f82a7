import type { FunctionDef, RelationDef } from '../registry';

const fk = (relation: string, column: string, target: string) => ({ name: `${relation}_${column}_fkey`, target, columns: [[column, 'id']] as const });

const PLAYBOOK_COLUMNS = [
  'id', 'name', 'namespace', 'title', 'description', 'icon', 'category', 'labels', 'spec', 'source', 'webhook_path', 'error', 'created_by',
  'created_at', 'updated_at', 'deleted_at',
];

/** secret_parameters, claimed_by and lease_until are the runner's: never readable here. */
const RUN_COLUMNS = [
  'id', 'playbook_id', 'status', 'spec', 'parameters', 'config_id', 'component_id', 'check_id', 'parent_id', 'created_by', 'request', 'error',
  'timeout_millis', 'scheduled_time', 'start_time', 'end_time', 'created_at', 'updated_at',
];

const ACTION_COLUMNS = ['id', 'playbook_run_id', 'name', 'action_index', 'type', 'status', 'retry_count', 'scheduled_time', 'start_time', 'end_time', 'result', 'error', 'created_at'];

/**
 * Playbooks (migration 0019), spec §6 resources `playbooks` and `playbook_runs` (§7 Playbooks). Playbooks are
 * written through /api/playbooks (the spec checked whole); runs only through /api/playbook/run and the runner.
 */
export const playbookRelations: RelationDef[] = [
  {
    name: 'playbooks',
    rbac: 'playbooks',
    readable: PLAYBOOK_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'title', 'category', 'spec', 'source', 'created_at', 'updated_at'],
    relationships: [fk('playbooks', 'created_by', 'people')],
  },
  {
    name: 'playbook_names',
    rbac: 'playbooks',
    readable: ['id', 'name', 'namespace', 'title', 'icon', 'category', 'description'],
    primaryKey: ['id'],
  },
  {
    name: 'playbook_runs',
    rbac: 'playbook_runs',
    readable: RUN_COLUMNS,
    primaryKey: ['id'],
    notNull: ['id', 'playbook_id', 'status', 'created_at', 'scheduled_time'],
    relationships: [
      fk('playbook_runs', 'playbook_id', 'playbooks'),
      fk('playbook_runs', 'created_by', 'people'),
      fk('playbook_runs', 'config_id', 'config_items'),
      fk('playbook_runs', 'component_id', 'components'),
      fk('playbook_runs', 'check_id', 'checks'),
      fk('playbook_runs', 'parent_id', 'playbook_runs'),
    ],
  },
  {
    name: 'playbook_run_actions',
    rbac: 'playbook_runs',
    readable: ACTION_COLUMNS,
    primaryKey: ['id'],
    notNull: ['id', 'playbook_run_id', 'name', 'action_index', 'status', 'created_at'],
    relationships: [fk('playbook_run_actions', 'playbook_run_id', 'playbook_runs')],
  },
  {
    name: 'playbook_approvals',
    rbac: 'playbook_runs',
    readable: ['id', 'run_id', 'person_id', 'team_id', 'created_at'],
    primaryKey: ['id'],
    relationships: [fk('playbook_approvals', 'run_id', 'playbook_runs'), fk('playbook_approvals', 'person_id', 'people'), fk('playbook_approvals', 'team_id', 'teams')],
  },
];

export const playbookFunctions: FunctionDef[] = [{ name: 'get_playbook_run_actions', rbac: 'playbook_runs', action: 'read' }];
