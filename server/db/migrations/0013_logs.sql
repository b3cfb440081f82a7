-- Logs (docs/LOGS.md): log backends say where log lines are read from (files on this server, by path or
-- glob) and which topology components they belong to; POST /api/logs searches them.

CREATE TABLE logging_backends (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default',
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- {files: [{paths: [glob, ...], labels}], components: [{name, type, labels}]}
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX logging_backends_name_key ON logging_backends (namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER logging_backends_updated_at BEFORE UPDATE ON logging_backends FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Does one of a backend's component selectors ({name (`*` wildcards), type, labels}) match the component?
CREATE FUNCTION log_selector_matches(selectors jsonb, c components) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(selectors) = 'array' THEN selectors ELSE '[]'::jsonb END) s
    WHERE (s->>'name' IS NULL OR c.name LIKE replace(replace(replace(replace(s->>'name', '\', '\\'), '%', '\%'), '_', '\_'), '*', '%'))
      AND (s->>'type' IS NULL OR c.type = s->>'type')
      AND (s->'labels' IS NULL OR c.labels @> (s->'labels'))
  )
$$;

-- Spec §7 /components_with_logs: the components some backend's selectors name, with those backends.
CREATE VIEW components_with_logs AS
SELECT c.id, c.name, c.type, c.icon, c.topology_id, c.health,
  jsonb_agg(jsonb_build_object('id', b.id, 'name', b.name) ORDER BY b.name) AS logs
FROM components c
JOIN logging_backends b ON b.deleted_at IS NULL AND log_selector_matches(b.spec->'components', c)
WHERE c.deleted_at IS NULL
GROUP BY c.id;
