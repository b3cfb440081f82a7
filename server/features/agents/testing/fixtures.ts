import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { PUSH_TABLES, TABLE_DEFS, type PushTable } from '../tables';

/**
 * An agent's database for the push tests: one row (or two, where a relationship needs a pair) of every
 * pushed table, written the way the agent writes them (agent_id local), so a test reads them back with
 * row_to_json exactly as the agent's pusher does.
 */
export interface AgentRows {
  ids: {
    person: string;
    scraper: string;
    canary: string;
    topology: string;
    check: string;
    check2: string;
    component: string;
    component2: string;
    config: string;
    config2: string;
    change: string;
    analysis: string;
    job: string;
  };
  statusTimes: string[];
}

export async function seedAgentDatabase(db: pg.Pool): Promise<AgentRows> {
  const ids = {
    person: randomUUID(),
    scraper: randomUUID(),
    canary: randomUUID(),
    topology: randomUUID(),
    check: randomUUID(),
    check2: randomUUID(),
    component: randomUUID(),
    component2: randomUUID(),
    config: randomUUID(),
    config2: randomUUID(),
    change: randomUUID(),
    analysis: randomUUID(),
    job: randomUUID(),
  };
  const statusTimes = ['2025-01-02T03:04:05.123456+00:00', '2025-01-02T03:05:05.5+00:00'];
  await db.query("INSERT INTO people (id, name, email) VALUES ($1, 'someone on the agent', 'agent-person@example.com')", [ids.person]);
  await db.query(
    `INSERT INTO config_scrapers (id, name, namespace, spec, schedule, created_by, labels) VALUES ($1, 'kube', 'default', '{"kubernetes":[{"clusterName":"edge"}]}', '@every 5m', $2, '{"team":"edge"}')`,
    [ids.scraper, ids.person],
  );
  await db.query(`INSERT INTO canaries (id, name, namespace, spec, schedule, created_by) VALUES ($1, 'web', 'prod', '{"http":[{"name":"home","url":"http://127.0.0.1:1"}]}', '@every 30s', $2)`, [ids.canary, ids.person]);
  await db.query(`INSERT INTO topologies (id, name, namespace, icon, spec, schedule) VALUES ($1, 'cluster', 'default', 'k8s', '{"components":[]}', '@every 5m')`, [ids.topology]);
  await db.query(
    `INSERT INTO checks (id, canary_id, key, type, name, namespace, labels, status, last_runtime, description) VALUES
       ($1, $3, 'http/home', 'http', 'home', 'prod', '{"app":"web"}', 'healthy', '2025-01-02T03:05:05Z', 'the home page'),
       ($2, $3, 'http/api', 'http', 'api', 'prod', '{}', 'unhealthy', '2025-01-02T03:05:05Z', null)`,
    [ids.check, ids.check2, ids.canary],
  );
  await db.query(
    `INSERT INTO config_items (id, scraper_id, external_id, type, config_class, name, namespace, tags, labels, config, health, status, created_by) VALUES
       ($1, $3, ARRAY['edge/ns/web'], 'Kubernetes::Deployment', 'Deployment', 'web', 'prod', '{"cluster":"edge"}', '{"app":"web"}', '{"spec":{"replicas":2}}', 'healthy', 'Running', $4),
       ($2, $3, ARRAY['edge/ns/web-rs'], 'Kubernetes::ReplicaSet', 'ReplicaSet', 'web-123', 'prod', '{}', '{}', '{"spec":{"replicas":2}}', 'healthy', 'Running', null)`,
    [ids.config, ids.config2, ids.scraper, ids.person],
  );
  await db.query(
    `INSERT INTO components (id, topology_id, external_id, name, type, health, status, config_id, properties) VALUES
       ($1, $3, 'cluster/edge', 'edge', 'Cluster', 'healthy', 'healthy', $4, '[{"name":"nodes","value":3}]'),
       ($2, $3, 'cluster/edge/web', 'web', 'Service', 'unhealthy', 'unhealthy', null, '[]')`,
    [ids.component, ids.component2, ids.topology, ids.config],
  );
  await db.query('UPDATE components SET parent_id = $1 WHERE id = $2', [ids.component, ids.component2]);
  for (const [index, time] of statusTimes.entries()) {
    await db.query('INSERT INTO check_statuses (check_id, time, status, duration, message, details) VALUES ($1, $2, $3, $4, $5, $6)', [
      ids.check,
      time,
      index === 0,
      120 + index,
      index === 0 ? 'ok' : 'timeout',
      JSON.stringify({ code: 200 + index }),
    ]);
  }
  await db.query(
    `INSERT INTO config_changes (id, config_id, config_type, external_change_id, change_type, severity, source, summary, details, created_by) VALUES
       ($1, $2, 'Kubernetes::Deployment', 'ev-1', 'diff', 'info', 'kubernetes', 'replicas 1 → 2', '{"a":1}', $3)`,
    [ids.change, ids.config, ids.person],
  );
  await db.query(
    `INSERT INTO config_analysis (id, config_id, scraper_id, analyzer, message, summary, status, severity, analysis_type, analysis) VALUES
       ($1, $2, $3, 'no-limits', 'no resource limits', 'no limits', 'open', 'medium', 'reliability', '{"containers":["web"]}')`,
    [ids.analysis, ids.config, ids.scraper],
  );
  await db.query("INSERT INTO config_relationships (config_id, related_id, relation, selector_id) VALUES ($1, $2, 'DeploymentReplicaSet', 'owner')", [ids.config, ids.config2]);
  await db.query("INSERT INTO component_relationships (component_id, relationship_id, selector_id) VALUES ($1, $2, 'sel')", [ids.component, ids.component2]);
  await db.query("INSERT INTO config_component_relationships (component_id, config_id, selector_id) VALUES ($1, $2, 'by-name')", [ids.component2, ids.config]);
  await db.query("INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id) VALUES ($1, $2, $3, 'sel')", [ids.check, ids.component2, ids.canary]);
  await db.query("INSERT INTO check_config_relationships (check_id, config_id, canary_id, selector_id) VALUES ($1, $2, $3, 'sel')", [ids.check, ids.config, ids.canary]);
  await db.query(
    `INSERT INTO job_history (id, name, resource_type, resource_id, resource_name, status, success_count, error_count, details, hostname, duration_millis, time_start, time_end)
     VALUES ($1, 'canary', 'canary', $2, 'prod/web', 'SUCCESS', 2, 0, '{"note":"ran"}', 'edge-host', 150, '2025-01-02T03:05:00Z', '2025-01-02T03:05:01Z')`,
    [ids.job, ids.canary],
  );
  return { ids, statusTimes };
}

/** Every row of every pushed table, as the agent's pusher reads them (row_to_json). */
export async function dumpTables(db: pg.Pool, tables: readonly PushTable[] = PUSH_TABLES): Promise<Record<PushTable, Array<Record<string, unknown>>>> {
  const out: Partial<Record<PushTable, Array<Record<string, unknown>>>> = {};
  for (const table of tables) {
    const order = TABLE_DEFS[table].pk.join(', ');
    const { rows } = await db.query<{ row: Record<string, unknown> }>(`SELECT row_to_json(t) AS row FROM ${table} t ORDER BY ${order}`);
    out[table] = rows.map((row) => row.row);
  }
  return out as Record<PushTable, Array<Record<string, unknown>>>;
}
