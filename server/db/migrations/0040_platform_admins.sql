-- Hosted mode (issue 35, finding 10; docs/HOSTED.md "Platform administrators"): the people who manage the
-- organizations themselves (create, delete, set backends, list all, manage any organization's members).
-- A separate, explicit role: not an RBAC role (roles are per organization in hosted mode) and not a column
-- of `people`, which an organization's admins may edit through /api/db and Settings → Users. Only the
-- command line (`watchkeeper org platform-admin add|remove|list`), the first account of a console and this
-- migration write it. A table of the console's own: no organization_id, no tenant access.
CREATE TABLE platform_admins (
  person_id uuid PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Nothing an organization runs (its requests, workers, view SQL) reads or writes this table: the default
-- privileges of migration 0035 granted it to the tenant role, so they are taken back.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'watchkeeper_tenant') THEN
    REVOKE ALL ON platform_admins FROM watchkeeper_tenant;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'watchkeeper_view_reader') THEN
    REVOKE ALL ON platform_admins FROM watchkeeper_view_reader;
  END IF;
  REVOKE ALL ON platform_admins FROM PUBLIC;
END
$$;

-- The very first account of a console becomes its platform administrator, as it becomes its administrator
-- (the built-in sign-up and the first sign-in through the provider): a fresh hosted console can make its
-- first organization. Agents' accounts (type 'agent') never count.
CREATE OR REPLACE FUNCTION first_account_platform_admin() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM people WHERE id <> NEW.id AND type IS DISTINCT FROM 'agent') THEN
    INSERT INTO platform_admins (person_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
REVOKE ALL ON FUNCTION first_account_platform_admin() FROM PUBLIC;

CREATE TRIGGER first_account_platform_admin AFTER INSERT ON people
  FOR EACH ROW WHEN (NEW.type IS DISTINCT FROM 'agent') EXECUTE FUNCTION first_account_platform_admin();

-- An existing console: its first administrator (the earliest account that holds the admin role) keeps
-- managing the organizations; every other platform administrator is named on the command line.
INSERT INTO platform_admins (person_id)
SELECT p.id FROM people p
 WHERE p.deleted_at IS NULL AND p.type IS DISTINCT FROM 'agent'
   AND EXISTS (SELECT 1 FROM person_roles r WHERE r.person_id = p.id AND r.role = 'admin')
 ORDER BY p.created_at, p.id
 LIMIT 1;
