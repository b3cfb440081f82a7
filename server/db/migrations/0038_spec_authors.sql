-- Capabilities (docs/SECURITY.md): a spec that runs code, reads server files, uses a stored connection or
-- secret, or runs SQL through a connection runs only while its last author holds those capabilities.
-- `updated_by` is that author: the person who last saved the spec from the console, the API or kubectl;
-- NULL when a file, the demo or the system wrote it (whoever writes the server's files holds them all).
-- No foreign key: an author whose account is gone must still be named, and then holds nothing.
ALTER TABLE canaries ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE config_scrapers ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE topologies ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE playbooks ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE views ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE notifications ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE logging_backends ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE incident_rules ADD COLUMN IF NOT EXISTS updated_by uuid;
ALTER TABLE applications ADD COLUMN IF NOT EXISTS updated_by uuid;

-- Rows saved before this migration: their creator is the author the run-time check asks.
UPDATE canaries SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE config_scrapers SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE topologies SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE playbooks SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE views SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE notifications SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE logging_backends SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE incident_rules SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
UPDATE applications SET updated_by = created_by WHERE updated_by IS NULL AND created_by IS NOT NULL;
