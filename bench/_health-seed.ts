import type pg from 'pg';

/**
 * Health checks for benchmarks, inserted with SQL the way the runner would leave them: `checks` checks in
 * canaries of `perCanary` (namespaces ns-0..4, labels team/env from the canary plus region/critical),
 * 10% unhealthy, and three results each in the last hour, with their rollups and totals.
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
  // The results go in with the rollup trigger off and the rollups are computed from them in bulk, with
  // the values the trigger keeps (running totals per check up to each bucket's end): one trigger run a
  // result takes minutes for 50,000 checks on a busy machine and measures the loader, not the page.
  await pool.query('ALTER TABLE check_statuses DISABLE TRIGGER check_statuses_rollup');
  try {
    await pool.query(
      `INSERT INTO check_statuses (check_id, time, status, duration, message)
       SELECT id, now() - make_interval(mins => 5 + k * 15), status = 'healthy' OR k = 2, 5 + (abs(hashtext(id::text || k)) % 400), 'bench result'
         FROM checks, generate_series(0, 2) AS k`,
    );
  } finally {
    await pool.query('ALTER TABLE check_statuses ENABLE TRIGGER check_statuses_rollup');
  }
  const tiers = [
    ['check_rollups_10m', (at: string) => `date_bin('10 minutes', ${at}, '2000-01-01 00:00:00+00')`],
    ['check_rollups_hourly', (at: string) => `date_trunc('hour', ${at}, 'UTC')`],
    ['check_rollups_daily', (at: string) => `date_trunc('day', ${at}, 'UTC')`],
  ] as const;
  // Totals of a check's results up to `upTo` (SQL over r and k): counts, sum, and its latency histogram.
  const totals = (upTo: string) => `
    SELECT count(*) FILTER (WHERE r.status) AS passed, count(*) FILTER (WHERE NOT r.status) AS failed, sum(r.duration)::bigint AS duration_sum, max(r.time) AS last_time,
           (SELECT array_agg(h.b ORDER BY h.b) FROM (SELECT latency_bucket(x.duration) AS b FROM check_statuses x WHERE x.check_id = k.check_id AND ${upTo.replaceAll('r.', 'x.')} GROUP BY 1) h) AS hist_buckets,
           (SELECT array_agg(h.c ORDER BY h.b) FROM (SELECT latency_bucket(x.duration) AS b, count(*)::bigint AS c FROM check_statuses x WHERE x.check_id = k.check_id AND ${upTo.replaceAll('r.', 'x.')} GROUP BY 1) h) AS hist_counts
      FROM check_statuses r WHERE r.check_id = k.check_id AND ${upTo}`;
  for (const [table, bucketOf] of tiers) {
    await pool.query(
      `INSERT INTO ${table} (check_id, bucket, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
       SELECT k.check_id, k.bucket, t.passed, t.failed, t.duration_sum, t.hist_buckets, t.hist_counts, t.last_time
         FROM (SELECT DISTINCT s.check_id, ${bucketOf('s.time')} AS bucket FROM check_statuses s JOIN checks c ON c.id = s.check_id JOIN canaries cn ON cn.id = c.canary_id AND cn.source = 'bench') k
         CROSS JOIN LATERAL (${totals(`${bucketOf('r.time')} <= k.bucket`)}) t`,
    );
  }
  await pool.query(
    `INSERT INTO check_totals (check_id, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
     SELECT k.check_id, t.passed, t.failed, t.duration_sum, t.hist_buckets, t.hist_counts, t.last_time
       FROM (SELECT c.id AS check_id FROM checks c JOIN canaries cn ON cn.id = c.canary_id AND cn.source = 'bench') k
       CROSS JOIN LATERAL (${totals('true')}) t`,
  );
  await pool.query('ANALYZE');
}
