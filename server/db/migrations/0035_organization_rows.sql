-- Hosted mode (issue 25, docs/HOSTED.md "Row-level security"): organizations without a backend URL share
-- this database. Every table that holds an organization's data gets `organization_id` and a row-level
-- security policy for the role watchkeeper_tenant; the server switches a connection to that role, with
-- `watchkeeper.organization` set, for the work of one organization (server/platform/db/tenant.ts). The
-- role owns nothing, so the policies bind it; this server's own user (the owner) keeps seeing every row
-- for the workers that serve every organization and for the console without organizations, whose rows
-- have organization_id NULL.

CREATE OR REPLACE FUNCTION current_organization() RETURNS uuid
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT nullif(current_setting('watchkeeper.organization', true), '')::uuid
$$;

DO $$
BEGIN
  BEGIN
    CREATE ROLE watchkeeper_tenant NOLOGIN NOINHERIT NOBYPASSRLS;
  EXCEPTION
    WHEN duplicate_object OR unique_violation THEN NULL;
    -- A server user without CREATEROLE: organizations without a backend URL are then refused (docs/HOSTED.md).
    WHEN insufficient_privilege THEN RAISE NOTICE 'watchkeeper_tenant not created: %', SQLERRM;
  END;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'watchkeeper_tenant') THEN
    BEGIN
      EXECUTE format('GRANT watchkeeper_tenant TO %I', current_user);
    EXCEPTION
      WHEN duplicate_object OR unique_violation OR invalid_grant_operation OR insufficient_privilege THEN NULL;
    END;
    BEGIN
      GRANT watchkeeper_view_reader TO watchkeeper_tenant;
    EXCEPTION
      WHEN duplicate_object OR unique_violation OR invalid_grant_operation OR undefined_object OR insufficient_privilege THEN NULL;
    END;
    GRANT USAGE ON SCHEMA public TO watchkeeper_tenant;
    -- No TRUNCATE: it would skip the policies.
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO watchkeeper_tenant;
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO watchkeeper_tenant;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO watchkeeper_tenant;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO watchkeeper_tenant;
    BEGIN
      -- The server sets watchkeeper.actor and its own scope with set_config (migration 0021 revoked it from PUBLIC).
      GRANT EXECUTE ON FUNCTION pg_catalog.set_config(text, text, boolean) TO watchkeeper_tenant;
    EXCEPTION
      WHEN insufficient_privilege THEN RAISE NOTICE 'set_config not granted to watchkeeper_tenant: %', SQLERRM;
    END;
  END IF;
END
$$;

-- An organization's row: `organization_id` from the running scope, else from the row it belongs to (a worker
-- writing a check's result, a scraper's config item), through the table's foreign keys; NULL for the
-- console's own rows. One function per table, written from the catalog below.
CREATE OR REPLACE FUNCTION organization_rows(tbl text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  fk record;
  parents text := '';
BEGIN
  EXECUTE format('ALTER TABLE %I ADD COLUMN IF NOT EXISTS organization_id uuid DEFAULT current_organization()', tbl);
  EXECUTE format('ALTER TABLE %I ALTER COLUMN organization_id SET DEFAULT current_organization()', tbl);
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (organization_id) WHERE organization_id IS NOT NULL', tbl || '_organization_idx', tbl);
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS organization_rows ON %I', tbl);
  EXECUTE format('CREATE POLICY organization_rows ON %I TO watchkeeper_tenant USING (organization_id = current_organization()) WITH CHECK (organization_id = current_organization())', tbl);
  -- The parent rows, required columns first.
  FOR fk IN
    SELECT a.attname AS col, pt.relname AS parent, pa.attname AS parent_col
    FROM pg_constraint c
    JOIN pg_class t ON t.oid = c.conrelid
    JOIN pg_class pt ON pt.oid = c.confrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
    WHERE c.contype = 'f' AND array_length(c.conkey, 1) = 1 AND t.relname = tbl
      AND t.relnamespace = 'public'::regnamespace
      AND EXISTS (SELECT 1 FROM pg_attribute o WHERE o.attrelid = c.confrelid AND o.attname = 'organization_id' AND NOT o.attisdropped)
    ORDER BY a.attnotnull DESC, a.attnum
  LOOP
    parents := parents || format(
      '  IF NEW.organization_id IS NULL AND NEW.%1$I IS NOT NULL THEN SELECT organization_id INTO NEW.organization_id FROM %2$I WHERE %3$I = NEW.%1$I; END IF;' || chr(10),
      fk.col, fk.parent, fk.parent_col);
  END LOOP;
  IF parents <> '' THEN
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $t$' || chr(10) ||
      'BEGIN' || chr(10) || '%s  RETURN NEW;' || chr(10) || 'END $t$', tbl || '_organization', parents);
    EXECUTE format('DROP TRIGGER IF EXISTS organization_from_parent ON %I', tbl);
    EXECUTE format('CREATE TRIGGER organization_from_parent BEFORE INSERT ON %I FOR EACH ROW WHEN (NEW.organization_id IS NULL) EXECUTE FUNCTION %I()', tbl, tbl || '_organization');
  END IF;
