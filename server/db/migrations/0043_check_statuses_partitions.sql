-- History that stays cheap (issue 37; docs/HEALTH.md "Results, statistics and retention", docs/OPERATIONS.md
-- "Check history partitions"): check_statuses becomes a table partitioned by time with PostgreSQL's native
-- range partitioning, one partition per UTC day (check_history.check_statuses_YYYYMMDD), plus the default
-- partition check_history.check_statuses_default, which takes a result of a day that has no partition (far
-- in the past or the future), so an insert never fails. Retention drops a whole day's partition instead of
-- deleting its rows (server/features/health/retention.ts); partitions are made 7 days ahead, at start and
-- daily (server/features/health/partitions.ts).
--
-- The partitions live in their own schema: the loops over organization tables (migrations 0035, 0037) walk
-- public, and watchkeeper_tenant has no privilege on check_history, so an organization reaches results only
-- through check_statuses and its policy (a query on a partitioned table checks the parent's privileges and
-- policies only).
--
-- The key (check_id, time) already holds the partition key, so it stays the primary key. Every existing row
-- is copied into the partition of its day before the rollup trigger exists: the rollups already count them.
-- The table's grants and triggers (the rollup, the organization triggers, an agent's push triggers) are made
-- again on the new table, and its indexes (the key, the BRIN index on time, organization_id) on every
-- partition.

CREATE SCHEMA check_history;
COMMENT ON SCHEMA check_history IS 'Daily partitions of public.check_statuses (migration 0043); read and write them through check_statuses.';

ALTER TABLE check_statuses RENAME TO check_statuses_unpartitioned;

CREATE TABLE check_statuses (LIKE check_statuses_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)
  PARTITION BY RANGE (time);
COMMENT ON TABLE check_statuses IS 'Raw check results, one partition per UTC day in the schema check_history (migration 0043).';
CREATE TABLE check_history.check_statuses_default PARTITION OF check_statuses DEFAULT;

-- Makes the partition of one UTC day if it is missing, and answers its name (NULL when it was there).
-- Results of that day waiting in the default partition move into it. The new table is attached rather than
-- created as a partition: ATTACH takes a SHARE UPDATE EXCLUSIVE lock on check_statuses, so writers and
-- readers of other days go on; only the default partition is locked while its rows of that day move.
CREATE FUNCTION check_statuses_add_partition(day date) RETURNS text
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  part text := 'check_statuses_' || to_char(day, 'YYYYMMDD');
  lower_bound timestamptz := day::timestamp AT TIME ZONE 'UTC';
  upper_bound timestamptz := (day + 1)::timestamp AT TIME ZONE 'UTC';
BEGIN
  IF to_regclass(format('check_history.%I', part)) IS NOT NULL THEN
    RETURN NULL;
  END IF;
  -- An insert routed to the default partition waits until the day's partition is attached, so none of its
  -- rows can land there in between.
  LOCK TABLE check_history.check_statuses_default IN ACCESS EXCLUSIVE MODE;
  EXECUTE format('CREATE TABLE check_history.%I (LIKE public.check_statuses INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)', part);
  -- The bounds as a constraint: ATTACH then knows the rows fit without reading them.
  EXECUTE format('ALTER TABLE check_history.%I ADD CONSTRAINT %I CHECK (time >= %L AND time < %L)', part, part || '_bounds', lower_bound, upper_bound);
  EXECUTE format(
    'WITH moved AS (DELETE FROM check_history.check_statuses_default WHERE time >= $1 AND time < $2 RETURNING *) INSERT INTO check_history.%I SELECT * FROM moved',
    part) USING lower_bound, upper_bound;
  EXECUTE format('ALTER TABLE public.check_statuses ATTACH PARTITION check_history.%I FOR VALUES FROM (%L) TO (%L)', part, lower_bound, upper_bound);
  EXECUTE format('ALTER TABLE check_history.%I DROP CONSTRAINT %I', part, part || '_bounds');
  RETURN part;
END $$;

