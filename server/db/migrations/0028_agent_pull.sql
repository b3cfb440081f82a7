-- Pull down (issue 23, docs/AGENTS.md "Resources and playbook actions from upstream"): canaries, scrapers and
-- topologies defined upstream for an agent, which the agent pulls (GET /api/agent/pull) and runs; and playbook
-- actions with runsOn an agent, which the agent claims and runs (POST /api/agent/playbook-actions/claim).

-- upstream_origin: the row was defined on this console for the agent named by agent_id (true), or it is the
-- agent's own resource pushed up (false). Only upstream-origin rows are pulled down, so a pushed-up row is
-- never sent back to the agent as a new resource. An insert that does not say (the UI, apply, /api/db) is
-- upstream-origin when it names an agent; the agent's push says it (its rows carry the column).
ALTER TABLE canaries ADD COLUMN upstream_origin boolean;
ALTER TABLE config_scrapers ADD COLUMN upstream_origin boolean;
ALTER TABLE topologies ADD COLUMN upstream_origin boolean;
UPDATE canaries SET upstream_origin = false;
UPDATE config_scrapers SET upstream_origin = false;
UPDATE topologies SET upstream_origin = false;
ALTER TABLE canaries ALTER COLUMN upstream_origin SET NOT NULL;
ALTER TABLE config_scrapers ALTER COLUMN upstream_origin SET NOT NULL;
ALTER TABLE topologies ALTER COLUMN upstream_origin SET NOT NULL;

-- The agent a resource's labels name (label watchkeeper.io/agent: <agent name>), or the local agent (nil).
CREATE FUNCTION agent_target(labels jsonb) RETURNS uuid
LANGUAGE plpgsql STABLE AS $$
DECLARE
  wanted text := labels ->> 'watchkeeper.io/agent';
  found uuid;
BEGIN
  IF wanted IS NULL OR wanted = '' OR wanted = 'local' THEN
    RETURN '00000000-0000-0000-0000-000000000000';
  END IF;
  SELECT id INTO found FROM agents WHERE name = wanted AND deleted_at IS NULL ORDER BY created_at LIMIT 1;
  IF found IS NULL THEN
    RAISE EXCEPTION 'metadata.labels.watchkeeper.io/agent: no agent is named "%" (create it in Settings → Agents first)', wanted
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN found;
END $$;

-- What changed for which agent: one row per (agent, table, resource) with the version of its last change.
-- Versions are taken under a transaction lock held until commit, so they are handed out in commit order and
-- a reader that sees version v sees every smaller one: the agent's cursor never skips a change.
CREATE SEQUENCE agent_pull_version;
CREATE TABLE agent_pull_changes (
  agent_id uuid NOT NULL,
  table_name text NOT NULL CHECK (table_name IN ('canaries', 'config_scrapers', 'topologies')),
  resource_id uuid NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (agent_id, table_name, resource_id)
);
CREATE INDEX agent_pull_changes_version_idx ON agent_pull_changes (agent_id, version);

CREATE FUNCTION agent_pull_note(agent uuid, tbl text, resource uuid) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('watchkeeper.agent_pull_version'));
  INSERT INTO agent_pull_changes (agent_id, table_name, resource_id, version)
  VALUES (agent, tbl, resource, nextval('agent_pull_version'))
  ON CONFLICT (agent_id, table_name, resource_id) DO UPDATE SET version = EXCLUDED.version;
END $$;