END
$fn$;

-- Tables of the console itself (sign-in, sessions, organizations, schedulers' bookkeeping) stay shared;
-- people and their roles are scoped below by membership. Every other table is an organization's.
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
      AND c.relname NOT IN (
        'schema_migrations', 'identities', 'identity_addresses', 'identity_credential_identifiers',
        'identity_credentials', 'sessions', 'selfservice_errors', 'selfservice_flows', 'auth_rate_limits',
        'organizations', 'organization_members', 'oidc_sessions', 'front_signing_keys', 'rbac_version',
        'relation_counts', 'scheduled_jobs', 'job_instances', 'event_consumers', 'check_rollup_epoch',
        'people', 'person_roles')
    ORDER BY c.relname
  LOOP
    -- Parents first would find more parents, but a second pass below writes every trigger again anyway.
    PERFORM organization_rows(t);
  END LOOP;
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_policy p ON p.polrelid = c.oid AND p.polname = 'organization_rows'
    WHERE c.relnamespace = 'public'::regnamespace
  LOOP
    PERFORM organization_rows(t);
  END LOOP;
END
$$;

-- People: a member of the organization, or an account made inside it (an agent's, a service account).
ALTER TABLE people ADD COLUMN IF NOT EXISTS organization_id uuid DEFAULT current_organization();
ALTER TABLE people ENABLE ROW LEVEL SECURITY;
CREATE POLICY organization_rows ON people TO watchkeeper_tenant
  USING (organization_id = current_organization()
    OR EXISTS (SELECT 1 FROM organization_members m WHERE m.person_id = people.id AND m.organization_id = current_organization()))
  WITH CHECK (organization_id = current_organization()
    OR EXISTS (SELECT 1 FROM organization_members m WHERE m.person_id = people.id AND m.organization_id = current_organization()));
ALTER TABLE person_roles ENABLE ROW LEVEL SECURITY;
CREATE POLICY organization_rows ON person_roles TO watchkeeper_tenant
  USING (EXISTS (SELECT 1 FROM people p WHERE p.id = person_roles.person_id))
  WITH CHECK (EXISTS (SELECT 1 FROM people p WHERE p.id = person_roles.person_id));

-- Sign-in identities (one per person, same id): seen with their person.
ALTER TABLE identities ENABLE ROW LEVEL SECURITY;
CREATE POLICY organization_rows ON identities TO watchkeeper_tenant
  USING (EXISTS (SELECT 1 FROM people p WHERE p.id = identities.id))
  WITH CHECK (EXISTS (SELECT 1 FROM people p WHERE p.id = identities.id));

-- Exact counts kept by triggers for every organization together: an organization counts its own rows
-- (no policy, so it reads none and /api/db counts), and the triggers write as the owner.
ALTER TABLE relation_counts ENABLE ROW LEVEL SECURITY;
DO $$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
    AND p.proname IN ('relation_counts_add', 'relation_counts_subtract', 'relation_counts_reset')
  LOOP
    EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = public, pg_temp', f);
  END LOOP;
END
$$;

-- Views read with the reader's rights, so an organization sees through them only what its policies allow.
DO $$
DECLARE
  v text;
BEGIN
  FOR v IN SELECT viewname FROM pg_views WHERE schemaname = 'public' LOOP
    EXECUTE format('ALTER VIEW %I SET (security_invoker = true)', v);
  END LOOP;
END
$$;
