import type { RelationDef } from '../registry';

const rbac = 'topologies' as const;

const TOPOLOGY_COLUMNS = ['id', 'name', 'namespace', 'agent_id', 'icon', 'labels', 'spec', 'schedule', 'source', 'created_by', 'next_run_at', 'last_run_at', 'created_at', 'updated_at', 'deleted_at', 'components', 'root_id'];

const COMPONENT_COLUMNS = [
  'id', 'topology_id', 'agent_id', 'external_id', 'parent_id', 'path', 'name', 'text', 'type', 'icon', 'owner', 'tooltip', 'description', 'labels',
  'properties', 'health', 'own_health', 'status', 'status_reason', 'hidden', 'config_id', 'summary', 'sort_order', 'source', 'created_at', 'updated_at', 'deleted_at',
];

/**
 * Topology relations (migration 0010), read-only: topologies are written through /api/canary/topologies
 * (the whole spec checked), components by topology runs. Secrets in specs show as ******.
 */
export const topologyRelations: RelationDef[] = [
  {
    name: 'topologies',
    source: 'topologies_shown',
    rbac,
    readable: TOPOLOGY_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    relationships: [
      { name: 'topologies_agent_id_fkey', target: 'agents', columns: [['agent_id', 'id']] },
      { name: 'topologies_created_by_fkey', target: 'people', columns: [['created_by', 'id']] },
    ],
  },
  // Spec §7 names the relation `topology` as well.
  { name: 'topology', source: 'topologies_shown', rbac, readable: TOPOLOGY_COLUMNS, primaryKey: ['id'], softDelete: true },
  {
    name: 'components',
    rbac,
    readable: COMPONENT_COLUMNS,
    primaryKey: ['id'],
    softDelete: true,
    relationships: [
      { name: 'components_topology_id_fkey', target: 'topologies', columns: [['topology_id', 'id']] },
      { name: 'components_parent_id_fkey', target: 'components', columns: [['parent_id', 'id']] },
      { name: 'components_config_id_fkey', target: 'config_items', columns: [['config_id', 'id']] },
    ],
  },
  { name: 'component_names', rbac, readable: ['id', 'name', 'text', 'type', 'icon', 'topology_id', 'parent_id', 'health', 'hidden', 'deleted_at'], primaryKey: ['id'], softDelete: true },
  { name: 'component_labels', rbac, readable: ['key', 'value'] },
  { name: 'component_types', rbac, readable: ['type'] },
  {
    name: 'component_relationships',
    rbac,
    readable: ['component_id', 'relationship_id', 'selector_id', 'created_at', 'updated_at', 'deleted_at'],
    primaryKey: ['component_id', 'relationship_id', 'selector_id'],
    softDelete: true,
    relationships: [
      { name: 'component_relationships_component_id_fkey', target: 'components', columns: [['component_id', 'id']] },
      { name: 'component_relationships_relationship_id_fkey', target: 'components', columns: [['relationship_id', 'id']] },
    ],
  },
];
