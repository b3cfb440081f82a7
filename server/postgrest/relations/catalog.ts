import type { FunctionDef, RelationDef } from '../registry';

const ITEM_COLUMNS = [
  'id', 'scraper_id', 'agent_id', 'external_id', 'type', 'config_class', 'name', 'namespace', 'description', 'status', 'ready', 'health',
  'source', 'labels', 'tags', 'parent_id', 'path', 'cost_per_minute', 'cost_total_1d', 'cost_total_7d', 'cost_total_30d', 'created_by',
  'created_at', 'updated_at', 'last_scraped_time', 'deleted_at', 'delete_reason',
];

const CHANGE_COLUMNS = [
  'id', 'config_id', 'config_type', 'external_change_id', 'change_type', 'severity', 'source', 'summary', 'details', 'patches', 'diff',
  'fingerprint', 'count', 'first_observed', 'created_by', 'external_created_by', 'created_at',
];

const ANALYSIS_COLUMNS = [
  'id', 'config_id', 'scraper_id', 'analyzer', 'message', 'summary', 'status', 'severity', 'analysis_type', 'analysis', 'source',
  'first_observed', 'last_observed',
];

const rbac = 'config_scrapers' as const;
const toItem = (name: string, column = 'config_id') => ({ name, target: 'config_items', columns: [[column, 'id']] as const });

/**
 * The catalog's relations (migration 0007), read-only except the manual links to components: items,
 * changes and insights are written by scrapers, scrapers through /api/catalog/scrapers (the whole spec
 * validated).
 */
export const catalogRelations: RelationDef[] = [
  {
    name: 'config_scrapers',
    // Secrets in specs show as ****** (migration 0009); the scraper API keeps them when a mask is saved back.
    source: 'config_scrapers_shown',
    rbac,
    readable: ['id', 'name', 'namespace', 'agent_id', 'description', 'labels', 'spec', 'schedule', 'source', 'created_by', 'next_run_at', 'last_run_at', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['id'],
    softDelete: true,
    relationships: [
      { name: 'config_scrapers_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] },
      { name: 'config_scrapers_created_by_fkey', target: 'people', columns: [['created_by', 'id']] },
    ],
  },
  {
    // The scrapers list in one read (migration 0011): each scraper with its latest run and its live items.
    name: 'config_scrapers_summary',
    rbac,
    readable: [
      'id', 'name', 'namespace', 'agent_id', 'description', 'labels', 'spec', 'schedule', 'source', 'created_by', 'next_run_at', 'last_run_at',
      'created_at', 'updated_at', 'deleted_at', 'last_job_status', 'last_job_time', 'last_job_error_count', 'item_count',
    ],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'name', 'namespace', 'agent_id', 'labels', 'spec', 'source', 'next_run_at', 'created_at', 'updated_at', 'item_count'],
  },
  {
    name: 'config_items',
    rbac,
    readable: [...ITEM_COLUMNS, 'properties', 'config'],
    primaryKey: ['id'],
    softDelete: true,
    relationships: [
      { name: 'config_items_scraper_id_fkey', target: 'config_scrapers', columns: [['scraper_id', 'id']] },
      { name: 'config_items_parent_id_fkey', target: 'config_items', columns: [['parent_id', 'id']] },
    ],
  },
  {
    // The list: no config, with changes (last 7 days) and open insights by type.
    name: 'configs',
    rbac,
    readable: [...ITEM_COLUMNS, 'changes', 'analysis'],
    primaryKey: ['id'],
    softDelete: true,
    notNull: ['id', 'agent_id', 'external_id', 'type', 'labels', 'tags', 'path', 'created_at', 'updated_at', 'changes'],
    relationships: [{ name: 'configs_scraper_id_fkey', target: 'config_scrapers', columns: [['scraper_id', 'id']] }],
  },
  {
    name: 'config_detail',
    rbac,
    readable: [...ITEM_COLUMNS, 'properties', 'config', 'fingerprint', 'scraper', 'summary'],
    primaryKey: ['id'],
    softDelete: true,
  },
  { name: 'config_names', rbac, readable: ['id', 'name', 'type', 'namespace', 'config_class', 'health', 'status', 'deleted_at'], primaryKey: ['id'], softDelete: true },
  { name: 'config_types', rbac, readable: ['type'] },
  { name: 'config_statuses', rbac, readable: ['status'] },
  { name: 'config_tags', rbac, readable: ['key', 'value'] },
  { name: 'config_labels', rbac, readable: ['key', 'value'] },
  { name: 'config_analysis_analyzers', rbac, readable: ['analyzer', 'analysis_type'] },
  { name: 'change_types', rbac, readable: ['change_type'] },
  {
    name: 'config_changes',
    rbac,
    readable: CHANGE_COLUMNS,
    primaryKey: ['id'],
    relationships: [toItem('config_changes_config_id_fkey')],
  },
  {
    name: 'config_analysis',
    rbac,
    readable: ANALYSIS_COLUMNS,
    primaryKey: ['id'],
    relationships: [toItem('config_analysis_config_id_fkey')],
  },
  {
    name: 'config_analysis_items',
    rbac,
    readable: [...ANALYSIS_COLUMNS, 'config_name', 'config_type', 'config_class', 'config_tags', 'config_health', 'config_deleted_at', 'config'],
    primaryKey: ['id'],
  },
  {
    name: 'config_relationships',
    rbac,
    readable: ['config_id', 'related_id', 'relation', 'selector_id', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['config_id', 'related_id', 'selector_id'],
    softDelete: true,
    relationships: [toItem('config_relationships_config_id_fkey'), toItem('config_relationships_related_id_fkey', 'related_id')],
  },
  {
    // Spec §7: POST {component_id, config_id, selector_id 'manual'} links an item to a component; DELETE unlinks.
    name: 'config_component_relationships',
    rbac,
    writeRbac: 'topologies',
    readable: ['component_id', 'config_id', 'selector_id', 'created_at', 'updated_at', 'deleted_at'],
    insertable: ['component_id', 'config_id', 'selector_id'],
    deletable: true,
    primaryKey: ['component_id', 'config_id'],
    relationships: [toItem('config_component_relationships_config_id_fkey')],
  },
  {
    name: 'changes_by_component',
    rbac,
    readable: ['component_id', 'id', 'config_id', 'config_type', 'change_type', 'severity', 'source', 'summary', 'count', 'first_observed', 'created_at', 'config_name', 'type'],
  },
  {
    name: 'analysis_by_component',
    rbac,
    readable: ['component_id', 'id', 'config_id', 'analyzer', 'analysis_type', 'severity', 'status', 'message', 'first_observed', 'last_observed', 'config_name', 'config_type'],
  },
];

export const catalogFunctions: FunctionDef[] = [
  { name: 'related_configs_recursive', rbac, action: 'read' },
  { name: 'get_parents_by_location', rbac, action: 'read' },
  { name: 'lookup_analysis_by_component', rbac, action: 'read' },
];
