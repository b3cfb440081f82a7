import type { RelationDef } from '../registry';

const people = (relation: string, column: string) => ({ name: `${relation}_${column}_fkey`, target: 'people', columns: [[column, 'id']] as const });
const team = (relation: string, column: string) => ({ name: `${relation}_${column}_fkey`, target: 'teams', columns: [[column, 'id']] as const });

const NOTIFICATION_COLUMNS = [
  'id', 'name', 'namespace', 'labels', 'spec', 'events', 'title', 'template', 'filter', 'properties', 'person_id', 'team_id', 'playbook_id',
  'custom_services', 'fallback_person_id', 'fallback_team_id', 'fallback_playbook_id', 'fallback_custom_services', 'fallback_delay',
  'repeat_interval', 'group_by', 'group_by_interval', 'wait_for', 'wait_for_eval_period', 'inhibitions', 'disabled', 'error', 'error_at',
  'source', 'agent_id', 'created_by', 'created_at', 'updated_at', 'deleted_at', 'waiting_for',
];

const SUMMARY_COLUMNS = [
  'id', 'name', 'namespace', 'labels', 'events', 'title', 'filter', 'person_id', 'team_id', 'playbook_id', 'custom_services', 'repeat_interval',
  'group_by', 'wait_for', 'inhibitions', 'disabled', 'error', 'error_at', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at',
  'sent', 'failed', 'pending', 'silenced', 'suppressed', 'last_sent', 'last_failed', 'status', 'waiting_for',
];

const HISTORY_COLUMNS = [
  'id', 'notification_id', 'event_id', 'source_event', 'resource_id', 'resource_type', 'status', 'reason', 'recipient', 'person_id', 'team_id',
  'connection_id', 'playbook_run_id', 'silenced_by', 'inhibited_by', 'parent_id', 'group_by_hash', 'title', 'body', 'error', 'not_before',
  'retries', 'count', 'first_observed', 'duration_millis', 'created_at', 'sent_at',
];

const SILENCE_COLUMNS = [
  'id', 'name', 'namespace', 'description', 'from', 'until', 'recursive', 'config_id', 'check_id', 'canary_id', 'component_id', 'filter',
  'selectors', 'error', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at',
];

/**
 * Notifications (migration 0018), spec §6 resource `notifications` (token object `notification`). Rules are
 * written through /api/notifications (the spec is checked whole, recipients looked up); send history is
 * written only by the engine. Silences are made through POST /api/notification/silence; here a console
 * silence may be ended early (until), described, or deleted.
 */
export const notificationRelations: RelationDef[] = [
  {
    name: 'notifications',
    rbac: 'notifications',
    readable: NOTIFICATION_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'events', 'disabled', 'created_at', 'updated_at'],
    relationships: [people('notifications', 'created_by'), people('notifications', 'person_id'), team('notifications', 'team_id')],
  },
  {
    name: 'notifications_summary',
    rbac: 'notifications',
    readable: SUMMARY_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    relationships: [people('notifications_summary', 'created_by'), people('notifications_summary', 'person_id'), team('notifications_summary', 'team_id')],
  },
  {
    name: 'notification_send_history',
    rbac: 'notifications',
    readable: HISTORY_COLUMNS,
    primaryKey: ['id'],
    relationships: [
      { name: 'notification_send_history_notification_id_fkey', target: 'notifications', columns: [['notification_id', 'id']] },
      people('notification_send_history', 'person_id'),
      team('notification_send_history', 'team_id'),
    ],
  },
  {
    name: 'notification_send_history_summary',
    rbac: 'notifications',
    readable: [...HISTORY_COLUMNS, 'notification_name', 'notification_namespace', 'resource'],
    primaryKey: ['id'],
    relationships: [
      { name: 'notification_send_history_summary_notification_id_fkey', target: 'notifications', columns: [['notification_id', 'id']] },
      people('notification_send_history_summary', 'person_id'),
      team('notification_send_history_summary', 'team_id'),
    ],
  },
  {
    name: 'notification_silences',
    rbac: 'notifications',
    readable: SILENCE_COLUMNS,
    updatable: ['description', 'until'],
    writableWhere: { column: 'source', equals: 'UI' },
    deletable: true,
    primaryKey: ['id'],
    softDelete: true,
    relationships: [people('notification_silences', 'created_by')],
  },
];
