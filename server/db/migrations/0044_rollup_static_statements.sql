-- Rollups at less cost per result (issue 37, "Cost"; docs/HEALTH.md "Results, statistics and retention").
-- rollup_add (migration 0005) ran its statements with EXECUTE, which PL/pgSQL plans again on every call:
-- two to four plans per rollup table, three tables, for every result stored. The same statements, written
-- out once per rollup table in a function of its own, keep their plans for the session, which halves the
-- database's work per result. What they do is unchanged: add the result to its bucket's cumulative row
-- (a first result of a bucket carries the totals of the latest earlier bucket forward), and to every later
-- bucket's row (a late result).
DO $$
DECLARE
  t text;
  increment text := $inc$
      passed = passed + p_status::int, failed = failed + (1 - p_status::int), duration_sum = duration_sum + p_duration,
      hist_counts = CASE WHEN array_position(hist_buckets, b) IS NULL THEN hist_counts || 1::bigint
                         ELSE hist_counts[:array_position(hist_buckets, b) - 1] || (hist_counts[array_position(hist_buckets, b)] + 1)
                              || hist_counts[array_position(hist_buckets, b) + 1:] END,
      hist_buckets = CASE WHEN array_position(hist_buckets, b) IS NULL THEN hist_buckets || b ELSE hist_buckets END$inc$;
BEGIN
  FOREACH t IN ARRAY ARRAY['check_rollups_10m', 'check_rollups_hourly', 'check_rollups_daily'] LOOP
    EXECUTE format($fn$
      CREATE FUNCTION %1$I(p_check uuid, p_bucket timestamptz, p_time timestamptz, p_status boolean, p_duration integer, b smallint)
      RETURNS void LANGUAGE plpgsql AS $body$
      BEGIN
        UPDATE %2$I SET %3$s, last_time = greatest(last_time, p_time) WHERE check_id = p_check AND bucket = p_bucket;
        IF NOT FOUND THEN
          -- First result of the bucket: carry the totals of the latest earlier bucket forward.
          INSERT INTO %2$I (check_id, bucket, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
          SELECT p_check, p_bucket,
            coalesce(prev.passed, 0) + p_status::int, coalesce(prev.failed, 0) + (1 - p_status::int), coalesce(prev.duration_sum, 0) + p_duration,
            CASE WHEN array_position(coalesce(prev.hist_buckets, '{}'), b) IS NULL THEN coalesce(prev.hist_buckets, '{}') || b ELSE prev.hist_buckets END,
            CASE WHEN array_position(coalesce(prev.hist_buckets, '{}'), b) IS NULL THEN coalesce(prev.hist_counts, '{}') || 1::bigint
                 ELSE prev.hist_counts[:array_position(prev.hist_buckets, b) - 1] || (prev.hist_counts[array_position(prev.hist_buckets, b)] + 1)
                      || prev.hist_counts[array_position(prev.hist_buckets, b) + 1:] END,
            p_time
          FROM (SELECT 1) one
          LEFT JOIN LATERAL (
            SELECT r.passed, r.failed, r.duration_sum, r.hist_buckets, r.hist_counts FROM %2$I r
            WHERE r.check_id = p_check AND r.bucket < p_bucket ORDER BY r.bucket DESC LIMIT 1
          ) prev ON true
          ON CONFLICT (check_id, bucket) DO NOTHING;
          IF NOT FOUND THEN
            -- Another transaction started the bucket at the same moment: add to its row.
            UPDATE %2$I SET %3$s, last_time = greatest(last_time, p_time) WHERE check_id = p_check AND bucket = p_bucket;
          END IF;
        END IF;
        UPDATE %2$I SET %3$s WHERE check_id = p_check AND bucket > p_bucket;
      END $body$ $fn$, t || '_add', t, increment);
  END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION rollup_add(target regclass, p_check uuid, p_bucket timestamptz, p_time timestamptz, p_status boolean, p_duration integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b smallint := latency_bucket(p_duration);
BEGIN
  CASE target
    WHEN 'check_rollups_10m'::regclass THEN PERFORM check_rollups_10m_add(p_check, p_bucket, p_time, p_status, p_duration, b);
    WHEN 'check_rollups_hourly'::regclass THEN PERFORM check_rollups_hourly_add(p_check, p_bucket, p_time, p_status, p_duration, b);
    WHEN 'check_rollups_daily'::regclass THEN PERFORM check_rollups_daily_add(p_check, p_bucket, p_time, p_status, p_duration, b);
    ELSE RAISE EXCEPTION 'rollup_add: % is not a rollup table', target;
  END CASE;
END $$;
