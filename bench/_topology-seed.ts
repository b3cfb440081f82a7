// The topology benchmarks' data (bench/topology.ts, bench/topology-page.ts): 10,000 pods of 500 services in
// 10 systems as catalog items, 500 checks, and a topology of 5,011 components four levels deep over them.
import type pg from 'pg';

const SYSTEMS = 10;
const SERVICES = 500;
export const PODS = 10_000;
const WEB_PODS_PER_SERVICE = 9;

export async function seed(pool: pg.Pool): Promise<void> {
  const started = Date.now();
  // Pods: service svc-N gets 20; the first 9 of each are tier web (the big topology's), the rest batch.
  await pool.query(
    `INSERT INTO config_items (external_id, type, config_class, name, namespace, health, status, labels, tags, config, last_scraped_time)
     SELECT ARRAY['pod-' || g], 'Kubernetes::Pod', 'Pod', 'svc-' || (g % $1) || '-pod-' || (g / $1), 'sys-' || ((g % $1) % $2),
       CASE WHEN g % 20 = 3 THEN 'unhealthy' WHEN g % 50 = 7 THEN 'warning' ELSE 'healthy' END,
       CASE WHEN g % 20 = 3 THEN 'CrashLoopBackOff' ELSE 'Running' END,
       jsonb_build_object('service', 'svc-' || (g % $1), 'tier', CASE WHEN g / $1 < $3 THEN 'web' ELSE 'batch' END),
       jsonb_build_object('namespace', 'sys-' || ((g % $1) % $2), 'cluster', 'bench'),
       jsonb_build_object('kind', 'Pod', 'spec', jsonb_build_object('nodeName', 'node-' || (g % 40))), now()
     FROM generate_series(0, $4 - 1) g`,
    [SERVICES, SYSTEMS, WEB_PODS_PER_SERVICE, PODS],
  );
  const { rows } = await pool.query<{ id: string }>(`INSERT INTO canaries (name, namespace, spec) VALUES ('bench-services', 'bench', '{}') RETURNING id`);
  await pool.query(
    `INSERT INTO checks (canary_id, key, type, name, namespace, status, last_runtime)
     SELECT $1, 'http/svc-' || g, 'http', 'svc-' || g, 'bench', CASE WHEN g % 25 = 4 THEN 'unhealthy' ELSE 'healthy' END, now()
     FROM generate_series(0, $2 - 1) g`,
    [rows[0]?.id, SERVICES],
  );
  await pool.query('VACUUM ANALYZE config_items, checks');
  process.stdout.write(`seeded ${PODS} configs and ${SERVICES} checks in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** root > 10 systems > 50 services each (with its check) > 9 pods each, looked up by labels. */
export function bigSpec(): Record<string, unknown> {
  const systems = Array.from({ length: SYSTEMS }, (_, s) => ({
    name: `system-${s}`,
    type: 'System',
    owner: `team-${s % 4}`,
    labels: { system: `system-${s}` },
    components: Array.from({ length: SERVICES / SYSTEMS }, (_, i) => {
      const service = `svc-${s + i * SYSTEMS}`;
      return {
        name: service,
        type: 'Service',
        checks: [{ name: service }],
        properties: [{ name: 'replicas', value: WEB_PODS_PER_SERVICE, headline: true }],
        lookup: { configs: [{ type: 'Kubernetes::Pod', labels: { service, tier: 'web' } }] },
      };
    }),
  }));
  return { schedule: '@never', type: 'Platform', icon: 'server', components: systems };
}

