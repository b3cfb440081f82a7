-- Access data written by scrapers (docs/CATALOG.md, "Access and logins"): the key a scraper's login
-- records are counted under, as config-db keys them: one row per config item, user, role, client address,
-- outcome, MFA and source per UTC day. A scrape upserts on it, so reading the same logs again adds no rows.

-- Rows written before the key (through /api/db) that share one are merged first: counts added, the
-- latest time kept, the earliest first_observed kept.
WITH keyed AS (
  SELECT id, count, created_at, first_observed,
    first_value(id) OVER k AS keeper,
    sum(count) OVER (PARTITION BY config_id, external_user_id, coalesce(external_role_id, '00000000-0000-0000-0000-000000000000'::uuid), client_ip, outcome, mfa,
      coalesce(scraper_id, '00000000-0000-0000-0000-000000000000'::uuid), ((created_at AT TIME ZONE 'UTC')::date)) AS total,
    max(created_at) OVER (PARTITION BY config_id, external_user_id, coalesce(external_role_id, '00000000-0000-0000-0000-000000000000'::uuid), client_ip, outcome, mfa,
      coalesce(scraper_id, '00000000-0000-0000-0000-000000000000'::uuid), ((created_at AT TIME ZONE 'UTC')::date)) AS latest,
    min(coalesce(first_observed, created_at)) OVER (PARTITION BY config_id, external_user_id, coalesce(external_role_id, '00000000-0000-0000-0000-000000000000'::uuid), client_ip, outcome, mfa,
      coalesce(scraper_id, '00000000-0000-0000-0000-000000000000'::uuid), ((created_at AT TIME ZONE 'UTC')::date)) AS earliest
  FROM config_access_logs
  WINDOW k AS (PARTITION BY config_id, external_user_id, coalesce(external_role_id, '00000000-0000-0000-0000-000000000000'::uuid), client_ip, outcome, mfa,
    coalesce(scraper_id, '00000000-0000-0000-0000-000000000000'::uuid), ((created_at AT TIME ZONE 'UTC')::date) ORDER BY created_at DESC, id)
),
kept AS (
  UPDATE config_access_logs l SET count = keyed.total, created_at = keyed.latest, first_observed = keyed.earliest
  FROM keyed WHERE l.id = keyed.id AND keyed.id = keyed.keeper AND keyed.total <> keyed.count
)
DELETE FROM config_access_logs l USING keyed WHERE l.id = keyed.id AND keyed.id <> keyed.keeper;

CREATE UNIQUE INDEX config_access_logs_key ON config_access_logs (
  config_id,
  external_user_id,
  coalesce(external_role_id, '00000000-0000-0000-0000-000000000000'::uuid),
  client_ip,
  outcome,
  mfa,
  coalesce(scraper_id, '00000000-0000-0000-0000-000000000000'::uuid),
  ((created_at AT TIME ZONE 'UTC')::date)
);

-- A scraper's access rows are found by scraper when the ones it no longer reports are ended.
CREATE INDEX config_access_scraper_idx ON config_access (scraper_id) WHERE deleted_at IS NULL;
