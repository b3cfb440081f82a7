-- The configuration catalog (docs/CATALOG.md): scrapers in the config-db format, the config items they
-- find, the changes between scrapes, insights (config_analysis) and relationships.

CREATE TABLE config_scrapers (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default',
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  description text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The ScrapeConfig spec as written (file: [...], sql: [...], schedule, retention, ...).
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The effective schedule (spec.schedule, default @hourly); NULL (@never) runs only when asked.
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
CREATE UNIQUE INDEX config_scrapers_name_key ON config_scrapers (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX config_scrapers_due_idx ON config_scrapers (next_run_at) WHERE deleted_at IS NULL;
CREATE TRIGGER config_scrapers_updated_at BEFORE UPDATE ON config_scrapers FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE config_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000' REFERENCES agents (id),
  -- Every id the source knows the item by (the first is its own); items sharing one are aliases.
  external_id text[] NOT NULL DEFAULT '{}',
  type text NOT NULL CHECK (type <> ''),
  config_class text,
  name text,
  namespace text,
  description text,
  status text,
  ready boolean,
  health text CHECK (health IN ('healthy', 'unhealthy', 'warning', 'unknown')),
  source text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  tags jsonb NOT NULL DEFAULT '{}'::jsonb,
  properties jsonb,
  -- The normalised config as last scraped, and the sha256 of its canonical JSON.
  config jsonb,
  fingerprint text,
  parent_id uuid REFERENCES config_items (id) ON DELETE SET NULL,
  -- Ancestor ids from the root, dot-separated (the item's own id not included).
  path text NOT NULL DEFAULT '',
  cost_per_minute numeric(16, 4),
  cost_total_1d numeric(16, 4),
  cost_total_7d numeric(16, 4),
  cost_total_30d numeric(16, 4),
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  last_scraped_time timestamptz,
  deleted_at timestamptz,
  -- STALE, FROM_ATTRIBUTE, FROM_EVENT, FROM_DELETE_FIELD (the config-db reasons).
  delete_reason text
);
CREATE INDEX config_items_type_idx ON config_items (type, name) WHERE deleted_at IS NULL;
CREATE INDEX config_items_name_idx ON config_items (name);
CREATE INDEX config_items_updated_idx ON config_items (updated_at);
CREATE INDEX config_items_scraper_idx ON config_items (scraper_id, type);
CREATE INDEX config_items_parent_idx ON config_items (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX config_items_external_id_idx ON config_items USING gin (external_id);
CREATE INDEX config_items_tags_idx ON config_items USING gin (tags jsonb_path_ops);
CREATE INDEX config_items_labels_idx ON config_items USING gin (labels jsonb_path_ops);
CREATE INDEX config_items_health_idx ON config_items (health, type) WHERE deleted_at IS NULL;

CREATE TABLE config_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  -- The item's type when the change was recorded: the feed by type reads one index range.
  config_type text NOT NULL,
  external_change_id text,
  change_type text NOT NULL,
  severity text NOT NULL DEFAULT 'info' CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),
  source text,
  summary text,
  details jsonb,
  -- RFC 7386 merge patch from the previous config to this one, and the unified diff of the two as YAML.
  patches jsonb,
  diff text,
  -- Identical changes (same type and patch) within an hour are one row: count, first_observed and
  -- created_at (the last time seen) move instead.
  fingerprint text,
  count integer NOT NULL DEFAULT 1 CHECK (count >= 1),
  first_observed timestamptz NOT NULL DEFAULT now(),
  created_by uuid REFERENCES people (id),
  external_created_by text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_changes_config_idx ON config_changes (config_id, created_at DESC);
CREATE INDEX config_changes_type_idx ON config_changes (config_type, created_at DESC);
CREATE INDEX config_changes_created_idx ON config_changes (created_at DESC);
CREATE INDEX config_changes_change_type_idx ON config_changes (change_type);
CREATE UNIQUE INDEX config_changes_external_key ON config_changes (config_id, external_change_id) WHERE external_change_id IS NOT NULL;

CREATE TABLE config_analysis (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  analyzer text NOT NULL,
  message text,
  summary text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'silenced')),
  severity text NOT NULL DEFAULT 'low' CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),
  analysis_type text NOT NULL DEFAULT 'other',
  analysis jsonb,
  source text,
  first_observed timestamptz NOT NULL DEFAULT now(),
  last_observed timestamptz NOT NULL DEFAULT now(),
  UNIQUE (config_id, analyzer)
);
CREATE INDEX config_analysis_open_idx ON config_analysis (config_id) WHERE status = 'open';
CREATE INDEX config_analysis_last_idx ON config_analysis (last_observed DESC);

