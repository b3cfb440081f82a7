-- Identity and access: identities with their credentials, self-service flows, sessions, roles, teams,
-- permission rows and API tokens. Credentials, session tokens and token hashes live in tables that
-- /api/db never exposes (server/postgrest/relations/identity.ts lists what it does expose).

-- An identity is the sign-in side of a person: same id as people.id.
CREATE TABLE identities (
  id uuid PRIMARY KEY REFERENCES people (id) ON DELETE CASCADE,
  schema_id text NOT NULL DEFAULT 'default',
  state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'inactive')),
  state_changed_at timestamptz NOT NULL DEFAULT now(),
  -- {email, name: {first, last}} (docs/AUTH.md: the identity schema)
  traits jsonb NOT NULL,
  metadata_public jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per credential type of an identity: password {hashed_password}, totp {secret},
-- lookup_secret {codes: [{hash, used_at}]}, webauthn and passkey {credentials: [...]}.
CREATE TABLE identity_credentials (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('password', 'totp', 'lookup_secret', 'webauthn', 'passkey')),
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (identity_id, type)
);

-- What a credential is found by: the lower-cased email for passwords, the credential id for passkeys.
CREATE TABLE identity_credential_identifiers (
  type text NOT NULL,
  identifier text NOT NULL,
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  PRIMARY KEY (type, identifier)
);
CREATE INDEX identity_credential_identifiers_identity_idx ON identity_credential_identifiers (identity_id);

-- Email addresses: verifiable (verified, status) and used for recovery.
CREATE TABLE identity_addresses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  via text NOT NULL DEFAULT 'email',
  value text NOT NULL,
  verified boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'completed')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX identity_addresses_value_key ON identity_addresses (via, lower(value));
