-- Health checks (docs/HEALTH.md): canaries (the canary-checker resource), their checks, raw results, and
-- cumulative rollups that answer uptime and latency percentiles for any range from two rows per check.

CREATE TABLE canaries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default',
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The canary-checker spec as written (http: [...], schedule, ...).
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The effective schedule (spec.schedule, or spec.interval as @every Ns); NULL never runs on its own.
  schedule text,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  next_run_at timestamptz NOT NULL DEFAULT 'infinity',
  lease_owner text,
  lease_until timestamptz,
  last_run_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX canaries_name_key ON canaries (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX canaries_due_idx ON canaries (next_run_at) WHERE deleted_at IS NULL;

CREATE TABLE checks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  canary_id uuid NOT NULL REFERENCES canaries (id) ON DELETE CASCADE,
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- Identity inside the canary: type and name (a transformed check adds its own name).
  key text NOT NULL,
  type text NOT NULL,
  name text NOT NULL,
  namespace text NOT NULL DEFAULT 'default',
  description text,
  icon text,
  endpoint text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  owner text,
  severity text NOT NULL DEFAULT 'info',
  -- The check's own definition from the canary spec.
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- A check made by a transform of another check's result.
  transformed_from uuid REFERENCES checks (id) ON DELETE CASCADE,
  status text CHECK (status IN ('healthy', 'unhealthy')),
  last_runtime timestamptz,
  last_pass timestamptz,
  last_fail timestamptz,
  last_transition_time timestamptz,
  next_runtime timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX checks_key ON checks (canary_id, key) WHERE deleted_at IS NULL;
CREATE INDEX checks_canary_idx ON checks (canary_id);
CREATE INDEX checks_active_idx ON checks (namespace, name) WHERE deleted_at IS NULL;

-- Raw results. time is when the check started; duration in milliseconds.
CREATE TABLE check_statuses (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  time timestamptz NOT NULL,
  status boolean NOT NULL,
  invalid boolean NOT NULL DEFAULT false,
  duration integer NOT NULL DEFAULT 0 CHECK (duration >= 0),
  message text,
  error text,
  details jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (check_id, time)
);
-- Results arrive in time order, so a BRIN index finds "the last hour of every check" in a few pages.
CREATE INDEX check_statuses_time_brin ON check_statuses USING brin (time);

-- Latency buckets: bucket b holds durations in (1.1^(b-1), 1.1^b] ms, b = 0 for 1 ms or less; 150 caps at
-- about 27 minutes. Estimates from buckets are within 5% of the true value.
CREATE FUNCTION latency_bucket(duration_ms integer) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN duration_ms <= 1 THEN 0 ELSE least(150, ceil(ln(duration_ms) / ln(1.1)))::smallint END
$$;

-- Cumulative rollups: each row holds the totals since the check's first result up to the end of its
-- bucket (10 minutes, an hour or a day), so the counts of any range are the difference of two totals.
-- hist_buckets and hist_counts are a sparse latency histogram (same positions), also cumulative.
-- 10-minute rows are kept two days (with the raw results at a range's edges they count any range of up to
-- a day exactly), hourly rows days, daily rows years. The bucket index finds "every check's row of this
-- bucket" in one range scan.
CREATE TABLE check_rollups_10m (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  bucket timestamptz NOT NULL,
  passed bigint NOT NULL,
  failed bigint NOT NULL,
  duration_sum bigint NOT NULL,
  hist_buckets smallint[] NOT NULL,
  hist_counts bigint[] NOT NULL,
  last_time timestamptz NOT NULL,
  PRIMARY KEY (check_id, bucket)
);
CREATE INDEX check_rollups_10m_bucket_idx ON check_rollups_10m (bucket);

-- Every check's totals since its first result (what the cumulative rows hold at "now").
CREATE TABLE check_totals (
  check_id uuid PRIMARY KEY REFERENCES checks (id) ON DELETE CASCADE,
  passed bigint NOT NULL DEFAULT 0,
  failed bigint NOT NULL DEFAULT 0,
  duration_sum bigint NOT NULL DEFAULT 0,
  hist_buckets smallint[] NOT NULL DEFAULT '{}',
  hist_counts bigint[] NOT NULL DEFAULT '{}',
  last_time timestamptz NOT NULL
);
CREATE TABLE check_rollups_hourly (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  bucket timestamptz NOT NULL,
  passed bigint NOT NULL,
  failed bigint NOT NULL,
  duration_sum bigint NOT NULL,
  hist_buckets smallint[] NOT NULL,
  hist_counts bigint[] NOT NULL,
  last_time timestamptz NOT NULL,
  PRIMARY KEY (check_id, bucket)
);
CREATE INDEX check_rollups_hourly_bucket_idx ON check_rollups_hourly (bucket);
CREATE TABLE check_rollups_daily (LIKE check_rollups_hourly INCLUDING ALL);
ALTER TABLE check_rollups_daily ADD FOREIGN KEY (check_id) REFERENCES checks (id) ON DELETE CASCADE;

-- Adds one result to the cumulative row of its bucket (starting the bucket from the previous row), and to
-- every later row: a result that arrives late (an agent catching up) keeps later totals true.
CREATE FUNCTION rollup_add(target regclass, p_check uuid, p_bucket timestamptz, p_time timestamptz, p_status boolean, p_duration integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  b smallint := latency_bucket(p_duration);
  affected integer;
  increment constant text := $inc$
      passed = passed + $3::int, failed = failed + (1 - $3::int), duration_sum = duration_sum + $4,
      hist_counts = CASE WHEN array_position(hist_buckets, $5) IS NULL THEN hist_counts || 1::bigint
                         ELSE hist_counts[:array_position(hist_buckets, $5) - 1] || (hist_counts[array_position(hist_buckets, $5)] + 1)
                              || hist_counts[array_position(hist_buckets, $5) + 1:] END,
      hist_buckets = CASE WHEN array_position(hist_buckets, $5) IS NULL THEN hist_buckets || $5 ELSE hist_buckets END$inc$;
BEGIN
  EXECUTE format('UPDATE %1$s SET %2$s, last_time = greatest(last_time, $6) WHERE check_id = $1 AND bucket = $2', target, increment)
  USING p_check, p_bucket, p_status, p_duration, b, p_time;
  -- EXECUTE does not set FOUND: the row count tells.
  GET DIAGNOSTICS affected = ROW_COUNT;
  IF affected = 0 THEN
    -- First result of the bucket: carry the totals of the latest earlier bucket forward.
    EXECUTE format($q$
      INSERT INTO %1$s (check_id, bucket, passed, failed, duration_sum, hist_buckets, hist_counts, last_time)
      SELECT $1, $2,
        coalesce(prev.passed, 0) + $3::int, coalesce(prev.failed, 0) + (1 - $3::int), coalesce(prev.duration_sum, 0) + $4,
        CASE WHEN array_position(coalesce(prev.hist_buckets, '{}'), $5) IS NULL THEN coalesce(prev.hist_buckets, '{}') || $5 ELSE prev.hist_buckets END,
        CASE WHEN array_position(coalesce(prev.hist_buckets, '{}'), $5) IS NULL THEN coalesce(prev.hist_counts, '{}') || 1::bigint
             ELSE prev.hist_counts[:array_position(prev.hist_buckets, $5) - 1] || (prev.hist_counts[array_position(prev.hist_buckets, $5)] + 1)
                  || prev.hist_counts[array_position(prev.hist_buckets, $5) + 1:] END,
        $6
      FROM (SELECT 1) one
      LEFT JOIN LATERAL (
        SELECT passed, failed, duration_sum, hist_buckets, hist_counts FROM %1$s
        WHERE check_id = $1 AND bucket < $2 ORDER BY bucket DESC LIMIT 1
      ) prev ON true
      ON CONFLICT (check_id, bucket) DO NOTHING$q$, target)
    USING p_check, p_bucket, p_status, p_duration, b, p_time;
    GET DIAGNOSTICS affected = ROW_COUNT;
    IF affected = 0 THEN
      -- Another transaction started the bucket at the same moment: add to its row.
      EXECUTE format('UPDATE %1$s SET %2$s, last_time = greatest(last_time, $6) WHERE check_id = $1 AND bucket = $2', target, increment)
      USING p_check, p_bucket, p_status, p_duration, b, p_time;
    END IF;
  END IF;
  EXECUTE format('UPDATE %1$s SET %2$s WHERE check_id = $1 AND bucket > $2', target, increment)
  USING p_check, p_bucket, p_status, p_duration, b, p_time;
END $$;

-- Counts results recorded more than a minute after their time (an agent catching up, a clock behind):
-- the totals at past instants that summaries keep in memory are dropped when it changes.
CREATE TABLE check_rollup_epoch (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  late_results bigint NOT NULL DEFAULT 0
);
INSERT INTO check_rollup_epoch DEFAULT VALUES;

-- Every result, however it arrives (a run, Run Now, a webhook, an agent), updates the three rollups.
CREATE FUNCTION check_statuses_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  b smallint := latency_bucket(NEW.duration);
  pos integer;
BEGIN
  IF NEW.time < now() - interval '1 minute' THEN
    INSERT INTO check_rollup_epoch AS e VALUES (true, 1) ON CONFLICT (id) DO UPDATE SET late_results = e.late_results + 1;
  END IF;
  INSERT INTO check_totals (check_id, last_time) VALUES (NEW.check_id, NEW.time) ON CONFLICT (check_id) DO NOTHING;
  SELECT array_position(hist_buckets, b) INTO pos FROM check_totals WHERE check_id = NEW.check_id FOR UPDATE;
  UPDATE check_totals SET
    passed = passed + NEW.status::int, failed = failed + (1 - NEW.status::int), duration_sum = duration_sum + NEW.duration,
    hist_buckets = CASE WHEN pos IS NULL THEN hist_buckets || b ELSE hist_buckets END,
    hist_counts = CASE WHEN pos IS NULL THEN hist_counts || 1::bigint ELSE hist_counts[:pos - 1] || (hist_counts[pos] + 1) || hist_counts[pos + 1:] END,
    last_time = greatest(last_time, NEW.time)
  WHERE check_id = NEW.check_id;
  PERFORM rollup_add('check_rollups_10m', NEW.check_id, date_bin('10 minutes', NEW.time, '2000-01-01 00:00:00+00'), NEW.time, NEW.status, NEW.duration);
  PERFORM rollup_add('check_rollups_hourly', NEW.check_id, date_trunc('hour', NEW.time, 'UTC'), NEW.time, NEW.status, NEW.duration);
  PERFORM rollup_add('check_rollups_daily', NEW.check_id, date_trunc('day', NEW.time, 'UTC'), NEW.time, NEW.status, NEW.duration);
  RETURN NULL;
END $$;
CREATE TRIGGER check_statuses_rollup AFTER INSERT ON check_statuses FOR EACH ROW EXECUTE FUNCTION check_statuses_rollup();

CREATE TRIGGER canaries_updated_at BEFORE UPDATE ON canaries FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER checks_updated_at BEFORE UPDATE ON checks FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Relationships to components and configs; their features fill them.
CREATE TABLE check_component_relationships (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  component_id uuid NOT NULL,
  canary_id uuid REFERENCES canaries (id) ON DELETE CASCADE,
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (check_id, component_id)
);
CREATE TABLE check_config_relationships (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  config_id uuid NOT NULL,
  canary_id uuid REFERENCES canaries (id) ON DELETE CASCADE,
  selector_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (check_id, config_id)
);

-- What the console lists: checks with their canary.
CREATE VIEW checks_view AS
SELECT c.id, c.canary_id, cn.name AS canary_name, cn.namespace AS canary_namespace, c.agent_id, c.key, c.type, c.name, c.namespace,
  c.description, c.icon, c.endpoint, c.labels, c.owner, c.severity, c.spec, c.transformed_from, c.status, c.last_runtime,
  c.last_pass, c.last_fail, c.last_transition_time, c.next_runtime, c.created_at, c.updated_at, c.deleted_at
FROM checks c JOIN canaries cn ON cn.id = c.canary_id;

CREATE VIEW canary_names AS
SELECT id, name, namespace FROM canaries WHERE deleted_at IS NULL;
