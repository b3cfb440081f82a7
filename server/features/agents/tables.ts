import { isOneOf } from '../../../common/guards';
/**
 * The tables an agent pushes upstream (issue 23, docs/API.md "Agents"), in the order upstream applies
 * them (parents before children). The names are fixed here, never taken from input: a push naming another
 * table is refused. Columns are read from the catalog once per pool (see push.ts).
 */

/** The local agent: every row an instance makes itself carries it. */
export const NIL_AGENT = '00000000-0000-0000-0000-000000000000';

/** A column that points at a row of another pushed table. */
export interface ParentRef {
  column: string;
  table: PushTable;
  /**
   * Owned: the parent must belong to the pushing agent (upstream already, or in the same batch): the
   * row's owner is its parent's. Otherwise only the database's own foreign key applies (a component
   * naming a config item, a check transformed from another).
   */
  owned: boolean;
}

export interface PushTableDef {
  name: PushTable;
  /** The primary key columns: the ON CONFLICT target and what a delete names. */
  pk: readonly string[];
  /** The table has agent_id: upstream sets it to the pushing agent's id. */
  agentId: boolean;
  parents: readonly ParentRef[];
  /** Columns referencing people: kept only when that person exists upstream, else NULL. */
  people: readonly string[];
  /** Scheduled by the runner (canaries, scrapers, topologies): upstream never runs an agent's copy. */
  scheduled: boolean;
  /** Rows only ever added (check statuses): an existing key is left as it is (the rollups count it once). */
  insertOnly: boolean;
}

export const PUSH_TABLES = [
  'config_scrapers',
  'canaries',
  'topologies',
  'checks',
  // Before components: a component may name its config item (components.config_id).
  'config_items',
  'components',
  'check_statuses',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'component_relationships',
  'config_component_relationships',
  'check_component_relationships',
  'check_config_relationships',
  'job_history',
] as const;
export type PushTable = (typeof PUSH_TABLES)[number];

export function isPushTable(value: string): value is PushTable {
  return isOneOf(PUSH_TABLES, value);
}

const owned = (column: string, table: PushTable): ParentRef => ({ column, table, owned: true });
const loose = (column: string, table: PushTable): ParentRef => ({ column, table, owned: false });

function def(name: PushTable, options: Partial<Omit<PushTableDef, 'name'>>): PushTableDef {
  return { name, pk: ['id'], agentId: false, parents: [], people: [], scheduled: false, insertOnly: false, ...options };
}

export const TABLE_DEFS: Record<PushTable, PushTableDef> = {
  config_scrapers: def('config_scrapers', { agentId: true, people: ['created_by'], scheduled: true }),
  canaries: def('canaries', { agentId: true, people: ['created_by'], scheduled: true }),
  topologies: def('topologies', { agentId: true, people: ['created_by'], scheduled: true }),
  checks: def('checks', { agentId: true, parents: [owned('canary_id', 'canaries'), loose('transformed_from', 'checks')] }),
  components: def('components', { agentId: true, parents: [owned('topology_id', 'topologies'), loose('parent_id', 'components'), loose('config_id', 'config_items')] }),
  config_items: def('config_items', { agentId: true, parents: [owned('scraper_id', 'config_scrapers'), loose('parent_id', 'config_items')], people: ['created_by'] }),
  check_statuses: def('check_statuses', { pk: ['check_id', 'time'], parents: [owned('check_id', 'checks')], insertOnly: true }),
  config_changes: def('config_changes', { parents: [owned('config_id', 'config_items')], people: ['created_by'] }),
  config_analysis: def('config_analysis', { parents: [owned('config_id', 'config_items'), owned('scraper_id', 'config_scrapers')] }),
  config_relationships: def('config_relationships', { pk: ['config_id', 'related_id', 'selector_id'], parents: [owned('config_id', 'config_items'), owned('related_id', 'config_items')] }),
  component_relationships: def('component_relationships', { pk: ['component_id', 'relationship_id', 'selector_id'], parents: [owned('component_id', 'components'), owned('relationship_id', 'components')] }),
  config_component_relationships: def('config_component_relationships', { pk: ['component_id', 'config_id'], parents: [owned('component_id', 'components'), owned('config_id', 'config_items')] }),
  check_component_relationships: def('check_component_relationships', { pk: ['check_id', 'component_id'], parents: [owned('check_id', 'checks'), owned('component_id', 'components'), owned('canary_id', 'canaries')] }),
  check_config_relationships: def('check_config_relationships', { pk: ['check_id', 'config_id'], parents: [owned('check_id', 'checks'), owned('config_id', 'config_items'), owned('canary_id', 'canaries')] }),
  job_history: def('job_history', { agentId: true }),
};

/** Tables whose rows the agent owns directly (agent_id): an agent's deletion cleans these up. */
export const OWNED_TABLES = PUSH_TABLES.filter((name) => TABLE_DEFS[name].agentId);
