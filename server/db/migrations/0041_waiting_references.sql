-- Resources that name something that does not exist yet (issue 36 §2, docs/RESOURCES.md "References to
-- what does not exist yet"): a Permission for a person or team, a Notification to a person, team or
-- connection, a Permission over a Scope. Mission Control accepts them and resolves the reference when its
-- controller runs; here they are saved with `waiting_for`, the references still missing, each
-- {"path": "spec.subject.person", "kind": "person", "ref": "john@doe.com"} as written, and resolved by the
-- triggers below the moment the person, team, connection or scope is created (or renamed to match). While a
-- reference waits, what it names does nothing: a permission waiting for its subject is loaded by no one, a
-- notification waiting for its recipient sends nothing there and says so.

ALTER TABLE permissions ADD COLUMN waiting_for jsonb CHECK (waiting_for IS NULL OR jsonb_typeof(waiting_for) = 'array');
ALTER TABLE notifications ADD COLUMN waiting_for jsonb CHECK (waiting_for IS NULL OR jsonb_typeof(waiting_for) = 'array');

-- A Permission may name a plugin as subject (kept and shown; plugins are not run here), or no subject this
-- console knows ('none': the document's subject field is not Mission Control's; it grants nothing).
ALTER TABLE permissions DROP CONSTRAINT permissions_subject_type_check;
ALTER TABLE permissions ADD CONSTRAINT permissions_subject_type_check
  CHECK (subject_type IN ('person', 'team', 'group', 'notification', 'playbook', 'canary', 'scraper', 'topology', 'plugin', 'none'));

-- A waiting person or team subject keeps the reference as written in `subject` (and no id) until it exists.
CREATE OR REPLACE FUNCTION permissions_subject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subject_type IN ('person', 'team') AND NEW.person_id IS NULL AND NEW.team_id IS NULL
     AND NEW.waiting_for @> jsonb_build_array(jsonb_build_object('path', 'spec.subject.' || NEW.subject_type)) THEN
    RETURN NEW;
  END IF;
  IF NEW.subject_type = 'person' THEN
    IF NEW.person_id IS NULL OR (TG_OP = 'UPDATE' AND NEW.subject IS DISTINCT FROM OLD.subject AND NEW.person_id IS NOT DISTINCT FROM OLD.person_id) THEN
      NEW.person_id := NULLIF(NEW.subject, '')::uuid;
    END IF;
    NEW.subject := NEW.person_id::text;
    NEW.team_id := NULL;
  ELSIF NEW.subject_type = 'team' THEN
    IF NEW.team_id IS NULL OR (TG_OP = 'UPDATE' AND NEW.subject IS DISTINCT FROM OLD.subject AND NEW.team_id IS NOT DISTINCT FROM OLD.team_id) THEN
      NEW.team_id := NULLIF(NEW.subject, '')::uuid;
    END IF;
    NEW.subject := NEW.team_id::text;
    NEW.person_id := NULL;
  ELSE
    NEW.person_id := NULL;
    NEW.team_id := NULL;
  END IF;
  RETURN NEW;
END $$;

-- Scope (mission-control.flanksource.com/v1): named targets (config, component, playbook, canary, view or
-- global selectors by agent, namespace, name and tagSelector) that a Permission's object names in `scopes`.
-- The permission engine expands them when it loads permission rows, so a change reaches the next request.
CREATE TABLE scopes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  namespace text NOT NULL DEFAULT 'default',
  description text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  targets jsonb NOT NULL CHECK (jsonb_typeof(targets) = 'array'),
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE TRIGGER scopes_updated_at BEFORE UPDATE ON scopes FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER scopes_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON scopes FOR EACH STATEMENT EXECUTE FUNCTION bump_rbac_version();

-- Plugin (mission-control.flanksource.com/v1): kept as applied; this console runs no plugin.
CREATE TABLE plugins (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  namespace text NOT NULL DEFAULT 'default',
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE TRIGGER plugins_updated_at BEFORE UPDATE ON plugins FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Both are an organization's rows (hosted mode, migration 0035), found again by namespace and name.
SELECT organization_rows('scopes');
SELECT organization_rows('plugins');
CREATE UNIQUE INDEX scopes_name_key ON scopes (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX plugins_name_key ON plugins (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;

-- ── Resolving ──────────────────────────────────────────────────────────────────────────────────────
-- A waiting list without the entries of one kind whose reference is one of REFS (people and teams by
-- lowercased id, email or name; connections and scopes by namespace/name); NULL when nothing waits any more.
CREATE FUNCTION waiting_without(waiting jsonb, kind text, refs text[]) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT nullif(coalesce(jsonb_agg(e), '[]'::jsonb), '[]'::jsonb)
  FROM jsonb_array_elements(coalesce(waiting, '[]'::jsonb)) e
  WHERE NOT (e->>'kind' = kind AND (CASE WHEN kind IN ('person', 'team') THEN lower(e->>'ref') ELSE e->>'ref' END) = ANY (refs))
$$;

-- Whether the waiting list has an entry at PATH (or of KIND, when PATH is NULL) whose reference is in REFS.
CREATE FUNCTION waiting_has(waiting jsonb, kind text, path text, refs text[]) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM jsonb_array_elements(coalesce(waiting, '[]'::jsonb)) e
    WHERE e->>'kind' = kind AND (path IS NULL OR e->>'path' = path)
      AND (CASE WHEN kind IN ('person', 'team') THEN lower(e->>'ref') ELSE e->>'ref' END) = ANY (refs))
$$;

-- A rule's error that only said what it waited for (the engine's "waiting for …, which does not exist yet"):
-- gone once something it waited for exists; the next event records it again if something still waits.
CREATE FUNCTION waiting_error_cleared(error text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN error LIKE 'waiting for %' OR error LIKE 'fallback waiting for %' THEN NULL ELSE error END
$$;

-- A person counts for an organization's rows when the person is its member or was made in it (the same
-- people the organization sees, migration 0035); the console's own rows (organization NULL) see everyone.
CREATE FUNCTION person_counts_for(pid uuid, person_organization uuid, organization uuid) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT organization IS NULL OR person_organization = organization
    OR EXISTS (SELECT 1 FROM organization_members m WHERE m.person_id = pid AND m.organization_id = organization)
$$;

-- The person PID now exists (or was renamed, or joined an organization): the permissions and notifications
-- waiting for them by id, email or name take their id. Runs as the owner, so that it sees the rows of every
-- organization the person counts for, whichever organization's request made the person.
CREATE FUNCTION resolve_waiting_person(pid uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  p record;
  refs text[];
BEGIN
  SELECT id, email, name, organization_id INTO p FROM people WHERE id = pid AND deleted_at IS NULL;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  refs := array_remove(ARRAY[p.id::text, lower(p.email), lower(p.name)], NULL);
  UPDATE permissions pm SET person_id = p.id, subject = p.id::text, waiting_for = waiting_without(pm.waiting_for, 'person', refs)
  WHERE pm.deleted_at IS NULL AND pm.subject_type = 'person' AND pm.person_id IS NULL
    AND waiting_has(pm.waiting_for, 'person', 'spec.subject.person', refs)
    AND person_counts_for(p.id, p.organization_id, pm.organization_id);
  UPDATE notifications n SET
    person_id = CASE WHEN waiting_has(n.waiting_for, 'person', 'spec.to.person', refs) THEN p.id ELSE n.person_id END,
    fallback_person_id = CASE WHEN waiting_has(n.waiting_for, 'person', 'spec.fallback.person', refs) THEN p.id ELSE n.fallback_person_id END,
    waiting_for = waiting_without(n.waiting_for, 'person', refs),
    error = waiting_error_cleared(n.error),
    error_at = CASE WHEN waiting_error_cleared(n.error) IS NULL THEN NULL ELSE n.error_at END
  WHERE n.deleted_at IS NULL AND waiting_has(n.waiting_for, 'person', NULL, refs)
    AND person_counts_for(p.id, p.organization_id, n.organization_id);
END $$;
REVOKE ALL ON FUNCTION resolve_waiting_person(uuid) FROM PUBLIC;

CREATE FUNCTION people_resolve_waiting() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM resolve_waiting_person(NEW.id);
  RETURN NULL;
END $$;
CREATE FUNCTION members_resolve_waiting() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  PERFORM resolve_waiting_person(NEW.person_id);
  RETURN NULL;
END $$;
CREATE TRIGGER people_resolve_waiting AFTER INSERT OR UPDATE OF email, name, deleted_at ON people
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION people_resolve_waiting();
CREATE TRIGGER organization_members_resolve_waiting AFTER INSERT ON organization_members
  FOR EACH ROW EXECUTE FUNCTION members_resolve_waiting();

-- A team now exists (or was renamed): its organization's permissions and notifications waiting for it.
CREATE FUNCTION teams_resolve_waiting() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  refs text[] := ARRAY[NEW.id::text, lower(NEW.name)];
BEGIN
  UPDATE permissions pm SET team_id = NEW.id, subject = NEW.id::text, waiting_for = waiting_without(pm.waiting_for, 'team', refs)
  WHERE pm.deleted_at IS NULL AND pm.subject_type = 'team' AND pm.team_id IS NULL
    AND waiting_has(pm.waiting_for, 'team', 'spec.subject.team', refs)
    AND pm.organization_id IS NOT DISTINCT FROM NEW.organization_id;
  UPDATE notifications n SET
    team_id = CASE WHEN waiting_has(n.waiting_for, 'team', 'spec.to.team', refs) THEN NEW.id ELSE n.team_id END,
    fallback_team_id = CASE WHEN waiting_has(n.waiting_for, 'team', 'spec.fallback.team', refs) THEN NEW.id ELSE n.fallback_team_id END,
    waiting_for = waiting_without(n.waiting_for, 'team', refs),
    error = waiting_error_cleared(n.error),
    error_at = CASE WHEN waiting_error_cleared(n.error) IS NULL THEN NULL ELSE n.error_at END
  WHERE n.deleted_at IS NULL AND waiting_has(n.waiting_for, 'team', NULL, refs)
    AND n.organization_id IS NOT DISTINCT FROM NEW.organization_id;
  RETURN NULL;
END $$;
CREATE TRIGGER teams_resolve_waiting AFTER INSERT OR UPDATE OF name, deleted_at ON teams
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION teams_resolve_waiting();

-- A connection now exists: notifications waiting for it send through it (its id and type join the stored
-- recipient, as if it had existed when the rule was saved).
CREATE FUNCTION with_connection(services jsonb, reference text, connection_id uuid, connection_type text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN services IS NULL OR jsonb_typeof(services) <> 'array' THEN services ELSE (
    SELECT coalesce(jsonb_agg(CASE WHEN s->>'connection' = reference AND NOT (s ? 'connection_id')
                                   THEN s || jsonb_build_object('connection_id', connection_id, 'connection_type', connection_type) ELSE s END), '[]'::jsonb)
    FROM jsonb_array_elements(services) s) END
$$;
CREATE FUNCTION connections_resolve_waiting() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  ref text := NEW.namespace || '/' || NEW.name;
BEGIN
  UPDATE notifications n SET
    custom_services = with_connection(n.custom_services, 'connection://' || ref, NEW.id, NEW.type),
    fallback_custom_services = with_connection(n.fallback_custom_services, 'connection://' || ref, NEW.id, NEW.type),
    waiting_for = waiting_without(n.waiting_for, 'connection', ARRAY[ref]),
    error = waiting_error_cleared(n.error),
    error_at = CASE WHEN waiting_error_cleared(n.error) IS NULL THEN NULL ELSE n.error_at END
  WHERE n.deleted_at IS NULL AND waiting_has(n.waiting_for, 'connection', NULL, ARRAY[ref])
    AND n.organization_id IS NOT DISTINCT FROM NEW.organization_id;
  RETURN NULL;
END $$;
CREATE TRIGGER connections_resolve_waiting AFTER INSERT OR UPDATE OF name, namespace, deleted_at ON connections
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION connections_resolve_waiting();

-- A scope now exists: permissions naming it no longer wait (the engine expands it on its next load).
CREATE FUNCTION scopes_resolve_waiting() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  ref text := NEW.namespace || '/' || NEW.name;
BEGIN
  UPDATE permissions pm SET waiting_for = waiting_without(pm.waiting_for, 'scope', ARRAY[ref])
  WHERE pm.deleted_at IS NULL AND waiting_has(pm.waiting_for, 'scope', NULL, ARRAY[ref])
    AND pm.organization_id IS NOT DISTINCT FROM NEW.organization_id;
  RETURN NULL;
END $$;
CREATE TRIGGER scopes_resolve_waiting AFTER INSERT OR UPDATE OF name, namespace, deleted_at ON scopes
  FOR EACH ROW WHEN (NEW.deleted_at IS NULL) EXECUTE FUNCTION scopes_resolve_waiting();

-- ── Read shapes ────────────────────────────────────────────────────────────────────────────────────
-- The Permissions page and the notification rules list show what a row waits for; a rule that waits
-- (and has no error) reads status 'waiting'.
CREATE OR REPLACE VIEW permissions_summary WITH (security_invoker = true) AS
SELECT
  pm.id, pm.name, pm.namespace, pm.description, pm.action, pm.deny, pm.subject, pm.subject_type,
  pm.person_id, pm.team_id, pm.notification_id, pm.object, pm.object_selector, pm.config_id, pm.component_id,
  pm.canary_id, pm.playbook_id, pm.connection_id, pm.tags, pm.agents, pm.until, pm.source, pm.error,
  pm.created_by, pm.updated_by, pm.created_at, pm.updated_at, pm.deleted_at,
  CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email, 'avatar', p.avatar) END AS person,
  CASE WHEN t.id IS NULL THEN NULL ELSE jsonb_build_object('id', t.id, 'name', t.name, 'icon', t.icon) END AS team,
  CASE WHEN pm.subject_type = 'group' THEN pm.subject END AS "group",
  CASE WHEN cb.id IS NULL THEN NULL ELSE jsonb_build_object('id', cb.id, 'name', cb.name) END AS created_by_person,
  CASE WHEN cn.id IS NULL THEN NULL ELSE jsonb_build_object('id', cn.id, 'name', cn.name, 'namespace', cn.namespace, 'type', cn.type) END AS connection_object,
  pm.waiting_for
FROM permissions pm
LEFT JOIN people p ON p.id = pm.person_id
LEFT JOIN teams t ON t.id = pm.team_id
LEFT JOIN people cb ON cb.id = pm.created_by
LEFT JOIN connections cn ON cn.id = pm.connection_id;

CREATE OR REPLACE VIEW notifications_summary WITH (security_invoker = true) AS
SELECT n.id, n.name, n.namespace, n.labels, n.events, n.title, n.filter, n.person_id, n.team_id, n.playbook_id, n.custom_services,
  n.repeat_interval, n.group_by, n.wait_for, n.inhibitions, n.disabled, n.error, n.error_at, n.source, n.created_by,
  n.created_at, n.updated_at, n.deleted_at,
  coalesce(h.sent, 0) AS sent, coalesce(h.failed, 0) AS failed, coalesce(h.pending, 0) AS pending,
  coalesce(h.silenced, 0) AS silenced, coalesce(h.suppressed, 0) AS suppressed,
  h.last_sent, h.last_failed,
  CASE WHEN n.error IS NOT NULL THEN 'error' WHEN n.disabled THEN 'disabled'
       WHEN n.waiting_for IS NOT NULL THEN 'waiting'
       WHEN h.last_failed IS NOT NULL AND (h.last_sent IS NULL OR h.last_failed > h.last_sent) THEN 'failing'
       ELSE 'ok' END AS status,
  n.waiting_for
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
