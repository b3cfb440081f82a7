-- Applications (docs/APPLICATIONS.md): kind Application (mission-control.flanksource.com/v1) and the access
-- data its audit report reads. The access tables follow Flanksource duty's names (external_users,
-- external_groups, external_user_groups, external_roles, config_access, config_access_logs, access_reviews)
-- so data written for Mission Control reads the same here.

CREATE TABLE applications (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default' CHECK (namespace <> ''),
  -- Read from the spec on save (spec.type, spec.description).
  type text NOT NULL DEFAULT '',
  description text,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- The document's spec as written.
  spec jsonb NOT NULL,
  source text NOT NULL DEFAULT 'UI',
  error text,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX applications_name_key ON applications (namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER applications_updated_at BEFORE UPDATE ON applications FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Users, groups and roles of external systems (an Azure tenant, a database, an SSO app), as scrapers or
-- admins record them. aliases: every id the source knows the entity by.
CREATE TABLE external_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  aliases text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  user_type text NOT NULL DEFAULT '',
  email text,
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX external_users_aliases_idx ON external_users USING gin (aliases);
CREATE TRIGGER external_users_updated_at BEFORE UPDATE ON external_users FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE external_groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  aliases text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  group_type text NOT NULL DEFAULT '',
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX external_groups_aliases_idx ON external_groups USING gin (aliases);
CREATE TRIGGER external_groups_updated_at BEFORE UPDATE ON external_groups FOR EACH ROW EXECUTE FUNCTION set_updated_at();

CREATE TABLE external_user_groups (
  external_user_id uuid NOT NULL REFERENCES external_users (id) ON DELETE CASCADE,
  external_group_id uuid NOT NULL REFERENCES external_groups (id) ON DELETE CASCADE,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (external_user_id, external_group_id)
);

CREATE TABLE external_roles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  aliases text[] NOT NULL DEFAULT '{}',
  name text NOT NULL,
  role_type text NOT NULL DEFAULT '',
  description text,
  spec jsonb,
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX external_roles_aliases_idx ON external_roles USING gin (aliases);
CREATE TRIGGER external_roles_updated_at BEFORE UPDATE ON external_roles FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Who holds access to a config item: a user or a group, optionally through a role. Upstream keys this on
-- the four ids; with nullable user and group we key on an id and keep the four unique among live rows.
CREATE TABLE config_access (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  external_user_id uuid REFERENCES external_users (id) ON DELETE CASCADE,
  external_group_id uuid REFERENCES external_groups (id) ON DELETE CASCADE,
  external_role_id uuid REFERENCES external_roles (id) ON DELETE CASCADE,
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  last_reviewed_at timestamptz,
  last_reviewed_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  deleted_by uuid REFERENCES people (id) ON DELETE SET NULL,
  CHECK (external_user_id IS NOT NULL OR external_group_id IS NOT NULL)
);
CREATE UNIQUE INDEX config_access_key ON config_access (
  config_id,
  coalesce(external_user_id, '00000000-0000-0000-0000-000000000000'),
  coalesce(external_group_id, '00000000-0000-0000-0000-000000000000'),
  coalesce(external_role_id, '00000000-0000-0000-0000-000000000000')
) WHERE deleted_at IS NULL;
CREATE INDEX config_access_user_idx ON config_access (external_user_id);

-- Logins and other uses of a config item by an external user: one row per user, config, role, client,
-- outcome and MFA per day, counted (count, first_observed, created_at the last time seen).
CREATE TABLE config_access_logs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  scraper_id uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  external_user_id uuid NOT NULL REFERENCES external_users (id) ON DELETE CASCADE,
  external_role_id uuid REFERENCES external_roles (id) ON DELETE CASCADE,
  client_ip text NOT NULL DEFAULT '',
  verb text,
  outcome text NOT NULL DEFAULT 'allowed',
  mfa boolean NOT NULL DEFAULT false,
  properties jsonb,
  count integer NOT NULL DEFAULT 1 CHECK (count >= 1),
  first_observed timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  inserted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_access_logs_config_time_idx ON config_access_logs (config_id, created_at DESC);
CREATE INDEX config_access_logs_user_idx ON config_access_logs (external_user_id);

-- An access review: someone confirmed (or revoked) a user's role on a config item.
CREATE TABLE access_reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  external_user_id uuid NOT NULL REFERENCES external_users (id) ON DELETE CASCADE,
  external_role_id uuid REFERENCES external_roles (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'approved',
  source text NOT NULL DEFAULT '',
  created_by uuid REFERENCES people (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_reviews_config_time_idx ON access_reviews (config_id, created_at DESC);
