-- Hosted mode (docs/HOSTED.md "Row-level security"): a row written in an organization's scope may name, in
-- a foreign key, only a row of its own organization or of the console itself (organization_id NULL).
-- PostgreSQL checks foreign keys past the row-level security policies, so without this Globex could file a
-- comment under Acme's incident id. The answer is PostgreSQL's own foreign key error, the same as for an id
-- that does not exist, so it tells nothing of the other organization's rows. People are left out as parents:
-- they are shared by membership, not owned by one organization.
--
-- organization_rows(tbl) (migration 0035) gains the check, and is run again on every organization table;
-- view tables get it when they are made (server/features/views/engine/table.ts).

CREATE OR REPLACE FUNCTION organization_rows(tbl text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  fk record;
  parents text := '';
  checks text := '';
BEGIN
  EXECUTE format('ALTER TABLE %I ADD COLUMN IF NOT EXISTS organization_id uuid DEFAULT current_organization()', tbl);
  EXECUTE format('ALTER TABLE %I ALTER COLUMN organization_id SET DEFAULT current_organization()', tbl);
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (organization_id) WHERE organization_id IS NOT NULL', tbl || '_organization_idx', tbl);
  EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS organization_rows ON %I', tbl);
  EXECUTE format('CREATE POLICY organization_rows ON %I TO watchkeeper_tenant USING (organization_id = current_organization()) WITH CHECK (organization_id = current_organization())', tbl);
  -- The parent rows, required columns first.
  FOR fk IN
    SELECT a.attname AS col, pt.relname AS parent, pa.attname AS parent_col, c.conname
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
    CONTINUE WHEN fk.parent = 'people';
    checks := checks || format(
      '  IF NEW.%1$I IS NOT NULL THEN' || chr(10) ||
      '    IF TG_OP = ''UPDATE'' THEN same := NEW.%1$I IS NOT DISTINCT FROM OLD.%1$I; ELSE same := false; END IF;' || chr(10) ||
      '    IF NOT same THEN' || chr(10) ||
      '      SELECT organization_id INTO owner FROM %2$I WHERE %3$I = NEW.%1$I;' || chr(10) ||
      '      IF owner IS NOT NULL AND owner IS DISTINCT FROM NEW.organization_id THEN' || chr(10) ||
      '        RAISE foreign_key_violation USING MESSAGE = %4$L, DETAIL = %5$L || NEW.%1$I::text || %6$L, CONSTRAINT = %7$L, TABLE = %8$L, SCHEMA = ''public'';' || chr(10) ||
      '      END IF;' || chr(10) ||
      '    END IF;' || chr(10) ||
      '  END IF;' || chr(10),
      fk.col, fk.parent, fk.parent_col,
      format('insert or update on table "%s" violates foreign key constraint "%s"', tbl, fk.conname),
      format('Key (%s)=(', fk.col), format(') is not present in table "%s".', fk.parent),
      fk.conname, tbl);
  END LOOP;
  IF parents <> '' THEN
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $t$' || chr(10) ||
      'BEGIN' || chr(10) || '%s  RETURN NEW;' || chr(10) || 'END $t$', tbl || '_organization', parents);
    EXECUTE format('DROP TRIGGER IF EXISTS organization_from_parent ON %I', tbl);
    EXECUTE format('CREATE TRIGGER organization_from_parent BEFORE INSERT ON %I FOR EACH ROW WHEN (NEW.organization_id IS NULL) EXECUTE FUNCTION %I()', tbl, tbl || '_organization');
  END IF;
  IF checks <> '' THEN
    -- Runs after organization_from_parent (triggers fire in name order), only in an organization's scope.
    EXECUTE format(
      'CREATE OR REPLACE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $t$' || chr(10) ||
      'DECLARE' || chr(10) || '  same boolean;' || chr(10) || '  owner uuid;' || chr(10) ||
      'BEGIN' || chr(10) || '%s  RETURN NEW;' || chr(10) || 'END $t$', tbl || '_same_organization', checks);
    EXECUTE format('DROP TRIGGER IF EXISTS organization_same_parent ON %I', tbl);
    EXECUTE format('CREATE TRIGGER organization_same_parent BEFORE INSERT OR UPDATE ON %I FOR EACH ROW WHEN (current_organization() IS NOT NULL) EXECUTE FUNCTION %I()', tbl, tbl || '_same_organization');
  END IF;
END
$fn$;

DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT c.relname FROM pg_class c JOIN pg_policy p ON p.polrelid = c.oid AND p.polname = 'organization_rows'
    WHERE c.relnamespace = 'public'::regnamespace
      -- Tables with the policy of organization_rows() only (people, person_roles and identities have their own).
      AND pg_get_expr(p.polqual, p.polrelid) = '(organization_id = current_organization())'
      AND c.relname NOT IN ('people', 'person_roles', 'identities')
  LOOP
    PERFORM organization_rows(t);
  END LOOP;
END
$$;

-- A member added to a team that does not exist (or that this organization cannot see) gets the foreign key's
-- answer, not 'the team "<NULL>" comes from <NULL>'.
CREATE OR REPLACE FUNCTION team_members_source() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  team_name text;
  team_source text;
BEGIN
  SELECT name, source INTO team_name, team_source FROM teams WHERE id = coalesce(NEW.team_id, OLD.team_id);
  IF FOUND AND team_source IS DISTINCT FROM 'UI' AND coalesce(current_setting('watchkeeper.applying', true), '') <> 'on' THEN
    RAISE EXCEPTION 'the team "%" comes from %: change its members there', team_name, team_source USING ERRCODE = 'check_violation';
  END IF;
  RETURN coalesce(NEW, OLD);
END $$;
