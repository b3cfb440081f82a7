-- Exact row counts of large, append-mostly tables, kept by statement-level triggers, so /api/db answers
-- `Prefer: count=exact` on an unfiltered list without scanning the table (the Jobs History page asks
-- on every load; counting 100k rows costs ~20 ms, this costs one index lookup). Filtered counts still
-- count the matching rows. Each write statement updates one counter row in its own transaction, so
-- the count stays exact; concurrent writers queue on that row only until they commit.
CREATE TABLE relation_counts (
  relation text PRIMARY KEY,
  n bigint NOT NULL
);

CREATE FUNCTION relation_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE relation_counts SET n = n + (SELECT count(*) FROM changed_rows) WHERE relation = TG_TABLE_NAME;
  RETURN NULL;
END $$;

CREATE FUNCTION relation_counts_subtract() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE relation_counts SET n = n - (SELECT count(*) FROM changed_rows) WHERE relation = TG_TABLE_NAME;
  RETURN NULL;
END $$;

CREATE FUNCTION relation_counts_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE relation_counts SET n = 0 WHERE relation = TG_TABLE_NAME;
  RETURN NULL;
END $$;

CREATE TRIGGER job_history_count_insert AFTER INSERT ON job_history
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION relation_counts_add();
CREATE TRIGGER job_history_count_delete AFTER DELETE ON job_history
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION relation_counts_subtract();
CREATE TRIGGER job_history_count_truncate AFTER TRUNCATE ON job_history
  FOR EACH STATEMENT EXECUTE FUNCTION relation_counts_reset();

-- CREATE TRIGGER holds a lock that blocks writers until this migration commits, so the start is exact.
INSERT INTO relation_counts (relation, n) SELECT 'job_history', count(*) FROM job_history;
