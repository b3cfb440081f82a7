-- Artifacts (DESIGN §3: a platform service): files a check run (exec `artifacts`) or, later, a playbook
-- action leaves behind. Shaped after flanksource/duty's artifacts table; the content itself is kept here,
-- gzip-compressed, so any instance can serve it (upstream writes it to a connection's file store instead,
-- hence no connection_id, is_pushed or is_data_pushed).

CREATE TABLE artifacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- A check result's artifacts: the result is the check_statuses row (check_id, time = check_time). No
  -- foreign key to check_statuses, on purpose: its retention deletes thousands of rows a batch and must not
  -- drag the artifacts' large values along; the ArtifactRetention job deletes them on their own schedule.
  check_id uuid REFERENCES checks (id) ON DELETE CASCADE,
  check_time timestamptz,
  -- For playbook actions once they exist; no table to reference yet.
  playbook_run_action_id uuid,
  -- Where the file was (`/tmp/exec-results/hello`, or `stdout`/`stderr` for the captured output).
  path text NOT NULL CHECK (path <> ''),
  filename text NOT NULL CHECK (filename <> ''),
  -- Bytes of the file as it was, before any truncation, and of what is stored (after truncation, before
  -- compression); they differ only when the file went over the per-artifact limit.
  size bigint NOT NULL CHECK (size >= 0),
  stored_size bigint NOT NULL CHECK (stored_size >= 0 AND stored_size <= size),
  truncated boolean GENERATED ALWAYS AS (stored_size < size) STORED,
  content_type text,
  -- sha256 (hex) of the stored bytes, as they download.
  checksum text NOT NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
  content_encoding text NOT NULL DEFAULT 'gzip' CHECK (content_encoding IN ('gzip', 'identity')),
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  deleted_at timestamptz,
  CONSTRAINT artifacts_owner CHECK (
    (check_id IS NOT NULL AND check_time IS NOT NULL AND playbook_run_action_id IS NULL)
    OR (check_id IS NULL AND check_time IS NULL AND playbook_run_action_id IS NOT NULL)
  )
);
-- The content is gzip already: a second (pglz) compression would only cost CPU.
ALTER TABLE artifacts ALTER COLUMN content SET STORAGE EXTERNAL;

CREATE INDEX artifacts_check_idx ON artifacts (check_id, check_time) WHERE check_id IS NOT NULL;
CREATE INDEX artifacts_playbook_run_action_idx ON artifacts (playbook_run_action_id) WHERE playbook_run_action_id IS NOT NULL;
-- Retention reads by expiry and by result time.
CREATE INDEX artifacts_expires_at_idx ON artifacts (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX artifacts_check_time_idx ON artifacts (check_time) WHERE check_time IS NOT NULL;
CREATE INDEX artifacts_deleted_at_idx ON artifacts (deleted_at) WHERE deleted_at IS NOT NULL;
CREATE TRIGGER artifacts_updated_at BEFORE UPDATE ON artifacts FOR EACH ROW EXECUTE FUNCTION set_updated_at();

-- /api/db `artifacts`: the rows of check artifacts that can still be downloaded, never their content.
-- Playbook artifacts will need their own RBAC object, so they are not part of it.
CREATE VIEW check_artifacts AS
SELECT id, check_id, check_time, playbook_run_action_id, path, filename, size, stored_size, truncated, content_type, checksum,
  created_at, updated_at, expires_at, deleted_at
FROM artifacts
WHERE check_id IS NOT NULL AND (expires_at IS NULL OR expires_at > now());
