-- Secrets in resource specs (spec §9 rule: no secret leaves the server): what /api/db answers for a
-- scraper shows ****** in place of every password, token, secret or key field and of the password of a
-- connection URL. Saving a spec with ****** where a secret was keeps the stored secret
-- (server/platform/peers/credentials.ts restoreSecrets), so the editor round-trips without seeing it.

CREATE FUNCTION redact_secrets(value jsonb) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb;
BEGIN
  CASE jsonb_typeof(value)
    WHEN 'object' THEN
      SELECT coalesce(jsonb_object_agg(key,
               CASE WHEN key ~* '^(password|passwd|token|secret|secretkey|secret_key|apikey|api_key|api-key|bearertoken|privatekey|private_key|accesskey|access_key)$'
                         AND jsonb_typeof(item) IN ('string', 'object', 'number')
                    THEN '"******"'::jsonb
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

CREATE VIEW config_scrapers_shown AS
  SELECT id, name, namespace, agent_id, description, labels, redact_secrets(spec) AS spec, schedule, source, created_by,
         next_run_at, last_run_at, created_at, updated_at, deleted_at
  FROM config_scrapers;
