-- Topology (docs/TOPOLOGY.md): topologies in the canary-checker format and the components each run
-- builds, their parent/child tree, and the checks and configs attached to them.

CREATE TABLE topologies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default',
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  icon text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The Topology spec as written (type, icon, properties, components, schedule, ...).
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The effective schedule (spec.schedule, default @every 5m); NULL (@never) runs only when asked.
  schedule text,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  next_run_at timestamptz NOT NULL DEFAULT 'infinity',
  lease_owner text,
  lease_until timestamptz,
  last_run_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX topologies_name_key ON topologies (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX topologies_due_idx ON topologies (next_run_at) WHERE deleted_at IS NULL;
CREATE TRIGGER topologies_updated_at BEFORE UPDATE ON topologies FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE components (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topology_id uuid REFERENCES topologies (id) ON DELETE CASCADE,
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- Stable within its topology across runs: the names from the root down ("shop/web/pod-1").
  external_id text NOT NULL,
  parent_id uuid REFERENCES components (id) ON DELETE SET NULL,
  -- Ancestor ids from the root, dot-separated, for subtree reads.
  path text NOT NULL DEFAULT '',
  name text NOT NULL,
  text text,
  type text,
  icon text,
  owner text,
  tooltip text,
  description text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- [{name, label, text, value, unit, type, color, headline, tooltip, icon, min, max}]
  properties jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- healthy, unhealthy, warning or unknown: the component's own and children's and checks', worst first.
  health text NOT NULL DEFAULT 'unknown',
  -- Its own health before the roll-up (set, from an expression, or from the config or check it came from).
  own_health text,
  -- A free status text (Running, Degraded, …) and why the health is what it is.
  status text,
  status_reason text,
  hidden boolean NOT NULL DEFAULT false,
  -- The config item this component was looked up from, if any.
  config_id uuid REFERENCES config_items (id) ON DELETE SET NULL,
  -- Counts the cards show: {healthy, unhealthy, warning, unknown} of the children, checks and configs.
  summary jsonb NOT NULL DEFAULT '{}'::jsonb,
  sort_order int NOT NULL DEFAULT 0,
  source text NOT NULL DEFAULT 'Topology',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX components_external_key ON components (topology_id, external_id) WHERE deleted_at IS NULL;
CREATE INDEX components_parent_idx ON components (parent_id) WHERE deleted_at IS NULL;
CREATE INDEX components_roots_idx ON components (name) WHERE parent_id IS NULL AND deleted_at IS NULL;
CREATE INDEX components_path_idx ON components (path text_pattern_ops) WHERE deleted_at IS NULL;
CREATE INDEX components_type_idx ON components (type) WHERE deleted_at IS NULL;
CREATE INDEX components_labels_idx ON components USING gin (labels);
CREATE TRIGGER components_updated_at BEFORE UPDATE ON components FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Components attached under another one by a selector (besides their own parent): component_id is the
-- child, relationship_id the parent it is shown under.
CREATE TABLE component_relationships (
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  relationship_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  selector_id text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (component_id, relationship_id, selector_id),
  CHECK (component_id <> relationship_id)
);
CREATE INDEX component_relationships_parent_idx ON component_relationships (relationship_id) WHERE deleted_at IS NULL;

CREATE INDEX check_component_relationships_component_idx ON check_component_relationships (component_id) WHERE deleted_at IS NULL;
CREATE INDEX config_component_relationships_component_idx ON config_component_relationships (component_id) WHERE deleted_at IS NULL;

-- The topologies list: secrets in specs masked, with the root component and its size.
CREATE VIEW topologies_shown AS
SELECT t.id, t.name, t.namespace, t.agent_id, t.icon, t.labels, redact_secrets(t.spec) AS spec, t.schedule, t.source, t.created_by,
  t.next_run_at, t.last_run_at, t.created_at, t.updated_at, t.deleted_at,
  (SELECT count(*) FROM components c WHERE c.topology_id = t.id AND c.deleted_at IS NULL)::int AS components,
  (SELECT c.id FROM components c WHERE c.topology_id = t.id AND c.parent_id IS NULL AND c.deleted_at IS NULL ORDER BY c.created_at LIMIT 1) AS root_id
FROM topologies t;

CREATE VIEW component_names AS
SELECT id, name, text, type, icon, topology_id, parent_id, health, hidden, deleted_at FROM components;

CREATE VIEW component_labels AS
SELECT DISTINCT l.key, l.value
FROM components c, jsonb_each_text(c.labels) l
WHERE c.deleted_at IS NULL;

CREATE VIEW component_types AS
SELECT DISTINCT type FROM components WHERE deleted_at IS NULL AND type IS NOT NULL;
