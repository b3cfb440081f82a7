-- Mission Control's PermissionGroup and Permission kinds, and the incident rules' memory of what they
-- saw (docs/RESOURCES.md).

-- PermissionGroup (mission-control.flanksource.com/v1): a named set of people and teams that Permission
-- rows name as `subject_type = 'group'`, as they name a role. Names are global (a Permission's
-- subject.group is a bare name). People are kept as lowercased emails or ids ('*' is everyone), teams as
-- lowercased names or ids, so a person or team that appears later is a member without re-applying.
-- Notifications, playbooks, topologies, scrapers and canaries as members are kept as written.
CREATE TABLE permission_groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  namespace text NOT NULL DEFAULT 'default',
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  people text[] NOT NULL DEFAULT '{}',
  teams text[] NOT NULL DEFAULT '{}',
  selectors jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX permission_groups_name_key ON permission_groups (name) WHERE deleted_at IS NULL;
CREATE TRIGGER permission_groups_updated_at BEFORE UPDATE ON permission_groups FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- A Permission applied from a file or the cluster is found again by namespace and name, so applying the
-- same document twice updates its row.
CREATE UNIQUE INDEX permissions_resource_key ON permissions (namespace, name)
  WHERE deleted_at IS NULL AND source <> 'UI' AND name IS NOT NULL;

-- Newer Permission documents may name a canary, scraper or topology as subject. They are kept (and
-- shown), though no request in this console acts as one.
ALTER TABLE permissions DROP CONSTRAINT permissions_subject_type_check;
ALTER TABLE permissions ADD CONSTRAINT permissions_subject_type_check
  CHECK (subject_type IN ('person', 'team', 'group', 'notification', 'playbook', 'canary', 'scraper', 'topology'));

-- What each incident rule saw of each resource it watches: since when it has been failing (for
-- filter.age) and since when it has been healthy again (for autoClose / autoResolve). Rows of resources
-- that are neither are removed by the evaluation.
CREATE TABLE incident_rule_resources (
  incident_rule_id uuid NOT NULL REFERENCES incident_rules (id) ON DELETE CASCADE,
  source_kind text NOT NULL CHECK (source_kind IN ('check', 'component', 'config')),
  source_id uuid NOT NULL,
  failing_since timestamptz,
  healthy_since timestamptz,
  PRIMARY KEY (incident_rule_id, source_kind, source_id)
);
