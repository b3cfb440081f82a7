-- Secrets in canary specs, as 0009 did for scrapers (spec §9 rule: no secret leaves the server): what
-- /api/db answers for a canary or a check shows ****** in place of every secret. Saving a canary with
-- ****** where a secret was keeps the stored secret (server/features/health/canaries.ts saveCanary).
-- Also the scrapers list's summary view (at the end).

-- A name that says its value is a secret: an http header (Authorization, X-Api-Key), an environment
-- variable (DB_PASSWORD, GITHUB_TOKEN).
CREATE FUNCTION is_secret_name(name text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT name ~* '(authorization|password|passwd|token|secret|api[-_]?key|private[-_]?key|access[-_]?key|credential)'
$$;

-- redact_secrets, now also for what canary specs hold besides 0009's fields: prometheus's `bearer`, the
-- `key` beside a `cert` (tlsConfig), and the value of a `{name, value}` entry (http headers, exec env) or
-- of a map entry `NAME: {value}` (spec.env) whose name is a secret's.
CREATE OR REPLACE FUNCTION redact_secrets(value jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'object' THEN
      SELECT coalesce(jsonb_object_agg(key,
               CASE WHEN (key ~* '^(password|passwd|token|secret|secretkey|secret_key|apikey|api_key|api-key|bearer|bearertoken|privatekey|private_key|accesskey|access_key)$'
                          OR (key = 'key' AND value ? 'cert')
                          OR (key = 'value' AND jsonb_typeof(value -> 'name') = 'string' AND is_secret_name(value ->> 'name')))
                         AND jsonb_typeof(item) IN ('string', 'object', 'number')
                    THEN '"******"'::jsonb
                    -- Only the value: `env: {DB_PASSWORD: {value: ******}}` is still a valid spec to validate.
                    WHEN jsonb_typeof(item) = 'object' AND jsonb_typeof(item -> 'value') IN ('string', 'number') AND is_secret_name(key)
                    THEN redact_secrets(item) || '{"value": "******"}'::jsonb
                    ELSE redact_secrets(item) END), '{}'::jsonb)
        INTO result FROM jsonb_each(value) AS entry(key, item);
      RETURN result;
    WHEN 'array' THEN
      SELECT coalesce(jsonb_agg(redact_secrets(item) ORDER BY position), '[]'::jsonb)
        INTO result FROM jsonb_array_elements(value) WITH ORDINALITY AS element(item, position);
      RETURN result;
    WHEN 'string' THEN
      -- scheme://user:password@host… → scheme://user:******@host…
      RETURN to_jsonb(regexp_replace(value #>> '{}', '^([a-z][a-z0-9+.-]*://[^:/@\s]*):[^@/\s]+@', '\1:******@', 'i'));
    ELSE
      RETURN value;
  END CASE;
END
$$;

CREATE VIEW canaries_shown AS
  SELECT id, name, namespace, agent_id, labels, redact_secrets(spec) AS spec, schedule, source, created_by, next_run_at, last_run_at,
         created_at, updated_at, deleted_at
  FROM canaries;

-- A check's spec is its part of the canary spec (the Spec tab of a check reads it).
CREATE VIEW checks_shown AS
  SELECT id, canary_id, canary_name, canary_namespace, agent_id, key, type, name, namespace, description, icon, endpoint, labels, owner,
         severity, redact_secrets(spec) AS spec, transformed_from, status, last_runtime, last_pass, last_fail, last_transition_time,
         next_runtime, created_at, updated_at, deleted_at
  FROM checks_view;

-- The scrapers list (/catalog/scrapers) in one read: each scraper (secrets masked) with its latest run in
-- job history and how many live items it has, instead of two requests per row.
CREATE VIEW config_scrapers_summary AS
  SELECT s.id, s.name, s.namespace, s.agent_id, s.description, s.labels, s.spec, s.schedule, s.source, s.created_by, s.next_run_at,
         s.last_run_at, s.created_at, s.updated_at, s.deleted_at,
         last_job.status AS last_job_status, last_job.time_start AS last_job_time, last_job.error_count AS last_job_error_count,
         (SELECT count(*) FROM config_items ci WHERE ci.scraper_id = s.id AND ci.deleted_at IS NULL) AS item_count
  FROM config_scrapers_shown s
  LEFT JOIN LATERAL (
    SELECT jh.status, jh.time_start, jh.error_count FROM job_history jh
    WHERE jh.resource_id = s.id::text AND jh.resource_type = 'config_scraper'
    ORDER BY jh.time_start DESC LIMIT 1
  ) last_job ON true;
