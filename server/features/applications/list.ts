import type pg from 'pg';
import { healthOf, type HealthSummary } from './report';
import { selectConfigs } from './selectors';
import { checkApplicationSpec } from './spec';

export interface ApplicationCard {
  id: string;
  name: string;
  namespace: string;
  type: string;
  description: string | null;
  labels: Record<string, string>;
  source: string;
  created_at: string;
  updated_at: string;
  /** Health of the environments' and datasources' config items. */
  health: HealthSummary;
  environments: string[];
  configs: number;
  open_incidents: number;
}

/** Every live application with what its card shows, by namespace and name. */
export async function listApplications(db: pg.Pool): Promise<ApplicationCard[]> {
  const { rows } = await db.query<Omit<ApplicationCard, 'health' | 'environments' | 'configs' | 'open_incidents'> & { spec: Record<string, unknown> }>(
    'SELECT id, name, namespace, type, description, labels, spec, source, created_at, updated_at FROM applications WHERE deleted_at IS NULL ORDER BY namespace, name',
  );
  const cards: ApplicationCard[] = [];
  for (const { spec: raw, ...row } of rows) {
    const spec = checkApplicationSpec(raw).checked?.spec ?? {};
    const environments = spec.mapping?.environments ?? {};
    const nonEmpty = (list: ReadonlyArray<Record<string, unknown>>) => list.filter((selector) => Object.entries(selector).some(([key, value]) => !['purpose', 'limit', 'includeDeleted', 'cache', 'scope'].includes(key) && value !== undefined && value !== ''));
    const configs = await selectConfigs(db, nonEmpty([...Object.values(environments).flat(), ...(spec.mapping?.datasources ?? [])]));
    const live = configs.filter((config) => config.deleted_at === null);
    const ids = live.map((config) => config.id);
    const { rows: open } = await db.query<{ count: number }>(
      `SELECT count(DISTINCT i.id)::int AS count FROM incidents i
       WHERE i.status NOT IN ('resolved', 'closed') AND (
         (i.source_kind = 'config' AND i.source_id = ANY($1::uuid[]))
         OR EXISTS (SELECT 1 FROM hypotheses h JOIN evidences e ON e.hypothesis_id = h.id LEFT JOIN config_changes ch ON ch.id = e.config_change_id
                    WHERE h.incident_id = i.id AND coalesce(e.config_id, ch.config_id) = ANY($1::uuid[])))`,
      [ids],
    );
    cards.push({ ...row, health: healthOf(live), environments: Object.keys(environments).sort((a, b) => a.localeCompare(b)), configs: live.length, open_incidents: open[0]?.count ?? 0 });
  }
  return cards;
}
