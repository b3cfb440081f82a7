-- Connections, secrets and config maps (docs/CONNECTIONS.md). Every secret value is stored encrypted
-- (AES-256-GCM, `wk:1:<key id>:<base64>`) under a key that is not in the database, so a dump alone reveals
-- no secret. A field may instead hold a reference (`secret://name/key`, `configmap://name/key`) resolved in
-- the connection's namespace when it is used.

CREATE TABLE connections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default' CHECK (namespace <> ''),
  type text NOT NULL,
  url text,
  username text,
  password text,
  certificate text,
  insecure_tls boolean NOT NULL DEFAULT false,
  -- Type-specific extras (common/connections.ts): texts; secret ones encrypted like password.
  properties jsonb NOT NULL DEFAULT '{}'::jsonb,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  agent_id uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX connections_name_key ON connections (namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER connections_updated_at BEFORE UPDATE ON connections FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Kubernetes-shaped Secret and ConfigMap resources (apiVersion v1). `data` maps each key to its value:
-- encrypted for a Secret, as written for a ConfigMap.
CREATE TABLE secrets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('Secret', 'ConfigMap')),
  name text NOT NULL CHECK (name <> ''),
  namespace text NOT NULL DEFAULT 'default' CHECK (namespace <> ''),
  type text,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  labels jsonb NOT NULL DEFAULT '{}'::jsonb,
  source text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX secrets_name_key ON secrets (kind, namespace, name) WHERE deleted_at IS NULL;
CREATE TRIGGER secrets_updated_at BEFORE UPDATE ON secrets FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- Every change wakes the resolvers' caches of every instance (server/platform/secrets/store.ts).
CREATE FUNCTION notify_secret_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_ record;
BEGIN
  row_ := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
  PERFORM pg_notify('watchkeeper_secrets', TG_TABLE_NAME || ':' || row_.namespace || '/' || row_.name);
  IF TG_OP = 'UPDATE' AND (OLD.namespace <> NEW.namespace OR OLD.name <> NEW.name) THEN
    PERFORM pg_notify('watchkeeper_secrets', TG_TABLE_NAME || ':' || OLD.namespace || '/' || OLD.name);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER connections_notify AFTER INSERT OR UPDATE OR DELETE ON connections FOR EACH ROW EXECUTE FUNCTION notify_secret_change();
CREATE TRIGGER secrets_notify AFTER INSERT OR UPDATE OR DELETE ON secrets FOR EACH ROW EXECUTE FUNCTION notify_secret_change();

-- What reads show of a stored value: the mask for an encrypted one, a reference as written, and a URL
-- with the password of its user info masked.
CREATE FUNCTION shown_secret(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN NULL
              WHEN value LIKE 'wk:%' THEN '******'
              ELSE regexp_replace(value, '^([a-z][a-z0-9+.-]*://[^:/@\s]*):[^@/\s]+@', '\1:******@', 'i') END
$$;

CREATE VIEW connections_shown AS
  SELECT id, name, namespace, type, shown_secret(url) AS url, shown_secret(username) AS username, shown_secret(password) AS password,
         shown_secret(certificate) AS certificate, insecure_tls,
         (SELECT coalesce(jsonb_object_agg(key, CASE WHEN jsonb_typeof(item) = 'string' THEN to_jsonb(shown_secret(item #>> '{}')) ELSE item END), '{}'::jsonb)
            FROM jsonb_each(properties) AS p(key, item)) AS properties,
         labels, labels AS tags, source, agent_id, created_by, created_at, updated_at, deleted_at
  FROM connections;

-- Secrets list their keys only; config maps also their data (it is not secret).
CREATE VIEW secrets_shown AS
  SELECT id, name, namespace, type, ARRAY(SELECT jsonb_object_keys(data) ORDER BY 1) AS keys, labels, source, created_by, created_at, updated_at, deleted_at
  FROM secrets WHERE kind = 'Secret';

CREATE VIEW config_maps_shown AS
  SELECT id, name, namespace, ARRAY(SELECT jsonb_object_keys(data) ORDER BY 1) AS keys, data, labels, source, created_by, created_at, updated_at, deleted_at
  FROM secrets WHERE kind = 'ConfigMap';


-- Spec §3 Permission: summary rows carry the connection they name (id, name, namespace, type).
CREATE OR REPLACE VIEW permissions_summary AS
SELECT
  pm.id, pm.name, pm.namespace, pm.description, pm.action, pm.deny, pm.subject, pm.subject_type,
  pm.person_id, pm.team_id, pm.notification_id, pm.object, pm.object_selector, pm.config_id, pm.component_id,
  pm.canary_id, pm.playbook_id, pm.connection_id, pm.tags, pm.agents, pm.until, pm.source, pm.error,
  pm.created_by, pm.updated_by, pm.created_at, pm.updated_at, pm.deleted_at,
  CASE WHEN p.id IS NULL THEN NULL ELSE jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email, 'avatar', p.avatar) END AS person,
  CASE WHEN t.id IS NULL THEN NULL ELSE jsonb_build_object('id', t.id, 'name', t.name, 'icon', t.icon) END AS team,
  CASE WHEN pm.subject_type = 'group' THEN pm.subject END AS "group",
  CASE WHEN cb.id IS NULL THEN NULL ELSE jsonb_build_object('id', cb.id, 'name', cb.name) END AS created_by_person,
  CASE WHEN cn.id IS NULL THEN NULL ELSE jsonb_build_object('id', cn.id, 'name', cn.name, 'namespace', cn.namespace, 'type', cn.type) END AS connection_object
FROM permissions pm
LEFT JOIN people p ON p.id = pm.person_id
LEFT JOIN teams t ON t.id = pm.team_id
LEFT JOIN people cb ON cb.id = pm.created_by
LEFT JOIN connections cn ON cn.id = pm.connection_id;
