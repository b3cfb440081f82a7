-- Incidents (docs/INCIDENTS.md): incidents with a readable number, their hypotheses (root → factor →
-- solution), evidence that keeps a snapshot of what it showed when attached, comments, responders, and a
-- timeline (incident_histories) written here by triggers, never by a client.
--
-- Who did a write: /api/db and the incident API set `watchkeeper.actor` (people.id) for the transaction;
-- the timeline and created_by read it.

CREATE FUNCTION current_actor() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('watchkeeper.actor', true), '')::uuid
$$;

-- A bad value answers 400 with a sentence that names the field (SQLSTATE 23514, a data error /api/db passes on).
CREATE FUNCTION incident_check_value(field text, value text, allowed text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF value IS NULL OR NOT value = ANY (allowed) THEN
    RAISE EXCEPTION '%: must be one of %', field, array_to_string(allowed, ', ') USING ERRCODE = '23514';
  END IF;
END
$$;

CREATE FUNCTION incident_require_text(field text, value text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF value IS NULL OR btrim(value) = '' THEN
    RAISE EXCEPTION '%: is required', field USING ERRCODE = '23514';
  END IF;
END
$$;

CREATE SEQUENCE incident_number_seq;

CREATE TABLE incident_rules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default',
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- {filter: {type: check|component|config, name, labels, types, status, failures}, template: {...}, ...}
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX incident_rules_name_key ON incident_rules (namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER incident_rules_updated_at BEFORE UPDATE ON incident_rules FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE incidents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- INC-42: what people say and type.
  incident_id text NOT NULL DEFAULT 'INC-' || nextval('incident_number_seq') UNIQUE,
  title text NOT NULL,
  description text,
  type text NOT NULL DEFAULT 'availability',
  status text NOT NULL DEFAULT 'open',
  severity text NOT NULL DEFAULT 'low',
  commander_id uuid REFERENCES people (id),
  communicator_id uuid REFERENCES people (id),
  created_by uuid REFERENCES people (id),
  -- Opened by a rule for a resource (check, component or config): no second one while this one is open.
  incident_rule_id uuid REFERENCES incident_rules (id) ON DELETE SET NULL,
  source_kind text,
  source_id uuid,
  -- When each status was first reached.
  investigating_at timestamptz,
  mitigated_at timestamptz,
  resolved_at timestamptz,
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incidents_created_idx ON incidents (created_at DESC);
CREATE INDEX incidents_status_idx ON incidents (status, created_at DESC);
CREATE UNIQUE INDEX incidents_rule_open_key ON incidents (incident_rule_id, source_kind, source_id)
  WHERE incident_rule_id IS NOT NULL AND status NOT IN ('resolved', 'closed');

CREATE FUNCTION incidents_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_require_text('title', NEW.title);
  NEW.title := btrim(NEW.title);
  PERFORM incident_check_value('type', NEW.type, ARRAY['cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability']);
  PERFORM incident_check_value('status', NEW.status, ARRAY['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed']);
  PERFORM incident_check_value('severity', NEW.severity, ARRAY['info', 'warning', 'low', 'medium', 'high', 'critical', 'blocker']);
  IF TG_OP = 'UPDATE' THEN
    NEW.incident_id := OLD.incident_id;
    NEW.created_at := OLD.created_at;
    NEW.created_by := OLD.created_by;
  END IF;
  IF NEW.status = 'investigating' AND NEW.investigating_at IS NULL THEN NEW.investigating_at := now(); END IF;
  IF NEW.status = 'mitigated' AND NEW.mitigated_at IS NULL THEN NEW.mitigated_at := now(); END IF;
  IF NEW.status = 'resolved' AND NEW.resolved_at IS NULL THEN NEW.resolved_at := now(); END IF;
  IF NEW.status = 'closed' AND NEW.closed_at IS NULL THEN NEW.closed_at := now(); END IF;
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER incidents_before BEFORE INSERT OR UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_before();

CREATE TABLE hypotheses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  parent_id uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'root',
  title text NOT NULL,
  status text NOT NULL DEFAULT 'possible',
  team_id uuid REFERENCES teams (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hypotheses_incident_idx ON hypotheses (incident_id, created_at);
CREATE INDEX hypotheses_parent_idx ON hypotheses (parent_id) WHERE parent_id IS NOT NULL;

CREATE FUNCTION hypotheses_before() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parent hypotheses;
BEGIN
  PERFORM incident_require_text('title', NEW.title);
  NEW.title := btrim(NEW.title);
  PERFORM incident_check_value('type', NEW.type, ARRAY['root', 'factor', 'solution']);
  PERFORM incident_check_value('status', NEW.status, ARRAY['proven', 'likely', 'possible', 'unlikely', 'improbable', 'disproven']);
  IF TG_OP = 'UPDATE' THEN
    NEW.incident_id := OLD.incident_id;
    NEW.created_at := OLD.created_at;
    NEW.created_by := OLD.created_by;
  END IF;
  -- The tree: a root has no parent; a factor hangs under a root, a solution under a factor.
  IF NEW.parent_id IS NULL THEN
    IF NEW.type <> 'root' THEN
      RAISE EXCEPTION 'parent_id: a % needs a parent (a %)', NEW.type, CASE NEW.type WHEN 'factor' THEN 'root' ELSE 'factor' END USING ERRCODE = '23514';
    END IF;
  ELSE
    SELECT * INTO parent FROM hypotheses WHERE id = NEW.parent_id;
    IF NOT FOUND OR parent.incident_id <> NEW.incident_id THEN
      RAISE EXCEPTION 'parent_id: no such hypothesis in this incident' USING ERRCODE = '23514';
    END IF;
    IF NOT ((NEW.type = 'factor' AND parent.type = 'root') OR (NEW.type = 'solution' AND parent.type = 'factor')) THEN
      RAISE EXCEPTION 'type: a % cannot hang under a % (root → factor → solution)', NEW.type, parent.type USING ERRCODE = '23514';
    END IF;
  END IF;
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER hypotheses_before BEFORE INSERT OR UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_before();

CREATE TABLE evidences (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hypothesis_id uuid NOT NULL REFERENCES hypotheses (id) ON DELETE CASCADE,
  type text NOT NULL,
  description text,
  -- What the evidence showed when it was attached ({snapshot: {...}} plus what the client sent).
  evidence jsonb NOT NULL DEFAULT '{}'::jsonb,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  check_id uuid REFERENCES checks (id) ON DELETE SET NULL,
  config_id uuid REFERENCES config_items (id) ON DELETE SET NULL,
  config_change_id uuid REFERENCES config_changes (id) ON DELETE SET NULL,
  config_analysis_id uuid REFERENCES config_analysis (id) ON DELETE SET NULL,
  component_id uuid REFERENCES components (id) ON DELETE SET NULL,
  definition_of_done boolean NOT NULL DEFAULT false,
  done boolean NOT NULL DEFAULT false,
  script text,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evidences_hypothesis_idx ON evidences (hypothesis_id);
CREATE INDEX evidences_check_idx ON evidences (check_id) WHERE check_id IS NOT NULL;
CREATE INDEX evidences_config_idx ON evidences (config_id) WHERE config_id IS NOT NULL;
CREATE INDEX evidences_component_idx ON evidences (component_id) WHERE component_id IS NOT NULL;

-- The snapshot: what the linked check, config, change, insight or component (by the evidence's type)
-- showed at this moment; log and comment evidence carry what the client sent.
CREATE FUNCTION evidence_snapshot(e evidences) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN e.type = 'check' THEN (
      SELECT jsonb_build_object(
        'kind', 'check', 'id', c.id, 'name', c.name, 'type', c.type, 'icon', c.icon, 'endpoint', c.endpoint, 'namespace', c.namespace,
        'status', c.status, 'severity', c.severity, 'last_runtime', c.last_runtime, 'last_transition_time', c.last_transition_time,
        'result', (SELECT jsonb_build_object('time', s.time, 'status', s.status, 'duration', s.duration, 'message', s.message, 'error', s.error)
                   FROM check_statuses s WHERE s.check_id = c.id
                     AND (e.evidence->>'time' IS NULL OR s.time <= (e.evidence->>'time')::timestamptz)
                   ORDER BY s.time DESC LIMIT 1))
      FROM checks c WHERE c.id = e.check_id)
    WHEN e.type = 'config_change' THEN (
      SELECT jsonb_build_object(
        'kind', 'config_change', 'id', ch.id, 'config_id', ch.config_id, 'config_name', ci.name, 'config_type', ci.type,
        'change_type', ch.change_type, 'severity', ch.severity, 'source', ch.source, 'summary', ch.summary, 'diff', ch.diff,
        'created_at', ch.created_at)
      FROM config_changes ch JOIN config_items ci ON ci.id = ch.config_id WHERE ch.id = e.config_change_id)
    WHEN e.type = 'config_analysis' THEN (
      SELECT jsonb_build_object(
        'kind', 'config_analysis', 'id', a.id, 'config_id', a.config_id, 'config_name', ci.name, 'config_type', ci.type,
        'analyzer', a.analyzer, 'analysis_type', a.analysis_type, 'severity', a.severity, 'status', a.status, 'message', a.message,
        'summary', a.summary, 'first_observed', a.first_observed, 'last_observed', a.last_observed)
      FROM config_analysis a JOIN config_items ci ON ci.id = a.config_id WHERE a.id = e.config_analysis_id)
    WHEN e.type = 'config' THEN (
      SELECT jsonb_build_object(
        'kind', 'config', 'id', ci.id, 'name', ci.name, 'type', ci.type, 'namespace', ci.namespace, 'health', ci.health,
        'status', ci.status, 'config', redact_secrets(ci.config), 'updated_at', ci.updated_at)
      FROM config_items ci WHERE ci.id = e.config_id)
    WHEN e.type = 'topology' THEN (
      SELECT jsonb_build_object(
        'kind', 'component', 'id', co.id, 'name', co.name, 'type', co.type, 'icon', co.icon, 'health', co.health,
        'status', co.status, 'status_reason', co.status_reason, 'properties', co.properties)
      FROM components co WHERE co.id = e.component_id)
  END
$$;

CREATE FUNCTION evidences_before() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  snapshot jsonb;
BEGIN
  PERFORM incident_check_value('type', NEW.type, ARRAY['log', 'config', 'topology', 'check', 'config_analysis', 'config_change', 'comment']);
  IF TG_OP = 'INSERT' THEN
    IF NEW.type = 'check' AND NEW.check_id IS NULL THEN RAISE EXCEPTION 'check_id: is required for check evidence' USING ERRCODE = '23514'; END IF;
    IF NEW.type = 'config' AND NEW.config_id IS NULL THEN RAISE EXCEPTION 'config_id: is required for config evidence' USING ERRCODE = '23514'; END IF;
    IF NEW.type = 'config_change' AND NEW.config_change_id IS NULL THEN RAISE EXCEPTION 'config_change_id: is required for config_change evidence' USING ERRCODE = '23514'; END IF;
    IF NEW.type = 'config_analysis' AND NEW.config_analysis_id IS NULL THEN RAISE EXCEPTION 'config_analysis_id: is required for config_analysis evidence' USING ERRCODE = '23514'; END IF;
    IF NEW.type = 'topology' AND NEW.component_id IS NULL THEN RAISE EXCEPTION 'component_id: is required for topology evidence' USING ERRCODE = '23514'; END IF;
    IF NEW.evidence IS NULL OR jsonb_typeof(NEW.evidence) <> 'object' THEN NEW.evidence := '{}'::jsonb; END IF;
    snapshot := evidence_snapshot(NEW);
    IF snapshot IS NULL AND NEW.type NOT IN ('log', 'comment') THEN
      RAISE EXCEPTION '%: no such %', CASE NEW.type WHEN 'topology' THEN 'component_id' ELSE NEW.type || '_id' END,
        CASE NEW.type WHEN 'topology' THEN 'component' WHEN 'config_analysis' THEN 'insight' ELSE replace(NEW.type, '_', ' ') END USING ERRCODE = '23514';
    END IF;
    -- The server's snapshot, never the client's.
    NEW.evidence := NEW.evidence - 'snapshot' || CASE WHEN snapshot IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('snapshot', snapshot) END;
  ELSE
    NEW.hypothesis_id := OLD.hypothesis_id;
    NEW.evidence := OLD.evidence;
    NEW.created_at := OLD.created_at;
    NEW.created_by := OLD.created_by;
  END IF;
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER evidences_before BEFORE INSERT OR UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION evidences_before();

CREATE TABLE responders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'person',
  person_id uuid REFERENCES people (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  acknowledged timestamptz,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX responders_person_key ON responders (incident_id, person_id) WHERE person_id IS NOT NULL;
CREATE UNIQUE INDEX responders_team_key ON responders (incident_id, team_id) WHERE team_id IS NOT NULL;

CREATE FUNCTION responders_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_check_value('type', NEW.type, ARRAY['person', 'team']);
  IF NEW.type = 'person' AND (NEW.person_id IS NULL OR NEW.team_id IS NOT NULL) THEN
    RAISE EXCEPTION 'person_id: a person responder names a person (and no team)' USING ERRCODE = '23514';
  END IF;
  IF NEW.type = 'team' AND (NEW.team_id IS NULL OR NEW.person_id IS NOT NULL) THEN
    RAISE EXCEPTION 'team_id: a team responder names a team (and no person)' USING ERRCODE = '23514';
  END IF;
  IF TG_OP = 'UPDATE' THEN NEW.incident_id := OLD.incident_id; NEW.created_by := OLD.created_by; NEW.created_at := OLD.created_at; END IF;
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER responders_before BEFORE INSERT OR UPDATE ON responders FOR EACH ROW EXECUTE FUNCTION responders_before();

CREATE TABLE comments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  hypothesis_id uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  responder_id uuid REFERENCES responders (id) ON DELETE SET NULL,
  comment text NOT NULL,
  created_by uuid REFERENCES people (id),
  external_created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_incident_idx ON comments (incident_id, created_at);
CREATE INDEX comments_hypothesis_idx ON comments (hypothesis_id, created_at) WHERE hypothesis_id IS NOT NULL;

CREATE FUNCTION comments_before() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_require_text('comment', NEW.comment);
  IF TG_OP = 'INSERT' THEN
    -- A comment on a hypothesis belongs to that hypothesis' incident whatever the client sent.
    IF NEW.hypothesis_id IS NOT NULL THEN
      SELECT incident_id INTO NEW.incident_id FROM hypotheses WHERE id = NEW.hypothesis_id;
      IF NEW.incident_id IS NULL THEN RAISE EXCEPTION 'hypothesis_id: no such hypothesis' USING ERRCODE = '23514'; END IF;
    END IF;
    IF NEW.incident_id IS NULL THEN RAISE EXCEPTION 'incident_id: is required' USING ERRCODE = '23514'; END IF;
  ELSE
    NEW.incident_id := OLD.incident_id;
    NEW.hypothesis_id := OLD.hypothesis_id;
    NEW.created_by := OLD.created_by;
    NEW.created_at := OLD.created_at;
  END IF;
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER comments_before BEFORE INSERT OR UPDATE ON comments FOR EACH ROW EXECUTE FUNCTION comments_before();

-- The timeline. Event names are spec §4's.
CREATE TABLE incident_histories (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type text NOT NULL,
  description text,
  hypothesis_id uuid REFERENCES hypotheses (id) ON DELETE SET NULL,
  evidence_id uuid REFERENCES evidences (id) ON DELETE SET NULL,
  comment_id uuid REFERENCES comments (id) ON DELETE SET NULL,
  responder_id uuid REFERENCES responders (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX incident_histories_incident_idx ON incident_histories (incident_id, created_at);

CREATE FUNCTION incident_history_add(incident uuid, event text, description text, hypothesis uuid DEFAULT NULL, evidence uuid DEFAULT NULL, comment uuid DEFAULT NULL, responder uuid DEFAULT NULL)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO incident_histories (incident_id, type, description, hypothesis_id, evidence_id, comment_id, responder_id, created_by)
  VALUES (incident, event, description, hypothesis, evidence, comment, responder, current_actor())
$$;

-- A person as the timeline names them: the name, else the email.
CREATE FUNCTION person_label(person uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(name, ''), email) FROM people WHERE id = person
$$;

CREATE FUNCTION incidents_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.id, 'incident.created', format('%s opened: %s (%s, %s)', NEW.incident_id, NEW.title, NEW.severity, NEW.type));
    RETURN NULL;
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM incident_history_add(NEW.id, 'incident.status_updated', format('Status: %s → %s', OLD.status, NEW.status));
  END IF;
  IF NEW.severity IS DISTINCT FROM OLD.severity THEN
    PERFORM incident_history_add(NEW.id, 'incident_status.updated', format('Severity: %s → %s', OLD.severity, NEW.severity));
  END IF;
  IF NEW.type IS DISTINCT FROM OLD.type THEN
    PERFORM incident_history_add(NEW.id, 'incident_status.updated', format('Type: %s → %s', OLD.type, NEW.type));
  END IF;
  IF NEW.commander_id IS DISTINCT FROM OLD.commander_id THEN
    PERFORM incident_history_add(NEW.id, 'incident_status.updated',
      format('Commander: %s', coalesce(person_label(NEW.commander_id), 'none')));
  END IF;
  IF NEW.communicator_id IS DISTINCT FROM OLD.communicator_id THEN
    PERFORM incident_history_add(NEW.id, 'incident_status.updated',
      format('Communicator: %s', coalesce(person_label(NEW.communicator_id), 'none')));
  END IF;
  IF NEW.title IS DISTINCT FROM OLD.title THEN
    PERFORM incident_history_add(NEW.id, 'incident_status.updated', format('Title: %s', NEW.title));
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER incidents_after AFTER INSERT OR UPDATE ON incidents FOR EACH ROW EXECUTE FUNCTION incidents_after();

CREATE FUNCTION hypotheses_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(NEW.incident_id, 'hypothesis.created', format('%s hypothesis: %s (%s)', initcap(NEW.type), NEW.title, NEW.status), NEW.id);
  ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
    PERFORM incident_history_add(NEW.incident_id, 'hypothesis.status_updated', format('%s: %s → %s', NEW.title, OLD.status, NEW.status), NEW.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER hypotheses_after AFTER INSERT OR UPDATE ON hypotheses FOR EACH ROW EXECUTE FUNCTION hypotheses_after();

CREATE FUNCTION evidences_after() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  incident uuid;
BEGIN
  SELECT h.incident_id INTO incident FROM hypotheses h WHERE h.id = NEW.hypothesis_id;
  IF TG_OP = 'INSERT' THEN
    PERFORM incident_history_add(incident, 'evidence.created',
      format('%s evidence%s', initcap(replace(NEW.type, '_', ' ')), coalesce(': ' || coalesce(nullif(NEW.description, ''), NEW.evidence->'snapshot'->>'name', NEW.evidence->'snapshot'->>'config_name'), '')),
      NEW.hypothesis_id, NEW.id);
  ELSIF NEW.definition_of_done AND NOT OLD.definition_of_done THEN
    PERFORM incident_history_add(incident, 'evidence.done_definition_added',
      format('Definition of done: %s', coalesce(nullif(NEW.description, ''), NEW.type)), NEW.hypothesis_id, NEW.id);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER evidences_after AFTER INSERT OR UPDATE ON evidences FOR EACH ROW EXECUTE FUNCTION evidences_after();

CREATE FUNCTION responders_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_history_add(NEW.incident_id, 'responder.created',
    format('Responder added: %s', coalesce(
      person_label(NEW.person_id),
      (SELECT name FROM teams WHERE id = NEW.team_id), NEW.type)),
    NULL, NULL, NULL, NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER responders_after AFTER INSERT ON responders FOR EACH ROW EXECUTE FUNCTION responders_after();

CREATE FUNCTION comments_after() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM incident_history_add(NEW.incident_id, 'responder.commented', left(NEW.comment, 280), NEW.hypothesis_id, NULL, NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER comments_after AFTER INSERT ON comments FOR EACH ROW EXECUTE FUNCTION comments_after();

-- The list's rows: the incident with its people and counts.
CREATE VIEW incident_summary AS
SELECT
  i.id, i.incident_id, i.title, i.description, i.type, i.status, i.severity, i.commander_id, i.communicator_id, i.created_by,
  i.incident_rule_id, i.created_at, i.updated_at, i.investigating_at, i.mitigated_at, i.resolved_at, i.closed_at,
  CASE WHEN cp.id IS NULL THEN NULL ELSE jsonb_build_object('id', cp.id, 'name', cp.name, 'email', cp.email, 'avatar', cp.avatar) END AS commander,
  CASE WHEN cb.id IS NULL THEN NULL ELSE jsonb_build_object('id', cb.id, 'name', cb.name, 'email', cb.email, 'avatar', cb.avatar) END AS creator,
  coalesce((SELECT jsonb_agg(jsonb_build_object('id', r.id, 'type', r.type, 'person_id', r.person_id, 'team_id', r.team_id,
      'name', coalesce(nullif(rp.name, ''), rp.email, t.name)) ORDER BY r.created_at)
    FROM responders r LEFT JOIN people rp ON rp.id = r.person_id LEFT JOIN teams t ON t.id = r.team_id
    WHERE r.incident_id = i.id), '[]'::jsonb) AS responders,
  (SELECT count(*) FROM hypotheses h WHERE h.incident_id = i.id)::int AS hypotheses,
  (SELECT count(*) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = i.id)::int AS evidences,
  (SELECT count(*) FROM comments c WHERE c.incident_id = i.id)::int AS comments,
  coalesce((SELECT array_agg(DISTINCT e.component_id) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
    WHERE h.incident_id = i.id AND e.component_id IS NOT NULL), '{}') AS component_ids,
  coalesce((SELECT array_agg(DISTINCT e.config_id) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
    WHERE h.incident_id = i.id AND e.config_id IS NOT NULL), '{}') AS config_ids,
  coalesce((SELECT array_agg(DISTINCT e.check_id) FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id
    WHERE h.incident_id = i.id AND e.check_id IS NOT NULL), '{}') AS check_ids
FROM incidents i
LEFT JOIN people cp ON cp.id = i.commander_id
LEFT JOIN people cb ON cb.id = i.created_by;

-- Incidents that name a component or a config item in their evidence (the component and catalog pages).
CREATE VIEW incidents_by_component AS
SELECT DISTINCT e.component_id, co.name AS component_name, i.id, i.incident_id, i.title, i.type, i.status, i.severity, i.created_at
FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id JOIN components co ON co.id = e.component_id;

CREATE VIEW incidents_by_config AS
SELECT DISTINCT coalesce(e.config_id, ch.config_id, a.config_id) AS config_id, ci.name AS config_name, i.id, i.incident_id, i.title, i.type, i.status, i.severity, i.created_at
FROM evidences e
JOIN hypotheses h ON h.id = e.hypothesis_id
JOIN incidents i ON i.id = h.incident_id
LEFT JOIN config_changes ch ON ch.id = e.config_change_id
LEFT JOIN config_analysis a ON a.id = e.config_analysis_id
JOIN config_items ci ON ci.id = coalesce(e.config_id, ch.config_id, a.config_id);
