-- Wake the scheduled-rows workers when a row becomes due sooner than they planned: a topology, scraper,
-- canary or playbook schedule that is created, or whose schedule or next due time moves earlier, runs
-- now instead of at the worker's next poll (up to 10 s later). The payload is the table's name; the
-- workers of other tables ignore it. Like every notification it is delivered only on commit, and
-- identical payloads of one transaction are merged, so a bulk apply costs one notification per table.
CREATE FUNCTION scheduled_rows_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('watchkeeper_scheduled_rows', TG_TABLE_NAME);
  RETURN NULL;
END $$;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['canaries', 'config_scrapers', 'topologies', 'playbook_schedules'] LOOP
    EXECUTE format('CREATE TRIGGER scheduled_rows_notify_insert AFTER INSERT ON %I FOR EACH ROW EXECUTE FUNCTION scheduled_rows_notify()', t);
    EXECUTE format('CREATE TRIGGER scheduled_rows_notify_update AFTER UPDATE ON %I FOR EACH ROW
      WHEN (OLD.schedule IS DISTINCT FROM NEW.schedule OR NEW.next_run_at < OLD.next_run_at) EXECUTE FUNCTION scheduled_rows_notify()', t);
  END LOOP;
END $$;
