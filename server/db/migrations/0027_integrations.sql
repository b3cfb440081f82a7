-- Integrations (docs/INTEGRATIONS.md, spec §2 /settings/integrations, §7 /integrations_with_status): one row
-- per scraper, topology, canary (a check source), connection, notification channel and log backend, with
-- its health and its last run. Types are named as Mission Control names them ('scrapers', 'topologies',
-- 'logging_backends') plus this console's 'canaries', 'connections' and 'notifications'.
--
-- The last run is the latest finished job_history row of the resource (job_history_resource_idx:
-- resource_id, time_start DESC), for notifications their latest send. Health:
--   scrapers, topologies: the last run's status (SUCCESS healthy, WARNING warning, FAILED unhealthy);
--   canaries: their checks (any unhealthy check: unhealthy; all healthy: healthy), else the last run;
--   notifications: the rule's last error or the last send's error (unhealthy), a successful send (healthy);
--   connections, log backends: unknown (nothing runs them on their own).
-- Nothing secret is read: connections give only name, namespace and type (never url or credentials).

CREATE VIEW integrations_with_status AS
WITH combined AS (
  SELECT s.id, s.name, s.namespace, s.description, 'scrapers'::text AS integration_type,
         (SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(s.spec) k
           WHERE jsonb_typeof(s.spec -> k) = 'array') AS type,
         s.source, s.agent_id, s.labels, s.created_by, s.created_at, s.updated_at, s.deleted_at,
         NULL::text AS own_health, NULL::text AS own_error, s.last_run_at AS own_last_run
    FROM config_scrapers s
  UNION ALL
  SELECT t.id, t.name, t.namespace, NULL, 'topologies', t.spec ->> 'type',
         t.source, t.agent_id, t.labels, t.created_by, t.created_at, t.updated_at, t.deleted_at,
         NULL, NULL, t.last_run_at
    FROM topologies t
  UNION ALL
  SELECT c.id, c.name, c.namespace, NULL, 'canaries',
         (SELECT string_agg(DISTINCT ch.type, ',' ORDER BY ch.type) FROM checks ch WHERE ch.canary_id = c.id AND ch.deleted_at IS NULL),
         c.source, c.agent_id, c.labels, c.created_by, c.created_at, c.updated_at, c.deleted_at,
         (SELECT CASE
                   WHEN bool_or(ch.status = 'unhealthy') THEN 'unhealthy'
                   WHEN count(*) > 0 AND bool_and(ch.status = 'healthy') THEN 'healthy'
                 END
            FROM checks ch WHERE ch.canary_id = c.id AND ch.deleted_at IS NULL),
         (SELECT string_agg(ch.name, ', ' ORDER BY ch.name) FROM checks ch
           WHERE ch.canary_id = c.id AND ch.deleted_at IS NULL AND ch.status = 'unhealthy'),
         c.last_run_at
    FROM canaries c
  UNION ALL
  SELECT cn.id, cn.name, cn.namespace, NULL, 'connections', cn.type,
         cn.source, cn.agent_id, cn.labels, cn.created_by, cn.created_at, cn.updated_at, cn.deleted_at,
         NULL, NULL, NULL
    FROM connections cn
  UNION ALL
  SELECT n.id, n.name, n.namespace, NULL, 'notifications',
         CASE WHEN n.person_id IS NOT NULL THEN 'person' WHEN n.team_id IS NOT NULL THEN 'team'
              WHEN n.playbook_id IS NOT NULL THEN 'playbook' WHEN n.custom_services IS NOT NULL THEN 'custom' END,
         n.source, n.agent_id, n.labels, n.created_by, n.created_at, n.updated_at, n.deleted_at,
         CASE WHEN n.disabled THEN 'unknown' WHEN n.error IS NOT NULL THEN 'unhealthy' END,
         n.error, n.error_at
    FROM notifications n
  UNION ALL
  SELECT l.id, l.name, l.namespace, NULL, 'logging_backends', NULL,
         l.source, '00000000-0000-0000-0000-000000000000'::uuid, l.labels, l.created_by, l.created_at, l.updated_at, l.deleted_at,
         NULL, NULL, NULL
    FROM logging_backends l
)
SELECT
  c.id, c.name, c.namespace, c.description, c.integration_type, c.type, c.source, c.agent_id,
  jsonb_build_object('id', a.id, 'name', a.name) AS agent,
  c.labels, c.created_by, c.created_at, c.updated_at, c.deleted_at,
  COALESCE(
    c.own_health,
    CASE COALESCE(j.status, sh.status)
      WHEN 'SUCCESS' THEN 'healthy' WHEN 'sent' THEN 'healthy'
      WHEN 'WARNING' THEN 'warning'
      WHEN 'FAILED' THEN 'unhealthy' WHEN 'error' THEN 'unhealthy'
    END,
    'unknown'
  ) AS health,
  j.name AS job_name,
  COALESCE(j.status, CASE sh.status WHEN 'sent' THEN 'SUCCESS' WHEN 'error' THEN 'FAILED' ELSE upper(sh.status) END) AS job_status,
  COALESCE(j.time_start, sh.created_at, c.own_last_run) AS job_time_start,
  j.time_end AS job_time_end,
  j.duration_millis AS job_duration_millis,
  j.success_count AS job_success_count,
  j.error_count AS job_error_count,
  COALESCE(j.details -> 'errors' ->> 0, j.details ->> 'error', sh.error, c.own_error) AS job_error,
  j.details AS job_details,
  j.hostname AS job_hostname,
  (SELECT max(f.time_start) FROM job_history f WHERE f.resource_id = c.id::text AND f.status = 'FAILED') AS job_last_failed
FROM combined c
LEFT JOIN agents a ON a.id = c.agent_id
LEFT JOIN LATERAL (
  SELECT jh.name, jh.status, jh.time_start, jh.time_end, jh.duration_millis, jh.success_count, jh.error_count, jh.details, jh.hostname
    FROM job_history jh
   WHERE jh.resource_id = c.id::text AND jh.status <> 'RUNNING'
     AND c.integration_type IN ('scrapers', 'topologies', 'canaries')
   ORDER BY jh.time_start DESC
   LIMIT 1
) j ON true
LEFT JOIN LATERAL (
  SELECT h.status, h.created_at, h.error
    FROM notification_send_history h
   WHERE h.notification_id = c.id AND c.integration_type = 'notifications'
   ORDER BY h.created_at DESC
   LIMIT 1
) sh ON true
WHERE c.deleted_at IS NULL;