CREATE INDEX identity_addresses_identity_idx ON identity_addresses (identity_id);

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  identity_id uuid NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
  -- sha256 of the session token; the token itself is only ever in the cookie or the client's hands.
  token_hash text NOT NULL UNIQUE,
  active boolean NOT NULL DEFAULT true,
  aal text NOT NULL DEFAULT 'aal1' CHECK (aal IN ('aal1', 'aal2')),
  authentication_methods jsonb NOT NULL DEFAULT '[]'::jsonb,
  authenticated_at timestamptz NOT NULL DEFAULT now(),
  issued_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ip_address text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_identity_idx ON sessions (identity_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Self-service flows (login, registration, recovery, verification, settings), as Ory Kratos keeps them:
-- `ui` is what the client renders; `internal` is server-only state (challenges, code hashes, attempts).
CREATE TABLE selfservice_flows (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('login', 'registration', 'recovery', 'verification', 'settings')),
  type text NOT NULL CHECK (type IN ('browser', 'api')),
  state text NOT NULL,
  identity_id uuid REFERENCES identities (id) ON DELETE CASCADE,
  session_id uuid REFERENCES sessions (id) ON DELETE CASCADE,
  csrf_token text NOT NULL DEFAULT '',
  return_to text,
  request_url text NOT NULL,
  requested_aal text,
  refresh boolean NOT NULL DEFAULT false,
  ui jsonb NOT NULL,
  internal jsonb NOT NULL DEFAULT '{}'::jsonb,
  issued_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX selfservice_flows_expires_idx ON selfservice_flows (expires_at);

-- Errors a browser was redirected to (GET /self-service/errors?id=).
CREATE TABLE selfservice_errors (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  error jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX selfservice_errors_created_idx ON selfservice_errors (created_at);

-- Sliding-window counters for sign-in and code attempts (per identifier and per client address), kept in
-- the database so that every instance sees the same counts.
CREATE TABLE auth_rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);

-- Spec §6 roles of a person.
CREATE TABLE person_roles (
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer', 'guest', 'commander', 'responder')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (person_id, role)
);

CREATE TABLE teams (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  icon text NOT NULL DEFAULT 'group',
  spec jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_name_key ON teams (lower(name)) WHERE deleted_at IS NULL;

CREATE TABLE team_members (
  team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_idx ON team_members (person_id);

-- Members of a team applied from a file or the cluster change only through that source (`apply`
-- sets watchkeeper.applying for its transaction), like the team itself.
CREATE FUNCTION team_members_source() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  team_name text;
  team_source text;
BEGIN
  SELECT name, source INTO team_name, team_source FROM teams WHERE id = coalesce(NEW.team_id, OLD.team_id);
  IF team_source IS DISTINCT FROM 'UI' AND coalesce(current_setting('watchkeeper.applying', true), '') <> 'on' THEN
    RAISE EXCEPTION 'the team "%" comes from %: change its members there', team_name, team_source USING ERRCODE = 'check_violation';
  END IF;
  RETURN coalesce(NEW, OLD);
END $$;
CREATE TRIGGER team_members_source BEFORE INSERT OR UPDATE OR DELETE ON team_members FOR EACH ROW EXECUTE FUNCTION team_members_source();

-- Permission rows (spec §3 Permission): who (person, team, group = a role, notification, playbook) may
-- or may not (deny) do what (action) on what (a global object, one resource by id, or a selector).
-- Resource columns carry no foreign keys: the tables they name belong to later features.
CREATE TABLE permissions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text,
  namespace text,
  description text,
  action text NOT NULL CHECK (action <> ''),
  deny boolean NOT NULL DEFAULT false,
  subject text NOT NULL CHECK (subject <> ''),
  subject_type text NOT NULL CHECK (subject_type IN ('person', 'team', 'group', 'notification', 'playbook')),
  person_id uuid REFERENCES people (id) ON DELETE CASCADE,
  team_id uuid REFERENCES teams (id) ON DELETE CASCADE,
  notification_id uuid,
  object text,
  object_selector jsonb,
  config_id uuid,
  component_id uuid,
  canary_id uuid,
  playbook_id uuid,
  connection_id uuid,
  tags jsonb,
  agents text[],
  until timestamptz,
  source text NOT NULL DEFAULT 'UI',
  error text,
  created_by uuid REFERENCES people (id),
  updated_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  -- A permission names exactly what it is about: an object, one resource, or a selector.
  CONSTRAINT permissions_target CHECK (
    object IS NOT NULL OR object_selector IS NOT NULL OR config_id IS NOT NULL OR component_id IS NOT NULL
    OR canary_id IS NOT NULL OR playbook_id IS NOT NULL OR connection_id IS NOT NULL
  )
);
CREATE INDEX permissions_person_idx ON permissions (person_id) WHERE deleted_at IS NULL;
CREATE INDEX permissions_team_idx ON permissions (team_id) WHERE deleted_at IS NULL;
CREATE INDEX permissions_created_idx ON permissions (created_at DESC);
CREATE INDEX permissions_group_idx ON permissions (subject) WHERE subject_type = 'group' AND deleted_at IS NULL;

-- API tokens: only a sha256 of the token is kept; the owner is the person the token acts for.
CREATE TABLE access_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  hash text NOT NULL UNIQUE,
  scopes jsonb NOT NULL DEFAULT '[]'::jsonb,
  expires_at timestamptz,
  last_used_at timestamptz,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX access_tokens_person_idx ON access_tokens (person_id) WHERE deleted_at IS NULL;

CREATE TRIGGER identities_updated_at BEFORE UPDATE ON identities FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER identity_credentials_updated_at BEFORE UPDATE ON identity_credentials FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER identity_addresses_updated_at BEFORE UPDATE ON identity_addresses FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER sessions_updated_at BEFORE UPDATE ON sessions FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER selfservice_flows_updated_at BEFORE UPDATE ON selfservice_flows FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER teams_updated_at BEFORE UPDATE ON teams FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER permissions_updated_at BEFORE UPDATE ON permissions FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Every instance keeps the permission rows in memory and checks this version on each request: a change
-- to any row bumps it in the same transaction, so the next request anywhere sees the change.
CREATE TABLE rbac_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO rbac_version (version) VALUES (1);

CREATE FUNCTION bump_rbac_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE rbac_version SET version = version + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER permissions_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_rbac_version();

-- Person and team subjects: `subject` holds the id, and person_id or team_id the same id (with its
-- foreign key), whichever of the two a client sent.
CREATE FUNCTION permissions_subject() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subject_type = 'person' THEN
    IF NEW.person_id IS NULL OR (TG_OP = 'UPDATE' AND NEW.subject IS DISTINCT FROM OLD.subject AND NEW.person_id IS NOT DISTINCT FROM OLD.person_id) THEN
      NEW.person_id := NULLIF(NEW.subject, '')::uuid;
    END IF;
    NEW.subject := NEW.person_id::text;
    NEW.team_id := NULL;
  ELSIF NEW.subject_type = 'team' THEN
    IF NEW.team_id IS NULL OR (TG_OP = 'UPDATE' AND NEW.subject IS DISTINCT FROM OLD.subject AND NEW.team_id IS NOT DISTINCT FROM OLD.team_id) THEN
      NEW.team_id := NULLIF(NEW.subject, '')::uuid;
    END IF;
    NEW.subject := NEW.team_id::text;
    NEW.person_id := NULL;
  ELSE
    NEW.person_id := NULL;
    NEW.team_id := NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER permissions_subject BEFORE INSERT OR UPDATE ON permissions FOR EACH ROW EXECUTE FUNCTION permissions_subject();

-- The Users page: people who can sign in, with their roles and teams.
CREATE VIEW people_roles AS
SELECT
  p.id, p.name, p.email, p.avatar, p.last_login, p.created_at, p.updated_at, p.deleted_at,
  i.state, i.state_changed_at,
  coalesce((SELECT array_agg(r.role ORDER BY r.role) FROM person_roles r WHERE r.person_id = p.id), '{}') AS roles,
  coalesce((
    SELECT jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name) ORDER BY t.name)
    FROM team_members tm JOIN teams t ON t.id = tm.team_id AND t.deleted_at IS NULL
    WHERE tm.person_id = p.id
  ), '[]'::jsonb) AS teams