-- The partitions of today (UTC) and the next `days_ahead` days, and of every day from `since` on that has
-- results waiting in the default partition (a server that was stopped for longer than the days made ahead);
-- answers the names made. Serialised across instances by an advisory lock.
CREATE FUNCTION check_statuses_ensure_partitions(days_ahead integer, since date DEFAULT NULL) RETURNS text[]
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
DECLARE
  today date := (now() AT TIME ZONE 'UTC')::date;
  made text[] := '{}';
  day date;
  part text;
BEGIN
  IF days_ahead IS NULL OR days_ahead < 0 THEN
    RAISE EXCEPTION 'days_ahead must be 0 or more, not %', days_ahead USING ERRCODE = 'invalid_parameter_value';
  END IF;
  PERFORM pg_advisory_xact_lock(4242043);
  FOR day IN
    SELECT d::date FROM generate_series(today, today + days_ahead, interval '1 day') d
    UNION
    SELECT DISTINCT (s.time AT TIME ZONE 'UTC')::date FROM check_history.check_statuses_default s
     WHERE since IS NOT NULL AND s.time >= since::timestamp AT TIME ZONE 'UTC'
       AND s.time < (today + days_ahead + 1)::timestamp AT TIME ZONE 'UTC'
    ORDER BY 1
  LOOP
    part := check_statuses_add_partition(day);
    IF part IS NOT NULL THEN
      made := made || part;
    END IF;
  END LOOP;
  RETURN made;
END $$;

-- One partition for every day that has results, and the week ahead; then every row, checked by count.
SELECT check_statuses_add_partition(day) FROM (SELECT DISTINCT (time AT TIME ZONE 'UTC')::date AS day FROM check_statuses_unpartitioned) days ORDER BY day;
SELECT check_statuses_ensure_partitions(7);
DO $$
DECLARE
  copied bigint;
  existing bigint;
BEGIN
  INSERT INTO check_statuses SELECT * FROM check_statuses_unpartitioned;
  GET DIAGNOSTICS copied = ROW_COUNT;
  SELECT count(*) INTO existing FROM check_statuses_unpartitioned;
  IF copied <> existing THEN
    RAISE EXCEPTION 'check_statuses: % rows copied into partitions, % expected', copied, existing;
  END IF;
END
$$;

-- Grants as the old table had them (watchkeeper_tenant's, and any an operator added).
DO $$
DECLARE
  g record;
BEGIN
  FOR g IN
    SELECT a.privilege_type, CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
    FROM pg_class c, aclexplode(c.relacl) a
    WHERE c.oid = 'check_statuses_unpartitioned'::regclass AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('GRANT %s ON check_statuses TO %s', g.privilege_type, g.grantee);
  END LOOP;
END
$$;

-- Triggers as the old table had them (pg_get_triggerdef names the renamed table): the rollup, the
-- organization triggers, and on an agent its push triggers (statement-level, on check_statuses itself).
-- Made after the copy, so the copy neither rolls up nor queues anything.
DO $$
DECLARE
  tr record;
BEGIN
  FOR tr IN
    SELECT pg_get_triggerdef(t.oid) AS def FROM pg_trigger t
    WHERE t.tgrelid = 'check_statuses_unpartitioned'::regclass AND NOT t.tgisinternal ORDER BY t.tgname
  LOOP
    EXECUTE replace(tr.def, ' ON public.check_statuses_unpartitioned ', ' ON public.check_statuses ');
  END LOOP;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'check_statuses'::regclass AND tgname = 'check_statuses_rollup') THEN
    CREATE TRIGGER check_statuses_rollup AFTER INSERT ON check_statuses FOR EACH ROW EXECUTE FUNCTION check_statuses_rollup();
  END IF;
END
$$;

DROP TABLE check_statuses_unpartitioned;

ALTER TABLE check_statuses ADD CONSTRAINT check_statuses_pkey PRIMARY KEY (check_id, time);
ALTER TABLE check_statuses ADD CONSTRAINT check_statuses_check_id_fkey FOREIGN KEY (check_id) REFERENCES checks (id) ON DELETE CASCADE;
-- Results arrive in time order, so a BRIN index finds "the last hour of every check" in a few pages of the day.
CREATE INDEX check_statuses_time_brin ON check_statuses USING brin (time);

-- organization_id's index, row-level security and policy, and the organization triggers (migration 0037).
SELECT organization_rows('check_statuses');

ANALYZE check_statuses;
