-- Views (docs/RESOURCES.md#view): kind View (mission-control.flanksource.com/v1), the spec as written with the
-- columns the lists and the sidebar read beside it. The rows of a view live in its own table
-- `view_<namespace>_<name>`, made by the views engine (0021), not here.

CREATE TABLE views (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default' CHECK (namespace <> ''),
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The document's spec as written.
  spec jsonb NOT NULL,
  source text NOT NULL DEFAULT 'UI',
  -- Read from the spec on save: display.title ('' when unset), display.icon, display.ordinal,
  -- display.sidebar, and whether spec.mcp offers the view to LLM clients.
  title text NOT NULL DEFAULT '',
  icon text,
  ordinal integer,
  sidebar boolean NOT NULL DEFAULT false,
  mcp boolean NOT NULL DEFAULT false,
  error text,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX views_name_key ON views (namespace, name) WHERE deleted_at IS NULL;
-- The sidebar's entries, in their order.
CREATE INDEX views_sidebar_idx ON views (ordinal, title) WHERE sidebar AND deleted_at IS NULL;

CREATE TRIGGER views_updated_at BEFORE UPDATE ON views FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- The list of views (/settings/views, the sidebar): the row without its spec. last_ran is NULL here: the
-- views engine (0021) replaces this view (CREATE OR REPLACE, same columns) with last_ran read from
-- view_refreshes (max refreshed_at).
CREATE VIEW views_summary AS
  SELECT v.id, v.name, v.namespace, v.title, v.icon, v.ordinal, v.sidebar, v.mcp, v.labels, v.source, v.error,
         coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(v.spec -> 'columns') = 'array' THEN v.spec -> 'columns' END), 0) AS column_count,
         coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(v.spec -> 'panels') = 'array' THEN v.spec -> 'panels' END), 0) AS panel_count,
         (SELECT count(*)::integer FROM jsonb_object_keys(CASE WHEN jsonb_typeof(v.spec -> 'queries') = 'object' THEN v.spec -> 'queries' ELSE '{}'::jsonb END)) AS query_count,
         v.created_by, v.created_at, v.updated_at,
         NULL::timestamptz AS last_ran
    FROM views v
   WHERE v.deleted_at IS NULL;
