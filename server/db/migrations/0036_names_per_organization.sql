-- Hosted mode (docs/HOSTED.md "Row-level security"): organizations sharing this database each have their
-- own names. The unique indexes on names of organization tables end with organization_id, NULLS NOT
-- DISTINCT, so the console's own rows (organization_id NULL) stay exactly as unique as before, and two
-- organizations may both have a canary default/web or a property named the same. Kept unique across the
-- database: views (each names its own table), agents (each has an account), playbook webhook paths (one
-- URL), people's emails.

DROP INDEX applications_name_key;
CREATE UNIQUE INDEX applications_name_key ON applications (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX canaries_name_key;
CREATE UNIQUE INDEX canaries_name_key ON canaries (agent_id, namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX config_scrapers_name_key;
CREATE UNIQUE INDEX config_scrapers_name_key ON config_scrapers (agent_id, namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX topologies_name_key;
CREATE UNIQUE INDEX topologies_name_key ON topologies (agent_id, namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX connections_name_key;
CREATE UNIQUE INDEX connections_name_key ON connections (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX incident_rules_name_key;
CREATE UNIQUE INDEX incident_rules_name_key ON incident_rules (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX logging_backends_name_key;
CREATE UNIQUE INDEX logging_backends_name_key ON logging_backends (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX notification_silences_name_key;
CREATE UNIQUE INDEX notification_silences_name_key ON notification_silences (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL AND name IS NOT NULL;
DROP INDEX notifications_name_key;
CREATE UNIQUE INDEX notifications_name_key ON notifications (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX permission_groups_name_key;
CREATE UNIQUE INDEX permission_groups_name_key ON permission_groups (name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX permissions_resource_key;
CREATE UNIQUE INDEX permissions_resource_key ON permissions (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL AND source <> 'UI' AND name IS NOT NULL;
DROP INDEX playbooks_name_key;
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX secrets_name_key;
CREATE UNIQUE INDEX secrets_name_key ON secrets (kind, namespace, name, organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;
DROP INDEX teams_name_key;
CREATE UNIQUE INDEX teams_name_key ON teams (lower(name), organization_id) NULLS NOT DISTINCT WHERE deleted_at IS NULL;

-- Properties (feature flags, settings): one value per name per organization; /api/db upserts name
-- organization_id in ON CONFLICT (keysPerOrganization in the registry).
ALTER TABLE properties DROP CONSTRAINT properties_pkey;
ALTER TABLE properties ADD CONSTRAINT properties_name_key UNIQUE NULLS NOT DISTINCT (name, organization_id);
