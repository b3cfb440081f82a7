-- Playbooks (docs/PLAYBOOKS.md): kind Playbook (mission-control.flanksource.com/v1), its runs, one row per
-- action attempt, approvals. Runs and actions are claimed with row leases (claimed_by, lease_until) so two
-- instances share the work and a run whose instance stopped is taken over when its lease runs out.

CREATE TABLE playbooks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default' CHECK (namespace <> ''),
  title text NOT NULL DEFAULT '',
  description text,
  icon text,
  category text NOT NULL DEFAULT '',
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The document's spec as written.
  spec jsonb NOT NULL,
  source text NOT NULL DEFAULT 'UI',
  -- Webhook trigger path (spec.on.webhook.path), unique among live playbooks.
  webhook_path text,
  error text,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (namespace, name) WHERE deleted_at IS NULL;
CREATE UNIQUE INDEX playbooks_webhook_path_key ON playbooks (webhook_path) WHERE deleted_at IS NULL AND webhook_path IS NOT NULL;

CREATE TABLE playbook_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_id uuid NOT NULL REFERENCES playbooks (id),
  -- scheduled → (pending_approval →) running ⇄ sleeping → completed | failed | cancelled | timed_out
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN (
    'scheduled', 'pending_approval', 'running', 'waiting', 'sleeping', 'retrying', 'completed', 'failed', 'cancelled', 'timed_out'
  )),
  -- The playbook's spec when the run was asked for: a later edit does not change a run under way.
  spec jsonb NOT NULL,
  -- Parameters as the run sees them, secret parameters replaced by a mask; their values are in
  -- secret_parameters (sealed by the secret store), never readable through /api/db.
  parameters jsonb NOT NULL DEFAULT '{}'::jsonb,
  secret_parameters text,
  config_id uuid,
  component_id uuid,
  check_id uuid,
  parent_id uuid REFERENCES playbook_runs (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  -- What started it: {"trigger": "manual"|"event"|"webhook"|"schedule"|"rerun", …} with the event or request.
  request jsonb,
  error text,
  timeout_millis bigint NOT NULL DEFAULT 1800000,
  -- When the run may next be worked on (scheduled, or woken from sleeping).
  scheduled_time timestamptz NOT NULL DEFAULT now(),
  start_time timestamptz,
  end_time timestamptz,
  claimed_by text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX playbook_runs_due_idx ON playbook_runs (scheduled_time) WHERE status IN ('scheduled', 'running', 'sleeping', 'retrying');
CREATE INDEX playbook_runs_playbook_idx ON playbook_runs (playbook_id, created_at DESC);
CREATE INDEX playbook_runs_created_idx ON playbook_runs (created_at DESC);
CREATE INDEX playbook_runs_config_idx ON playbook_runs (config_id) WHERE config_id IS NOT NULL;
CREATE INDEX playbook_runs_component_idx ON playbook_runs (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX playbook_runs_check_idx ON playbook_runs (check_id) WHERE check_id IS NOT NULL;
CREATE INDEX playbook_runs_parent_idx ON playbook_runs (parent_id) WHERE parent_id IS NOT NULL;

-- One row per attempt of an action (a retry is a new row with retry_count + 1).
CREATE TABLE playbook_run_actions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_run_id uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  name text NOT NULL,
  -- Position of the action in spec.actions.
  action_index integer NOT NULL,
  -- The action's type (exec, http, sql, notification, …).
  type text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'scheduled' CHECK (status IN (
    'scheduled', 'running', 'sleeping', 'waiting', 'completed', 'failed', 'skipped', 'cancelled', 'timed_out'
  )),
  retry_count integer NOT NULL DEFAULT 0,
  scheduled_time timestamptz NOT NULL DEFAULT now(),
  start_time timestamptz,
  end_time timestamptz,
  result jsonb,
  error text,
  -- The instance running it (for "the instance running it stopped").
  claimed_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX playbook_run_actions_attempt_key ON playbook_run_actions (playbook_run_id, action_index, retry_count);
CREATE INDEX playbook_run_actions_run_idx ON playbook_run_actions (playbook_run_id, action_index);

CREATE TABLE playbook_approvals (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  run_id uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  person_id uuid REFERENCES people (id) ON DELETE SET NULL,
  team_id uuid REFERENCES teams (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX playbook_approvals_person_key ON playbook_approvals (run_id, person_id);

ALTER TABLE artifacts ADD CONSTRAINT artifacts_playbook_run_action_fkey
  FOREIGN KEY (playbook_run_action_id) REFERENCES playbook_run_actions (id) ON DELETE CASCADE;

-- Names only (the run menu and pickers), as Mission Control's playbook_names.
CREATE VIEW playbook_names AS
SELECT id, name, namespace, title, icon, category, description
FROM playbooks WHERE deleted_at IS NULL;

-- The run page's one call: the run's actions with their artifacts (Mission Control's rpc).
CREATE FUNCTION get_playbook_run_actions(run_id uuid)
RETURNS TABLE (
  id uuid, playbook_run_id uuid, name text, action_index integer, type text, status text, retry_count integer,
  scheduled_time timestamptz, start_time timestamptz, end_time timestamptz, result jsonb, error text, artifacts jsonb
) LANGUAGE sql STABLE AS $$
  SELECT a.id, a.playbook_run_id, a.name, a.action_index, a.type, a.status, a.retry_count, a.scheduled_time, a.start_time,
         a.end_time, a.result, a.error,
         coalesce((SELECT jsonb_agg(jsonb_build_object('id', f.id, 'path', f.path, 'filename', f.filename, 'size', f.size,
                                                          'content_type', f.content_type, 'created_at', f.created_at) ORDER BY f.created_at)
                     FROM artifacts f WHERE f.playbook_run_action_id = a.id AND f.deleted_at IS NULL), '[]'::jsonb)
    FROM playbook_run_actions a
   WHERE a.playbook_run_id = get_playbook_run_actions.run_id
   ORDER BY a.action_index, a.retry_count;
$$;

CREATE TRIGGER playbooks_updated_at BEFORE UPDATE ON playbooks FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER playbook_runs_updated_at BEFORE UPDATE ON playbook_runs FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- spec.on.schedule: one row per schedule of a playbook, claimed by the platform's scheduled-rows worker
-- (one run per slot across instances); rewritten when the playbook is saved, gone with it.
CREATE TABLE playbook_schedules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_id uuid NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
  position integer NOT NULL,
  name text NOT NULL,
  schedule text NOT NULL,
  next_run_at timestamptz NOT NULL,
  lease_owner text,
  lease_until timestamptz,
  last_run_at timestamptz,
  deleted_at timestamptz,
  UNIQUE (playbook_id, position)
);
CREATE INDEX playbook_schedules_due_idx ON playbook_schedules (next_run_at) WHERE deleted_at IS NULL;
