-- Health, continued: summaries computed in the database for /api/db (check_summary, checks_by_component,
-- check_summary_for_config). The console's own summary API computes any range in the server.

-- The q-quantiles (ascending; ms, as the server estimates them: a bucket's geometric middle) of the
-- histogram end − start, both given as the sparse arrays the rollups keep (start may be NULL: nothing
-- before). Counts summed into a dense array: several times faster than doing it with set operations.
CREATE FUNCTION histogram_quantiles(end_buckets smallint[], end_counts bigint[], start_buckets smallint[], start_counts bigint[], qs float8[])
RETURNS integer[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  dense bigint[] := array_fill(0::bigint, ARRAY[151], ARRAY[0]);
  lo int := 151; hi int := -1; total bigint := 0; seen bigint := 0; i int; b int; q float8; target float8; c bigint;
  answer integer[] := '{}';
BEGIN
  FOR i IN 1..coalesce(array_length(end_buckets, 1), 0) LOOP
    b := end_buckets[i]; dense[b] := dense[b] + end_counts[i]; lo := least(lo, b); hi := greatest(hi, b);
  END LOOP;
  FOR i IN 1..coalesce(array_length(start_buckets, 1), 0) LOOP
    b := start_buckets[i]; dense[b] := dense[b] - start_counts[i];
  END LOOP;
  FOR b IN lo..hi LOOP IF dense[b] > 0 THEN total := total + dense[b]; END IF; END LOOP;
  b := lo;
  FOREACH q IN ARRAY qs LOOP
    IF total = 0 THEN answer := answer || NULL::integer; CONTINUE; END IF;
    target := greatest(1, ceil(q * total));
    LOOP
      EXIT WHEN b > hi;
      c := greatest(dense[b], 0);
      EXIT WHEN seen + c >= target;
      seen := seen + c; b := b + 1;
    END LOOP;
    answer := answer || CASE WHEN b > hi THEN NULL WHEN b <= 0 THEN 1 ELSE round(1.1::float8 ^ (b - 0.5))::integer END;
  END LOOP;
  RETURN answer;
END $$;

-- Every check with its uptime and latency over the last 24 hours, counted in whole hours (from the start
-- of the hour 24 hours ago; `since` says from when): running totals now minus those at that instant.
CREATE VIEW check_summary AS
SELECT c.id, c.canary_id, cn.name AS canary_name, cn.namespace AS canary_namespace, c.agent_id, c.name, c.namespace, c.type, c.icon,
  c.description, c.endpoint, c.labels, c.owner, c.severity, c.status, c.transformed_from, c.last_runtime, c.last_transition_time,
  c.next_runtime, c.created_at, c.updated_at, c.deleted_at, since.at AS since,
  jsonb_build_object('passed', coalesce(t.passed, 0) - coalesce(s.passed, 0), 'failed', coalesce(t.failed, 0) - coalesce(s.failed, 0),
                     'last_pass', c.last_pass, 'last_fail', c.last_fail) AS uptime,
  (SELECT jsonb_build_object('p50', q[1], 'p95', q[2], 'p97', q[3], 'p99', q[4])
     FROM histogram_quantiles(t.hist_buckets, t.hist_counts, s.hist_buckets, s.hist_counts, '{0.5,0.95,0.97,0.99}') q) AS latency
FROM checks c
JOIN canaries cn ON cn.id = c.canary_id
CROSS JOIN (SELECT date_trunc('hour', now(), 'UTC') - interval '24 hours' AS at) since
LEFT JOIN check_totals t ON t.check_id = c.id
-- The totals at `since`: a check silent since before then has them now; else the latest hourly row before
-- it (or, past the hourly retention, the latest daily one); none when the check began after it.
LEFT JOIN LATERAL (
  SELECT t.passed, t.failed, t.hist_buckets, t.hist_counts WHERE t.last_time < since.at
  UNION ALL
  (SELECT passed, failed, hist_buckets, hist_counts FROM check_rollups_hourly h WHERE t.last_time >= since.at AND h.check_id = c.id AND h.bucket < since.at ORDER BY h.bucket DESC LIMIT 1)
  UNION ALL
  (SELECT passed, failed, hist_buckets, hist_counts FROM check_rollups_daily d WHERE t.last_time >= since.at AND d.check_id = c.id AND d.bucket < date_trunc('day', since.at, 'UTC') ORDER BY d.bucket DESC LIMIT 1)
  LIMIT 1
) s ON true;

-- The checks of a component (topology), and the check summaries of a config item (catalog).
CREATE VIEW checks_by_component AS
SELECT r.component_id, c.id, c.canary_id, c.name, c.namespace, c.type, c.icon, c.description, c.endpoint, c.labels, c.severity, c.status,
  c.last_runtime, c.last_transition_time, c.created_at, c.updated_at, c.deleted_at
FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
WHERE r.deleted_at IS NULL;

CREATE VIEW check_summary_for_config AS
SELECT r.config_id, s.*
FROM check_config_relationships r JOIN check_summary s ON s.id = r.check_id
WHERE r.deleted_at IS NULL;
