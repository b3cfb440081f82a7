-- Reading the catalog at scale (server/features/catalog/query, bench/catalog.ts: 100k items, 1M changes,
-- 50k insights). Covering indexes, so the summary's counts and the changes feed read indexes, not rows.

-- The changes feed by type and time: a month of one type's changes counted and summarised by change_type
-- from the index alone, and (with skip scan) the counts of every type over a week. Same key as
-- config_changes_type_idx, which it replaces (one index to keep up on every change, not two).
CREATE INDEX config_changes_feed_idx ON config_changes (config_type, created_at DESC) INCLUDE (change_type, severity, config_id);
DROP INDEX config_changes_type_idx;

-- The summary of live items per type, health and status (count, first created, last updated), and their
-- ids for counting insights per group, without reading the rows (which carry the whole config).
CREATE INDEX config_items_summary_idx ON config_items (type, health, status) INCLUDE (created_at, updated_at, id) WHERE deleted_at IS NULL;

-- Deleted items are few: the summary and the changes feed leave their changes out with one hashed
-- anti-join over this index.
CREATE INDEX config_items_deleted_idx ON config_items (id) WHERE deleted_at IS NOT NULL;

-- Open insights with their type and last sighting: the summary counts them per group from the index.
-- Same key and predicate as config_analysis_open_idx, which it replaces.
CREATE INDEX config_analysis_open_type_idx ON config_analysis (config_id) INCLUDE (analysis_type, last_observed) WHERE status = 'open';
DROP INDEX config_analysis_open_idx;
