-- The views engine (docs/VIEWS.md): one row per (view, variable set) materialised into the view's own
-- table `view_<namespace>_<name>` (created by the engine, not here), its panels' results, and the lease
-- that lets one instance at a time refresh it.
CREATE TABLE view_refreshes (
  view_id uuid NOT NULL REFERENCES views (id) ON DELETE CASCADE,
  -- sha256 of the sorted variables: the rows of this set carry it in their request_fingerprint column.
  request_fingerprint text NOT NULL,
  variables jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The last refresh that wrote rows; NULL until one did.
  refreshed_at timestamptz,
  -- The last refresh tried, successful or not.
  attempted_at timestamptz,
  duration_ms integer,
  row_count integer,
  -- The last refresh's error (the rows are then those of the last good refresh, if any).
  error text,
  -- [{name, rows, error?}] of the panels, computed with the rows.
  panels jsonb NOT NULL DEFAULT '[]'::jsonb,
  lease_owner text,
  lease_until timestamptz,
  PRIMARY KEY (view_id, request_fingerprint)
);
CREATE INDEX view_refreshes_refreshed_idx ON view_refreshes (view_id, refreshed_at DESC);

-- Panel and merge SQL runs as this role, in a READ ONLY transaction whose only readable tables are the
-- TEMP tables holding the view's query results (granted per run): it cannot read or change any real table.
-- Roles belong to the cluster, which several databases may share (tests): a concurrent or earlier
-- creation is not an error.
DO $$
BEGIN
  BEGIN
    CREATE ROLE watchkeeper_view_reader NOLOGIN NOINHERIT;
  EXCEPTION
    WHEN duplicate_object OR unique_violation THEN NULL;
    -- A server user without CREATEROLE: panels then answer that the role is missing (docs/VIEWS.md).
    WHEN insufficient_privilege THEN RAISE NOTICE 'watchkeeper_view_reader not created: %', SQLERRM;
  END;
  BEGIN
    EXECUTE format('GRANT watchkeeper_view_reader TO %I', current_user);
  EXCEPTION
    WHEN duplicate_object OR unique_violation OR invalid_grant_operation OR undefined_object OR insufficient_privilege THEN NULL;
  END;
  -- set_config could SET ROLE back to this server's user: only this user may call it (superusers may anyway).
  BEGIN
    REVOKE EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) FROM PUBLIC;
    EXECUTE format('GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) TO %I', current_user);
  EXCEPTION
    WHEN insufficient_privilege THEN RAISE NOTICE 'set_config not revoked from PUBLIC: %', SQLERRM;
  END;
END
$$;

-- SQLite's json_extract (Mission Control runs merge and panel SQL on SQLite), so its fixtures run here:
-- json_extract(doc, '$.a.b[0].c') gives the value there as text (NULL when missing).
CREATE OR REPLACE FUNCTION json_extract(doc jsonb, path text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(v) IN ('object', 'array') THEN v::text ELSE v #>> '{}' END
  FROM (SELECT doc #> ARRAY(
    SELECT coalesce(m[1], m[2])
    FROM regexp_matches(regexp_replace(path, '^\$\.?', ''), '([^.\[\]]+)|\[(\d+)\]', 'g') AS m
  ) AS v) s
$$;
CREATE OR REPLACE FUNCTION json_extract(doc text, path text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT json_extract(doc::jsonb, path) $$;

-- views_summary (0020) with last_ran: the latest refresh that wrote rows, of any variable set.
CREATE OR REPLACE VIEW views_summary AS
  SELECT v.id, v.name, v.namespace, v.title, v.icon, v.ordinal, v.sidebar, v.mcp, v.labels, v.source, v.error,
         coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(v.spec -> 'columns') = 'array' THEN v.spec -> 'columns' END), 0) AS column_count,
         coalesce(jsonb_array_length(CASE WHEN jsonb_typeof(v.spec -> 'panels') = 'array' THEN v.spec -> 'panels' END), 0) AS panel_count,
         (SELECT count(*)::integer FROM jsonb_object_keys(CASE WHEN jsonb_typeof(v.spec -> 'queries') = 'object' THEN v.spec -> 'queries' ELSE '{}'::jsonb END)) AS query_count,
         v.created_by, v.created_at, v.updated_at,
         (SELECT max(r.refreshed_at) FROM view_refreshes r WHERE r.view_id = v.id) AS last_ran
    FROM views v
   WHERE v.deleted_at IS NULL;