-- Edges between items beyond the parent tree: config_id relates to related_id (outgoing from config_id).
CREATE TABLE config_relationships (
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  related_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  relation text NOT NULL DEFAULT '',
  -- Which rule made it: 'owner' (owner references), 'parents', 'alias', 'rule:<n>' or 'manual'.
  selector_id text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (config_id, related_id, selector_id),
  CHECK (config_id <> related_id)
);
CREATE INDEX config_relationships_related_idx ON config_relationships (related_id);

CREATE TABLE config_component_relationships (
  component_id uuid NOT NULL,
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  selector_id text NOT NULL DEFAULT 'manual',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (component_id, config_id)
);
CREATE INDEX config_component_relationships_config_idx ON config_component_relationships (config_id);

-- What the list shows. changes (last 7 days) and analysis (open insights by type) are computed only for
-- the rows of a page: the planner leaves them out of counts and evaluates them after LIMIT.
CREATE VIEW configs AS
SELECT ci.id, ci.scraper_id, ci.agent_id, ci.external_id, ci.type, ci.config_class, ci.name, ci.namespace, ci.description, ci.status,
  ci.ready, ci.health, ci.source, ci.labels, ci.tags, ci.parent_id, ci.path, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d,
  ci.cost_total_30d, ci.created_by, ci.created_at, ci.updated_at, ci.last_scraped_time, ci.deleted_at, ci.delete_reason,
  (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id AND cc.created_at > now() - interval '7 days') AS changes,
  (SELECT jsonb_object_agg(a.analysis_type, a.n) FROM (
     SELECT ca.analysis_type, count(*) AS n FROM config_analysis ca WHERE ca.config_id = ci.id AND ca.status = 'open' GROUP BY ca.analysis_type
   ) a) AS analysis
FROM config_items ci;

CREATE VIEW config_detail AS
SELECT ci.*,
  (SELECT json_build_object('id', s.id, 'name', s.name, 'namespace', s.namespace) FROM config_scrapers s WHERE s.id = ci.scraper_id) AS scraper,
  json_build_object(
    'relationships', (SELECT count(*) FROM config_relationships r WHERE (r.config_id = ci.id OR r.related_id = ci.id) AND r.deleted_at IS NULL)
      + (SELECT count(*) FROM config_items child WHERE child.parent_id = ci.id AND child.deleted_at IS NULL)
      + (CASE WHEN ci.parent_id IS NULL THEN 0 ELSE 1 END),
    'analysis', (SELECT count(*) FROM config_analysis a WHERE a.config_id = ci.id AND a.status = 'open'),
    'changes', (SELECT count(*) FROM config_changes c WHERE c.config_id = ci.id),
    'checks', (SELECT count(*) FROM check_config_relationships cr WHERE cr.config_id = ci.id AND cr.deleted_at IS NULL)
  ) AS summary
FROM config_items ci;

-- Distinct values, each read by skipping through an index (a loose index scan) rather than every row.
CREATE VIEW config_types AS
WITH RECURSIVE t(type) AS (
  SELECT min(type) FROM config_items WHERE deleted_at IS NULL
  UNION ALL
  SELECT (SELECT min(ci.type) FROM config_items ci WHERE ci.deleted_at IS NULL AND ci.type > t.type) FROM t WHERE t.type IS NOT NULL
)
SELECT type FROM t WHERE type IS NOT NULL;

