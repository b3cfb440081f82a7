import { assertPropertyWrites } from '../../platform/auth/capabilities';
import { egressPolicyChanged, egressPropertyRefusal, touchesEgressPolicy } from '../../platform/egress';
import { asPgrstRefusal, PgrstError } from '../errors';
import type { RelationDef } from '../registry';

/** The platform's relations (server/db/migrations/0001_platform.sql) as the settings screens read them. */
export const platformRelations: RelationDef[] = [
  {
    // Feature flags (spec §6: '{feature}.disable' = 'true'); the Feature Flags page lists, adds, edits and deletes them.
    name: 'properties',
    rbac: 'feature_flags',
    readable: ['name', 'value', 'created_at', 'updated_at'],
    insertable: ['name', 'value'],
    // A flag is renamed by deleting and adding it: a rename would hide which setting it was from afterWrite.
    updatable: ['value'],
    deletable: true,
    primaryKey: ['name'],
    keysPerOrganization: true,
    // auth.* changes sign-in (registration, the default role): it needs the capability auth_settings too.
    // egress.* and the chart registry are admin settings (server/platform/egress.ts): admin or write on rbac.
    afterWrite: async (_client, { changes, actor }) => {
      await asPgrstRefusal(() => assertPropertyWrites(actor, changes));
      const refused = egressPropertyRefusal(actor, changes);
      if (refused) throw new PgrstError(403, '42501', refused, null, 'An admin changes it (docs/OPERATIONS.md "Egress policy").');
      if (touchesEgressPolicy(changes)) egressPolicyChanged();
    },
  },
  {
    name: 'agents',
    rbac: 'agents',
    readable: ['id', 'name', 'description', 'hostname', 'version', 'properties', 'person_id', 'created_by', 'last_seen', 'last_received', 'cleanup', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    relationships: [
      { name: 'agents_person_id_fkey', target: 'people', columns: [['person_id', 'id']] },
      { name: 'agents_created_by_fkey', target: 'people', columns: [['created_by', 'id']] },
    ],
  },
  {
    // The Agents page (/settings/agents, migration 0025): every agent but the local one, with its health
    // (online while it pushed within 3 heartbeats) and counts of what it pushed that is not deleted.
    name: 'agents_summary',
    rbac: 'agents',
    readable: [
      'id', 'name', 'description', 'properties', 'hostname', 'version', 'last_seen', 'last_received', 'heartbeat_seconds',
      'created_at', 'updated_at', 'created_by', 'person_id', 'health', 'checks', 'configs', 'canaries', 'scrapers', 'topologies',
    ],
    primaryKey: ['id'],
    notNull: ['id', 'name', 'properties', 'heartbeat_seconds', 'created_at', 'updated_at', 'health', 'checks', 'configs', 'canaries', 'scrapers', 'topologies'],
    relationships: [
      { name: 'agents_summary_person_id_fkey', target: 'people', columns: [['person_id', 'id']] },
      { name: 'agents_summary_created_by_fkey', target: 'people', columns: [['created_by', 'id']] },
    ],
  },
  {
    // Only what a person picker shows: never properties, last_login or anything identity keeps.
    name: 'people',
    rbac: 'database',
    readable: ['id', 'name', 'email', 'avatar', 'created_at'],
    primaryKey: ['id'],
    softDelete: true,
  },
  {
    name: 'job_history',
    rbac: 'database',
    readable: [
      'id', 'name', 'agent_id', 'resource_type', 'resource_id', 'resource_name', 'status', 'success_count', 'error_count',
      'details', 'hostname', 'duration_millis', 'time_start', 'time_end', 'created_at',
    ],
    primaryKey: ['id'],
    rowCount: 'job_history',
    relationships: [{ name: 'job_history_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] }],
  },
  {
    // The Jobs History page's read shape: job_history with the agent as {id, name}.
    name: 'job_histories',
    rbac: 'database',
    readable: [
      'id', 'name', 'agent_id', 'agent', 'resource_type', 'resource_id', 'resource_name', 'status', 'success_count', 'error_count',
      'details', 'hostname', 'duration_millis', 'time_start', 'time_end', 'created_at',
    ],
    primaryKey: ['id'],
    // One row per job_history row (a LEFT JOIN to agents), so the table's kept count is the view's,
    // and its columns from job_history keep their NOT NULL.
    rowCount: 'job_history',
    notNull: ['id', 'name', 'agent_id', 'status', 'success_count', 'error_count', 'details', 'time_start', 'created_at'],
    relationships: [{ name: 'job_histories_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] }],
  },
  {
    name: 'job_history_names',
    rbac: 'database',
    readable: ['name'],
  },
  {
    name: 'event_queue_summary',
    rbac: 'database',
    readable: ['name', 'consumer', 'pending', 'retrying', 'failed', 'average_attempts', 'first_failure', 'last_failure', 'most_common_error', 'oldest'],
  },
];