FROM people p
JOIN identities i ON i.id = p.id;

-- Teams with their member count, for the Teams list.
CREATE VIEW teams_summary AS
SELECT t.id, t.name, t.icon, t.spec, t.source, t.created_by, t.created_at, t.updated_at, t.deleted_at,
  (SELECT count(*) FROM team_members tm JOIN people p ON p.id = tm.person_id AND p.deleted_at IS NULL WHERE tm.team_id = t.id) AS members
FROM teams t;

-- The Permissions page (spec §3: summary rows carry their subject's person, team and group). Later
-- features replace this view to add the config, component, playbook and connection they name.
CREATE VIEW permissions_summary AS
SELECT
  pm.id, pm.name, pm.namespace, pm.description, pm.action, pm.deny, pm.subject, pm.subject_type,
  pm.person_id, pm.team_id, pm.notification_id, pm.object, pm.object_selector, pm.config_id, pm.component_id,
  pm.canary_id, pm.playbook_id, pm.connection_id, pm.tags, pm.agents, pm.until, pm.source, pm.error,
  pm.created_by, pm.updated_by, pm.created_at, pm.updated_at, pm.deleted_at,
  CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email, 'avatar', p.avatar) END AS person,
  CASE WHEN t.id IS NULL THEN NULL ELSE jsonb_build_object('id', t.id, 'name', t.name, 'icon', t.icon) END AS team,
  CASE WHEN pm.subject_type = 'group' THEN pm.subject END AS "group",
  CASE WHEN cb.id IS NULL THEN NULL ELSE jsonb_build_object('id', cb.id, 'name', cb.name) END AS created_by_person
FROM permissions pm
LEFT JOIN people p ON p.id = pm.person_id
LEFT JOIN teams t ON t.id = pm.team_id
LEFT JOIN people cb ON cb.id = pm.created_by;

-- API tokens without their hash, for the Tokens page.
CREATE VIEW access_tokens_summary AS
SELECT tk.id, tk.name, tk.person_id, tk.scopes, tk.expires_at, tk.last_used_at, tk.created_by, tk.created_at, tk.deleted_at,
  jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) AS person
FROM access_tokens tk
JOIN people p ON p.id = tk.person_id;