CREATE VIEW change_types AS
WITH RECURSIVE t(change_type) AS (
  SELECT min(change_type) FROM config_changes
  UNION ALL
  SELECT (SELECT min(cc.change_type) FROM config_changes cc WHERE cc.change_type > t.change_type) FROM t WHERE t.change_type IS NOT NULL
)
SELECT change_type FROM t WHERE change_type IS NOT NULL;

CREATE VIEW config_statuses AS
SELECT DISTINCT status FROM config_items WHERE deleted_at IS NULL AND status IS NOT NULL;

CREATE VIEW config_analysis_analyzers AS
SELECT DISTINCT analyzer, analysis_type FROM config_analysis;

CREATE VIEW config_names AS
SELECT id, name, type, namespace, config_class, health, status, deleted_at FROM config_items;

CREATE VIEW config_tags AS
SELECT DISTINCT t.key, t.value FROM config_items ci, jsonb_each_text(ci.tags) t WHERE ci.deleted_at IS NULL;

CREATE VIEW config_labels AS
SELECT DISTINCT l.key, l.value FROM config_items ci, jsonb_each_text(ci.labels) l WHERE ci.deleted_at IS NULL;

-- Insights with the item they are about.
CREATE VIEW config_analysis_items AS
SELECT a.id, a.config_id, a.scraper_id, a.analyzer, a.message, a.summary, a.status, a.severity, a.analysis_type, a.analysis, a.source,
  a.first_observed, a.last_observed, ci.name AS config_name, ci.type AS config_type, ci.config_class, ci.tags AS config_tags,
  ci.health AS config_health, ci.deleted_at AS config_deleted_at,
  json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class, 'health', ci.health, 'status', ci.status) AS config
FROM config_analysis a JOIN config_items ci ON ci.id = a.config_id;

-- Changes and insights of the items linked to a component.
CREATE VIEW changes_by_component AS
SELECT r.component_id, c.id, c.config_id, c.config_type, c.change_type, c.severity, c.source, c.summary, c.count, c.first_observed, c.created_at,
  ci.name AS config_name, ci.type
FROM config_component_relationships r JOIN config_changes c ON c.config_id = r.config_id JOIN config_items ci ON ci.id = r.config_id
WHERE r.deleted_at IS NULL;

CREATE VIEW analysis_by_component AS
SELECT r.component_id, a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.status, a.message, a.first_observed, a.last_observed,
  ci.name AS config_name, ci.type AS config_type
FROM config_component_relationships r JOIN config_analysis a ON a.config_id = r.config_id JOIN config_items ci ON ci.id = r.config_id
WHERE r.deleted_at IS NULL;

