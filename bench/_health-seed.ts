import type pg from 'pg';

/**
 * Health checks for benchmarks, inserted with SQL the way the runner would leave them: `checks` checks in
 * canaries of `perCanary` (namespaces ns-0..4, labels team/env from the canary plus region/critical),
 * 10% unhealthy, and three results each in the last hour (rollups follow through the table's trigger).
 */
export async function seedHealthChecks(pool: pg.Pool, checks: number, perCanary = 20): Promise<void> {
  const canaries = Math.ceil(checks / perCanary);
  await pool.query(
    `INSERT INTO canaries (name, namespace, labels, spec, schedule, source)
     SELECT 'bench-canary-' || lpad(i::text, 4, '0'), 'ns-' || (i % 5),
            jsonb_build_object('team', 'team-' || (i % 12), 'env', (ARRAY['prod','staging','dev'])[1 + i % 3]),
            '{"tcp":[]}'::jsonb, NULL, 'bench'
       FROM generate_series(1, $1) AS i`,
    [canaries],
  );
  await pool.query(
    `INSERT INTO checks (canary_id, key, type, name, namespace, endpoint, labels, severity, spec, status, last_runtime, last_pass, last_fail, last_transition_time)
     SELECT c.id, 'tcp/check-' || n, 'tcp', 'bench-' || lpad(n::text, 5, '0') || '/port', c.namespace, 'host-' || n || ':443',
            c.labels || jsonb_build_object('region', 'region-' || (n % 7), 'critical', CASE WHEN n % 2 = 0 THEN 'true' ELSE 'false' END),
            'info', jsonb_build_object('name', 'bench-' || n, 'endpoint', 'host-' || n || ':443'),
            CASE WHEN n % 10 = 0 THEN 'unhealthy' ELSE 'healthy' END,
            now() - make_interval(mins => n % 300), now() - interval '1 minute', CASE WHEN n % 10 = 0 THEN now() ELSE NULL END,
            CASE WHEN n % 10 = 0 THEN now() - make_interval(mins => n % 90) ELSE NULL END
       FROM (SELECT id, namespace, labels, row_number() OVER (ORDER BY name) AS r FROM canaries WHERE source = 'bench') c
       JOIN generate_series(1, $1) AS n ON (n - 1) / $2 + 1 = c.r`,
    [checks, perCanary],
  );
  await pool.query(
    `INSERT INTO check_statuses (check_id, time, status, duration, message)
     SELECT id, now() - make_interval(mins => 5 + k * 15), status = 'healthy' OR k = 2, 5 + (abs(hashtext(id::text || k)) % 400), 'bench result'
       FROM checks, generate_series(0, 2) AS k`,
  );
}

