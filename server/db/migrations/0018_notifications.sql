-- Notifications (docs/NOTIFICATIONS.md) and an event queue that reaches every consumer.

-- ── Events reach every consumer ─────────────────────────────────────────────────────────────────────
-- Each consumer that serve runs (notifications, playbook triggers, …) subscribes here by name with the
-- events it handles. Publishing an event inserts one event_queue row per subscribed consumer (the same
-- event_id on each), so every consumer handles it once, retries it on its own and keeps its own failure.
-- An event no consumer subscribes to is kept with consumer '' until one subscribes to its name.
CREATE TABLE event_consumers (
  name text PRIMARY KEY CHECK (name <> ''),
  events text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE event_queue ADD COLUMN consumer text NOT NULL DEFAULT '';
ALTER TABLE event_queue ADD COLUMN event_id uuid;
UPDATE event_queue SET event_id = id;
ALTER TABLE event_queue ALTER COLUMN event_id SET NOT NULL;
-- A row inserted by hand (not through publish) is an event of its own.
ALTER TABLE event_queue ALTER COLUMN event_id SET DEFAULT gen_random_uuid();
CREATE UNIQUE INDEX event_queue_delivery_key ON event_queue (event_id, consumer);
DROP INDEX event_queue_due_idx;
CREATE INDEX event_queue_due_idx ON event_queue (consumer, name, priority DESC, next_attempt_at) WHERE attempts < max_attempts;

DROP VIEW event_queue_summary;
CREATE VIEW event_queue_summary AS
SELECT
  name,
  consumer,
  count(*) FILTER (WHERE attempts = 0) AS pending,
  count(*) FILTER (WHERE attempts > 0 AND attempts < max_attempts) AS retrying,
  count(*) FILTER (WHERE attempts >= max_attempts) AS failed,
  round(avg(attempts), 2) AS average_attempts,
  min(last_attempt) FILTER (WHERE error IS NOT NULL) AS first_failure,
  max(last_attempt) FILTER (WHERE error IS NOT NULL) AS last_failure,
  mode() WITHIN GROUP (ORDER BY error) FILTER (WHERE error IS NOT NULL) AS most_common_error,
  min(created_at) AS oldest
FROM event_queue
GROUP BY name, consumer;

-- ── Notification rules ──────────────────────────────────────────────────────────────────────────────
-- kind: Notification (mission-control.flanksource.com/v1). `spec` is the document as written; the columns
-- beside it are what the engine and the PostgREST surface read (the shape of Mission Control's table).
-- Durations are nanoseconds, as Mission Control stores a Go time.Duration.
CREATE TABLE notifications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default' CHECK (namespace <> ''),
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  events text[] NOT NULL DEFAULT '{}',
  title text,
  template text,
  filter text,
  properties jsonb,
  -- Recipients: one of these (to.person, to.team, to.playbook, or connection / url / email / webhook in custom_services).
  person_id uuid REFERENCES people (id) ON DELETE SET NULL,
  team_id uuid REFERENCES teams (id) ON DELETE SET NULL,
  playbook_id uuid,
  custom_services jsonb,
  fallback_person_id uuid REFERENCES people (id) ON DELETE SET NULL,
  fallback_team_id uuid REFERENCES teams (id) ON DELETE SET NULL,
  fallback_playbook_id uuid,
  fallback_custom_services jsonb,
  fallback_delay bigint,
  repeat_interval text,
  group_by text[],
  group_by_interval bigint,
  wait_for bigint,
  wait_for_eval_period bigint,
  inhibitions jsonb,
  disabled boolean NOT NULL DEFAULT false,
  -- The last problem found when the rule ran (a filter or template that fails on a real event).
  error text,
  error_at timestamptz,
  source text NOT NULL DEFAULT 'UI',
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX notifications_name_key ON notifications (namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX notifications_events_idx ON notifications USING gin (events) WHERE deleted_at IS NULL;
CREATE TRIGGER notifications_updated_at BEFORE UPDATE ON notifications FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- One row per event, rule and recipient: what happened to it and why. Status is one of Mission Control's:
-- sent, error, pending, skipped, silenced, repeat-interval, inhibited, evaluating-waitfor,
-- attempting_fallback, grouped, pending_playbook_run, pending_playbook_completion.
CREATE TABLE notification_send_history (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  notification_id uuid NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
  -- The event_queue event_id it came from (with recipient, what makes a redelivered event harmless).
  event_id uuid,
  source_event text NOT NULL,
  resource_id uuid NOT NULL,
  -- check, config, component, canary or incident, and the resource's name and type when it was seen.
  resource_type text NOT NULL DEFAULT '',
  resource_name text,
  resource_kind text,
  status text NOT NULL,
  -- Why, in words: "silenced by low-severity-jobs", "inhibited by Kubernetes::Deployment web".
  reason text,
  -- Who: one of person, team, connection, playbook, or custom service, and its name for people to read.
  recipient text NOT NULL DEFAULT '',
  recipient_key text NOT NULL DEFAULT '',
  person_id uuid REFERENCES people (id) ON DELETE SET NULL,
  team_id uuid REFERENCES teams (id) ON DELETE SET NULL,
  connection_id uuid,
  playbook_run_id uuid,
  silenced_by uuid,
  inhibited_by uuid,
  parent_id uuid REFERENCES notification_send_history (id) ON DELETE SET NULL,
  group_by_hash text NOT NULL DEFAULT '',
  -- The rendered message once sent (or tried), and the peer's answer when it failed.
  title text,
  body text,
  error text,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  not_before timestamptz,
  retries integer NOT NULL DEFAULT 0,
  -- A sender holds a row it is delivering until claimed_until; a dead sender's claim expires.
  claimed_by text,
  claimed_until timestamptz,
  count integer NOT NULL DEFAULT 1,
  first_observed timestamptz NOT NULL DEFAULT now(),
  duration_millis integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE UNIQUE INDEX notification_send_history_event_key ON notification_send_history (event_id, notification_id, recipient_key) WHERE event_id IS NOT NULL AND parent_id IS NULL;
CREATE INDEX notification_send_history_due_idx ON notification_send_history (not_before) WHERE status IN ('pending', 'evaluating-waitfor', 'attempting_fallback');
CREATE INDEX notification_send_history_notification_idx ON notification_send_history (notification_id, created_at DESC);
CREATE INDEX notification_send_history_resource_idx ON notification_send_history (resource_id, created_at DESC);
CREATE INDEX notification_send_history_group_idx ON notification_send_history (group_by_hash) WHERE group_by_hash <> '' AND status = 'pending';
CREATE INDEX notification_send_history_created_idx ON notification_send_history (created_at);

-- Wake the senders when a row becomes due now.
CREATE FUNCTION notification_send_history_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('watchkeeper_notifications', 'send');
  RETURN NULL;
END $$;
CREATE TRIGGER notification_send_history_notify AFTER INSERT ON notification_send_history FOR EACH STATEMENT EXECUTE FUNCTION notification_send_history_notify();

-- kind: NotificationSilence, and silences made in the console (POST /api/notification/silence).
-- until NULL means indefinitely (spec §4).
CREATE TABLE notification_silences (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text,
  namespace text NOT NULL DEFAULT 'default',
  description text,
  "from" timestamptz NOT NULL DEFAULT now(),
  until timestamptz,
  recursive boolean NOT NULL DEFAULT false,
  config_id uuid,
  check_id uuid,
  canary_id uuid,
  component_id uuid,
  filter text,
  selectors jsonb,
  spec jsonb,
  error text,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK (until IS NULL OR until > "from")
);
CREATE UNIQUE INDEX notification_silences_name_key ON notification_silences (namespace, name) WHERE deleted_at IS NULL AND name IS NOT NULL;
CREATE INDEX notification_silences_active_idx ON notification_silences (until) WHERE deleted_at IS NULL;
CREATE TRIGGER notification_silences_updated_at BEFORE UPDATE ON notification_silences FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Every instance reloads its silences and rules as soon as any instance changes one.
CREATE FUNCTION notification_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('watchkeeper_notification_rules', TG_TABLE_NAME);
  RETURN NULL;
END $$;
CREATE TRIGGER notification_silences_changed AFTER INSERT OR UPDATE OR DELETE ON notification_silences FOR EACH STATEMENT EXECUTE FUNCTION notification_rules_changed();
CREATE TRIGGER notifications_changed AFTER INSERT OR UPDATE OR DELETE ON notifications FOR EACH STATEMENT EXECUTE FUNCTION notification_rules_changed();

-- ── Read shapes ─────────────────────────────────────────────────────────────────────────────────────
-- The rules list: counts of all time (POST /api/notification/summary counts over a range).
CREATE VIEW notifications_summary AS
SELECT n.id, n.name, n.namespace, n.labels, n.events, n.title, n.filter, n.person_id, n.team_id, n.playbook_id, n.custom_services,
  n.repeat_interval, n.group_by, n.wait_for, n.inhibitions, n.disabled, n.error, n.error_at, n.source, n.created_by,
  n.created_at, n.updated_at, n.deleted_at,
  coalesce(h.sent, 0) AS sent, coalesce(h.failed, 0) AS failed, coalesce(h.pending, 0) AS pending,
  coalesce(h.silenced, 0) AS silenced, coalesce(h.suppressed, 0) AS suppressed,
  h.last_sent, h.last_failed,
  CASE WHEN n.error IS NOT NULL THEN 'error' WHEN n.disabled THEN 'disabled'
       WHEN h.last_failed IS NOT NULL AND (h.last_sent IS NULL OR h.last_failed > h.last_sent) THEN 'failing'
       ELSE 'ok' END AS status
FROM notifications n
LEFT JOIN LATERAL (
  SELECT count(*) FILTER (WHERE s.status = 'sent') AS sent,
         count(*) FILTER (WHERE s.status = 'error') AS failed,
         count(*) FILTER (WHERE s.status IN ('pending', 'evaluating-waitfor', 'attempting_fallback', 'pending_playbook_run', 'pending_playbook_completion')) AS pending,
         count(*) FILTER (WHERE s.status = 'silenced') AS silenced,
         count(*) FILTER (WHERE s.status IN ('repeat-interval', 'inhibited', 'skipped', 'grouped')) AS suppressed,
         max(s.created_at) FILTER (WHERE s.status = 'sent') AS last_sent,
         max(s.created_at) FILTER (WHERE s.status = 'error') AS last_failed
  FROM notification_send_history s WHERE s.notification_id = n.id
) h ON true;

-- Send history with the rule's name and the resource as it was when the event came.
CREATE VIEW notification_send_history_summary AS
SELECT s.id, s.notification_id, s.event_id, s.source_event, s.resource_id, s.resource_type, s.status, s.reason, s.recipient,
  s.person_id, s.team_id, s.connection_id, s.playbook_run_id, s.silenced_by, s.inhibited_by, s.parent_id, s.group_by_hash,
  s.title, s.body, s.error, s.not_before, s.retries, s.count, s.first_observed, s.duration_millis, s.created_at, s.sent_at,
  n.name AS notification_name, n.namespace AS notification_namespace,
  jsonb_build_object('id', s.resource_id, 'name', s.resource_name, 'type', s.resource_kind, 'kind', s.resource_type) AS resource
FROM notification_send_history s
JOIN notifications n ON n.id = s.notification_id;