CREATE FUNCTION lookup_analysis_by_component(component_id uuid)
RETURNS TABLE (id uuid, config_id uuid, analyzer text, analysis_type text, severity text, status text, message text, last_observed timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.status, a.message, a.last_observed
  FROM config_component_relationships r JOIN config_analysis a ON a.config_id = r.config_id
  WHERE r.component_id = lookup_analysis_by_component.component_id AND r.deleted_at IS NULL AND a.status = 'open'
  ORDER BY a.last_observed DESC
$$;

-- The items related to one item, up to max_depth (at most 10) steps away. Edges are the parent tree
-- (hard) and config_relationships (soft). type_filter: 'outgoing' (children and items it relates to),
-- 'incoming' (parents and items relating to it) or 'all'. incoming_relation / outgoing_relation: 'hard'
-- follows only the parent tree in that direction, 'both' follows both kinds. related_ids: the items
-- each row was reached from; depth and direction: the shortest way there.
CREATE FUNCTION related_configs_recursive(
  config_id uuid,
  type_filter text DEFAULT 'outgoing',
  include_deleted_configs boolean DEFAULT false,
  max_depth integer DEFAULT 5,
  incoming_relation text DEFAULT 'both',
  outgoing_relation text DEFAULT 'both'
) RETURNS TABLE (
  id uuid, name text, type text, related_ids text[], tags jsonb, changes bigint, analysis jsonb,
  cost_per_minute numeric(16, 4), cost_total_1d numeric(16, 4), cost_total_7d numeric(16, 4), cost_total_30d numeric(16, 4),
  created_at timestamptz, updated_at timestamptz, deleted_at timestamptz, agent_id uuid, health text, ready boolean, status text,
  path text, config_class text, namespace text, depth integer, direction text
) LANGUAGE sql STABLE AS $$
  WITH RECURSIVE walk(id, from_id, depth, direction) AS (
    SELECT related_configs_recursive.config_id, NULL::uuid, 0, 'self'
    UNION
    SELECT e.next_id, w.id, w.depth + 1, e.direction
    FROM walk w
    CROSS JOIN LATERAL (
      SELECT ci.id AS next_id, 'outgoing' AS direction FROM config_items ci
      WHERE w.direction IN ('self', 'outgoing') AND type_filter IN ('outgoing', 'all') AND ci.parent_id = w.id
      UNION ALL
      SELECT r.related_id, 'outgoing' FROM config_relationships r
      WHERE w.direction IN ('self', 'outgoing') AND type_filter IN ('outgoing', 'all') AND outgoing_relation <> 'hard'
        AND r.config_id = w.id AND r.deleted_at IS NULL
      UNION ALL
      SELECT ci.parent_id, 'incoming' FROM config_items ci
      WHERE w.direction IN ('self', 'incoming') AND type_filter IN ('incoming', 'all') AND ci.id = w.id AND ci.parent_id IS NOT NULL
      UNION ALL
      SELECT r.config_id, 'incoming' FROM config_relationships r
      WHERE w.direction IN ('self', 'incoming') AND type_filter IN ('incoming', 'all') AND incoming_relation <> 'hard'
        AND r.related_id = w.id AND r.deleted_at IS NULL
    ) e
    WHERE w.depth < least(greatest(coalesce(max_depth, 5), 1), 10)
  ),
  reached AS (
    SELECT w.id, min(w.depth) AS depth, (array_agg(w.direction ORDER BY w.depth))[1] AS direction,
      array_agg(DISTINCT w.from_id::text) AS related_ids
    FROM walk w WHERE w.id <> related_configs_recursive.config_id GROUP BY w.id
  )
  SELECT ci.id, ci.name, ci.type, r.related_ids, ci.tags,
    (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id AND cc.created_at > now() - interval '7 days'),
    (SELECT jsonb_object_agg(a.analysis_type, a.n) FROM (
       SELECT ca.analysis_type, count(*) AS n FROM config_analysis ca WHERE ca.config_id = ci.id AND ca.status = 'open' GROUP BY ca.analysis_type) a),
    ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d, ci.created_at, ci.updated_at, ci.deleted_at, ci.agent_id,
    ci.health, ci.ready, ci.status, ci.path, ci.config_class, ci.namespace, r.depth, r.direction
  FROM reached r JOIN config_items ci ON ci.id = r.id
  WHERE include_deleted_configs OR ci.deleted_at IS NULL
  ORDER BY r.depth, ci.type, ci.name
$$;

-- The ancestors of an item along its parent tree, root first.
CREATE FUNCTION get_parents_by_location(config_id uuid, alias_prefix text DEFAULT NULL, include_deleted boolean DEFAULT false)
RETURNS TABLE (id uuid, name text, type text) LANGUAGE sql STABLE AS $$
  WITH RECURSIVE up(id, depth) AS (
    SELECT ci.parent_id, 1 FROM config_items ci WHERE ci.id = get_parents_by_location.config_id AND ci.parent_id IS NOT NULL
    UNION ALL
    SELECT ci.parent_id, up.depth + 1 FROM up JOIN config_items ci ON ci.id = up.id WHERE ci.parent_id IS NOT NULL AND up.depth < 20
  )
  SELECT ci.id, ci.name, ci.type FROM up JOIN config_items ci ON ci.id = up.id
  WHERE (include_deleted OR ci.deleted_at IS NULL)
    AND (alias_prefix IS NULL OR alias_prefix = '' OR EXISTS (SELECT 1 FROM unnest(ci.external_id) e WHERE e LIKE alias_prefix || '%'))
  ORDER BY up.depth DESC
$$;
