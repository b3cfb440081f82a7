-- Background work (docs/ARCHITECTURE.md "Background work"): running instances, system job schedules,
-- the owner of each job_history run, and the wake-up notifications of the event queue.

-- One row per running `serve` process. A process renews expires_at with its heartbeat; once it has
-- expired the process is gone, and every run it owned is finished as FAILED by whichever instance notices.
CREATE TABLE job_instances (
  id text PRIMARY KEY,
  hostname text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- System jobs registered in code. `default_schedule` is the schedule the code asks for; `schedule` is the
-- one in force, which an operator may change (it is reset only when the code's default changes).
-- A run is claimed by setting lease_owner/lease_until and moving next_run_at to the following slot in the
-- same transaction, so a slot is never run twice, even when the instance running it dies.
CREATE TABLE scheduled_jobs (
  name text PRIMARY KEY CHECK (name <> ''),
  description text NOT NULL DEFAULT '',
  schedule text NOT NULL,
  default_schedule text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  next_run_at timestamptz NOT NULL DEFAULT now(),
  last_run_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scheduled_jobs_due_idx ON scheduled_jobs (next_run_at) WHERE enabled;
CREATE TRIGGER scheduled_jobs_updated_at BEFORE UPDATE ON scheduled_jobs FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Wake the schedulers when an operator (or a test) changes a schedule or makes a job due sooner. Claims
-- only move next_run_at forward and do not notify.
CREATE FUNCTION scheduled_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('watchkeeper_scheduled_jobs', NEW.name);
  RETURN NULL;
END $$;
CREATE TRIGGER scheduled_jobs_notify AFTER UPDATE ON scheduled_jobs FOR EACH ROW
  WHEN (OLD.schedule IS DISTINCT FROM NEW.schedule OR OLD.enabled IS DISTINCT FROM NEW.enabled OR NEW.next_run_at < OLD.next_run_at)
  EXECUTE FUNCTION scheduled_jobs_notify();

-- The instance that runs a job_history row, so a RUNNING row whose instance died can be finished.
ALTER TABLE job_history ADD COLUMN instance_id text;
CREATE INDEX job_history_running_idx ON job_history (instance_id) WHERE status = 'RUNNING';

-- Wake consumers when an event is published; the notification is delivered only if the publishing
-- transaction commits, exactly like the event. Identical payloads in one transaction are merged by
-- PostgreSQL, so a burst of one event name costs one notification.
CREATE FUNCTION event_queue_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('watchkeeper_event_queue', NEW.name);
  RETURN NULL;
END $$;
CREATE TRIGGER event_queue_notify AFTER INSERT ON event_queue FOR EACH ROW EXECUTE FUNCTION event_queue_notify();

-- Retention of failed events reads by last attempt.
CREATE INDEX event_queue_failed_idx ON event_queue (last_attempt) WHERE attempts >= max_attempts;
