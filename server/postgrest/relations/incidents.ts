import { registeredAfterWrite } from '../hooks';
import type { RelationDef } from '../registry';

const createdBy = { created_by: (actor: { id: string } | undefined) => actor?.id };

const INCIDENT_COLUMNS = [
  'id', 'incident_id', 'title', 'description', 'type', 'status', 'severity', 'commander_id', 'communicator_id', 'created_by',
  'incident_rule_id', 'source_kind', 'source_id', 'investigating_at', 'mitigated_at', 'resolved_at', 'closed_at', 'created_at', 'updated_at',
];
const INCIDENT_WRITABLE = ['title', 'description', 'type', 'status', 'severity', 'commander_id', 'communicator_id'];

const EVIDENCE_COLUMNS = [
  'id', 'hypothesis_id', 'type', 'description', 'evidence', 'properties', 'check_id', 'config_id', 'config_change_id', 'config_analysis_id',
  'component_id', 'definition_of_done', 'done', 'script', 'created_by', 'created_at', 'updated_at',
];

const people = (relation: string, column: string) => ({ name: `${relation}_${column}_fkey`, target: 'people', columns: [[column, 'id']] as const });

/**
 * Incidents (migration 0012). Spec §6: commander and responder write incidents, evidences, comments and
 * responders (hypotheses are part of the incident); viewers read. Triggers check every value (a bad one
 * answers 400 naming the field), keep evidence snapshots and write the timeline, so these rows are all a
 * client touches. Incidents are never deleted, only closed.
 */
export const incidentRelations: RelationDef[] = [
  {
    name: 'incidents',
    rbac: 'incident',
    readable: INCIDENT_COLUMNS,
    insertable: INCIDENT_WRITABLE,
    updatable: INCIDENT_WRITABLE,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    afterWrite: registeredAfterWrite('incidents'),
    relationships: [
      people('incidents', 'commander_id'),
      people('incidents', 'communicator_id'),
      people('incidents', 'created_by'),
    ],
  },
  {
    name: 'incident_summary',
    rbac: 'incident',
    readable: [...INCIDENT_COLUMNS.filter((column) => column !== 'source_kind' && column !== 'source_id'), 'commander', 'creator', 'responders', 'hypotheses', 'evidences', 'comments', 'component_ids', 'config_ids', 'check_ids'],
    primaryKey: ['id'],
    notNull: ['id', 'incident_id', 'title', 'type', 'status', 'severity', 'created_at', 'updated_at', 'responders', 'hypotheses', 'evidences', 'comments'],
  },
  {
    name: 'hypotheses',
    rbac: 'incident',
    readable: ['id', 'incident_id', 'parent_id', 'type', 'title', 'status', 'team_id', 'created_by', 'created_at', 'updated_at'],
    insertable: ['incident_id', 'parent_id', 'type', 'title', 'status', 'team_id'],
    updatable: ['title', 'status', 'team_id'],
    deletable: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    relationships: [
      { name: 'hypotheses_incident_id_fkey', target: 'incidents', columns: [['incident_id', 'id']] },
      { name: 'hypotheses_parent_id_fkey', target: 'hypotheses', columns: [['parent_id', 'id']] },
      people('hypotheses', 'created_by'),
    ],
  },
  {
    name: 'evidences',
    rbac: 'evidences',
    readable: EVIDENCE_COLUMNS,
    insertable: ['hypothesis_id', 'type', 'description', 'evidence', 'properties', 'check_id', 'config_id', 'config_change_id', 'config_analysis_id', 'component_id', 'definition_of_done', 'done', 'script'],
    updatable: ['description', 'properties', 'definition_of_done', 'done', 'script'],
    deletable: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    afterWrite: registeredAfterWrite('evidences'),
    relationships: [
      { name: 'evidences_hypothesis_id_fkey', target: 'hypotheses', columns: [['hypothesis_id', 'id']] },
      { name: 'evidences_check_id_fkey', target: 'checks', columns: [['check_id', 'id']] },
      { name: 'evidences_config_id_fkey', target: 'config_items', columns: [['config_id', 'id']] },
      { name: 'evidences_component_id_fkey', target: 'components', columns: [['component_id', 'id']] },
      people('evidences', 'created_by'),
    ],
  },
  {
    name: 'comments',
    rbac: 'comments',
    readable: ['id', 'incident_id', 'hypothesis_id', 'responder_id', 'comment', 'created_by', 'external_created_by', 'created_at', 'updated_at'],
    insertable: ['incident_id', 'hypothesis_id', 'responder_id', 'comment'],
    updatable: ['comment'],
    deletable: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    afterWrite: registeredAfterWrite('comments'),
    relationships: [
      { name: 'comments_incident_id_fkey', target: 'incidents', columns: [['incident_id', 'id']] },
      { name: 'comments_hypothesis_id_fkey', target: 'hypotheses', columns: [['hypothesis_id', 'id']] },
      people('comments', 'created_by'),
    ],
  },
  {
    name: 'responders',
    rbac: 'responder',
    readable: ['id', 'incident_id', 'type', 'person_id', 'team_id', 'properties', 'acknowledged', 'created_by', 'created_at', 'updated_at'],
    insertable: ['incident_id', 'type', 'person_id', 'team_id', 'properties'],
    updatable: ['properties', 'acknowledged'],
    deletable: true,
    primaryKey: ['id'],
    insertDefaults: createdBy,
    afterWrite: registeredAfterWrite('responders'),
    relationships: [
      { name: 'responders_incident_id_fkey', target: 'incidents', columns: [['incident_id', 'id']] },
      people('responders', 'person_id'),
      { name: 'responders_team_id_fkey', target: 'teams', columns: [['team_id', 'id']] },
      people('responders', 'created_by'),
    ],
  },
  {
    name: 'incident_histories',
    rbac: 'incident',
    readable: ['id', 'incident_id', 'type', 'description', 'hypothesis_id', 'evidence_id', 'comment_id', 'responder_id', 'created_by', 'created_at'],
    primaryKey: ['id'],
    relationships: [
      { name: 'incident_histories_incident_id_fkey', target: 'incidents', columns: [['incident_id', 'id']] },
      people('incident_histories', 'created_by'),
    ],
  },
  {
    // Written through /api/incident/rules (the whole spec checked) and `watchkeeper apply`.
    name: 'incident_rules',
    rbac: 'incident',
    readable: ['id', 'name', 'namespace', 'labels', 'spec', 'source', 'created_by', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
  },
  { name: 'incidents_by_component', rbac: 'incident', readable: ['component_id', 'component_name', 'id', 'incident_id', 'title', 'type', 'status', 'severity', 'created_at'] },
  { name: 'incidents_by_config', rbac: 'incident', readable: ['config_id', 'config_name', 'id', 'incident_id', 'title', 'type', 'status', 'severity', 'created_at'] },
];