-- Before a write: the label names the agent; upstream-origin is decided; an agent's resource never runs on
-- this console (next_run_at infinity: the agent runs it); and the agent's push of a resource it pulled (its
-- copy says source 'Upstream') never overwrites the definition kept here, which only this console changes.
CREATE FUNCTION agent_pull_before() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  nil constant uuid := '00000000-0000-0000-0000-000000000000';
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.upstream_origin AND OLD.agent_id <> nil AND NEW.source = 'Upstream' AND OLD.source IS DISTINCT FROM 'Upstream' THEN
    -- The agent's copy coming back: only when it last ran is taken.
    NEW := jsonb_populate_record(OLD, jsonb_build_object('last_run_at', NEW.last_run_at));
    RETURN NEW;
  END IF;
  IF NEW.source IS DISTINCT FROM 'Upstream' THEN
    IF NEW.labels ? 'watchkeeper.io/agent' THEN
      NEW.agent_id := agent_target(NEW.labels);
    ELSIF TG_OP = 'UPDATE' AND OLD.labels ? 'watchkeeper.io/agent' AND NEW.agent_id = OLD.agent_id THEN
      -- The label was removed: the resource comes back to this console.
      NEW.agent_id := nil;
    END IF;
  END IF;
  IF TG_OP = 'INSERT' THEN
    IF NEW.upstream_origin IS NULL THEN
      NEW.upstream_origin := NEW.agent_id <> nil;
    END IF;
    IF NEW.source = 'Upstream' AND NEW.agent_id <> nil THEN
      -- An agent pushed a copy of a resource this console no longer has: it stays deleted.
      NEW.deleted_at := coalesce(NEW.deleted_at, now());
    END IF;
  ELSIF NEW.agent_id = nil AND OLD.agent_id <> nil THEN
    -- Back on this console.
    NEW.upstream_origin := false;
  ELSIF OLD.agent_id = nil AND NEW.agent_id <> nil THEN
    -- A console resource moved to an agent (a push can never do that: the row is not the agent's).
    NEW.upstream_origin := true;
  END IF;
  IF NEW.upstream_origin IS NULL THEN
    NEW.upstream_origin := false;
  END IF;
  IF NEW.agent_id <> nil THEN
    NEW.next_run_at := 'infinity';
  END IF;
  RETURN NEW;
END $$;

-- After a write: a change of what the agent runs is noted for the agent (and for the agent it left).
CREATE FUNCTION agent_pull_after() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  nil constant uuid := '00000000-0000-0000-0000-000000000000';
  old_row jsonb;
  new_row jsonb;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_row := to_jsonb(OLD);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_row := to_jsonb(NEW);
  END IF;
  IF old_row IS NOT NULL AND (old_row ->> 'upstream_origin')::boolean AND (old_row ->> 'agent_id')::uuid <> nil
     AND (new_row IS NULL OR new_row -> 'agent_id' IS DISTINCT FROM old_row -> 'agent_id' OR NOT (new_row ->> 'upstream_origin')::boolean) THEN
    PERFORM agent_pull_note((old_row ->> 'agent_id')::uuid, TG_TABLE_NAME, (old_row ->> 'id')::uuid);
  END IF;
  IF new_row IS NOT NULL AND (new_row ->> 'upstream_origin')::boolean AND (new_row ->> 'agent_id')::uuid <> nil
     AND (old_row IS NULL
          OR (new_row - 'next_run_at' - 'lease_owner' - 'lease_until' - 'last_run_at' - 'updated_at')
             IS DISTINCT FROM (old_row - 'next_run_at' - 'lease_owner' - 'lease_until' - 'last_run_at' - 'updated_at')) THEN
    PERFORM agent_pull_note((new_row ->> 'agent_id')::uuid, TG_TABLE_NAME, (new_row ->> 'id')::uuid);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER canaries_agent_pull_before BEFORE INSERT OR UPDATE ON canaries FOR EACH ROW EXECUTE FUNCTION agent_pull_before();
CREATE TRIGGER config_scrapers_agent_pull_before BEFORE INSERT OR UPDATE ON config_scrapers FOR EACH ROW EXECUTE FUNCTION agent_pull_before();
CREATE TRIGGER topologies_agent_pull_before BEFORE INSERT OR UPDATE ON topologies FOR EACH ROW EXECUTE FUNCTION agent_pull_before();
CREATE TRIGGER canaries_agent_pull_after AFTER INSERT OR UPDATE OR DELETE ON canaries FOR EACH ROW EXECUTE FUNCTION agent_pull_after();
CREATE TRIGGER config_scrapers_agent_pull_after AFTER INSERT OR UPDATE OR DELETE ON config_scrapers FOR EACH ROW EXECUTE FUNCTION agent_pull_after();
CREATE TRIGGER topologies_agent_pull_after AFTER INSERT OR UPDATE OR DELETE ON topologies FOR EACH ROW EXECUTE FUNCTION agent_pull_after();

-- The checks of an agent's canary belong to that agent from the start, so the agent's results for them
-- (the same ids, pulled down with the canary) are accepted by its push.
CREATE FUNCTION checks_agent_of_canary() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.agent_id = '00000000-0000-0000-0000-000000000000' THEN
    NEW.agent_id := coalesce((SELECT agent_id FROM canaries WHERE id = NEW.canary_id), NEW.agent_id);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER checks_agent_of_canary BEFORE INSERT ON checks FOR EACH ROW EXECUTE FUNCTION checks_agent_of_canary();

-- Playbook actions run by an agent (runsOn: [agent name]): the runner parks the action 'waiting' for the
-- agent with its rendered input sealed by the secret store; the agent claims it (a lease: one that runs out
-- returns the action to the queue) and sends its result back.
ALTER TABLE playbook_run_actions
  ADD COLUMN agent_id uuid REFERENCES agents (id),
  ADD COLUMN agent_input text,
  ADD COLUMN agent_lease_until timestamptz,
  ADD COLUMN agent_claims integer NOT NULL DEFAULT 0;
CREATE INDEX playbook_run_actions_agent_idx ON playbook_run_actions (agent_id, scheduled_time) WHERE status = 'waiting';

-- On an agent: where its pull stands (one row): the cursor of the last page applied, when, the last error,
-- and the resources it could not apply (by id, with the reason).
CREATE TABLE agent_pull_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  cursor text NOT NULL DEFAULT '0',
  last_pull_at timestamptz,
  last_error text,
  failures jsonb NOT NULL DEFAULT '{}'::jsonb
);
