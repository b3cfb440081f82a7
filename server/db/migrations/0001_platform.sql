-- Platform tables: people, feature-flag properties, agents, job history and the event queue.
-- Conventions (docs/ARCHITECTURE.md): uuid keys, timestamptz audit columns, soft delete via deleted_at.

CREATE EXTENSION IF NOT EXISTS pgcrypto;

CREATE TABLE people (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL DEFAULT '',
  email text,
  avatar text,
  type text,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  last_login timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX people_email_key ON people (lower(email)) WHERE deleted_at IS NULL AND email IS NOT NULL;

-- Feature flags and settings (spec §6: '{feature}.disable' = 'true' turns an area off).
CREATE TABLE properties (
  name text PRIMARY KEY CHECK (name <> ''),
  value text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text,
  hostname text,
  version text,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  person_id uuid REFERENCES people (id),
  created_by uuid REFERENCES people (id),
  last_seen timestamptz,
  last_received timestamptz,
  cleanup boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX agents_name_key ON agents (name) WHERE deleted_at IS NULL;
-- The nil uuid is the local agent (spec §9).
INSERT INTO agents (id, name, description) VALUES ('00000000-0000-0000-0000-000000000000', 'local', 'This instance');

CREATE TABLE job_history (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  resource_type text,
  resource_id text,
  resource_name text,
  status text NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'SUCCESS', 'WARNING', 'FAILED', 'STOPPED', 'SKIPPED')),
  success_count integer NOT NULL DEFAULT 0,
  error_count integer NOT NULL DEFAULT 0,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  hostname text,
  duration_millis integer,
  time_start timestamptz NOT NULL DEFAULT now(),
  time_end timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_history_time_start_idx ON job_history (time_start DESC);
CREATE INDEX job_history_name_idx ON job_history (name, time_start DESC);
CREATE INDEX job_history_resource_idx ON job_history (resource_id, time_start DESC);
CREATE INDEX job_history_status_idx ON job_history (status, time_start DESC);

-- Read shape of the Jobs History page: the agent embedded as {id, name}.
CREATE VIEW job_histories AS
SELECT
  jh.id, jh.name, jh.agent_id, jsonb_build_object('id', a.id, 'name', a.name) AS agent,
  jh.resource_type, jh.resource_id, jh.resource_name, jh.status, jh.success_count, jh.error_count,
  jh.details, jh.hostname, jh.duration_millis, jh.time_start, jh.time_end, jh.created_at
FROM job_history jh
LEFT JOIN agents a ON a.id = jh.agent_id;

CREATE VIEW job_history_names AS
SELECT DISTINCT name FROM job_history;

-- Events wait here until a consumer handles them. A handled event is deleted; a failing one is retried
-- with backoff (attempts, error, next_attempt_at) and kept, with its last error, once it runs out.
CREATE TABLE event_queue (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  error text,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  priority integer NOT NULL DEFAULT 0,
  last_attempt timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  locked_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_queue_due_idx ON event_queue (name, priority DESC, next_attempt_at) WHERE attempts < max_attempts;

CREATE VIEW event_queue_summary AS
SELECT
  name,
  count(*) FILTER (WHERE attempts = 0) AS pending,
  count(*) FILTER (WHERE attempts > 0 AND attempts < max_attempts) AS retrying,
  count(*) FILTER (WHERE attempts >= max_attempts) AS failed,
  round(avg(attempts), 2) AS average_attempts,
  min(last_attempt) FILTER (WHERE error IS NOT NULL) AS first_failure,
  max(last_attempt) FILTER (WHERE error IS NOT NULL) AS last_failure,
  mode() WITHIN GROUP (ORDER BY error) FILTER (WHERE error IS NOT NULL) AS most_common_error,
  min(created_at) AS oldest
FROM event_queue
GROUP BY name;

-- Keep updated_at true on every update.
CREATE FUNCTION set_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;

CREATE TRIGGER people_updated_at BEFORE UPDATE ON people FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER properties_updated_at BEFORE UPDATE ON properties FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER agents_updated_at BEFORE UPDATE ON agents FOR EACH ROW EXECUTE FUNCTION set_updated_at();
