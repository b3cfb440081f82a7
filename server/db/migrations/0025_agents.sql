-- Agents (issue 23, spec §3 Agent, §7 /agents_summary): how often an agent says it is alive, the summary
-- the Agents page lists, and the indexes its counts and an agent's cleanup read.

-- An agent pushes at least once every heartbeat_seconds (an empty push is a heartbeat); 3 missed = offline.
ALTER TABLE agents ADD COLUMN heartbeat_seconds integer NOT NULL DEFAULT 30 CHECK (heartbeat_seconds BETWEEN 1 AND 86400);

CREATE INDEX checks_agent_idx ON checks (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX config_items_agent_idx ON config_items (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX canaries_agent_idx ON canaries (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX config_scrapers_agent_idx ON config_scrapers (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX topologies_agent_idx ON topologies (agent_id) WHERE deleted_at IS NULL;
CREATE INDEX components_agent_idx ON components (agent_id) WHERE deleted_at IS NULL;

-- The Agents page (/settings/agents): every agent but the local one (the nil uuid), with its health
-- ('online' when it pushed within 3 heartbeats) and what it has pushed that is not deleted.
CREATE VIEW agents_summary AS
SELECT
  a.id, a.name, a.description, a.properties, a.hostname, a.version, a.last_seen, a.last_received,
  a.heartbeat_seconds, a.created_at, a.updated_at, a.created_by, a.person_id,
  CASE WHEN a.last_seen IS NOT NULL AND a.last_seen >= now() - make_interval(secs => 3 * a.heartbeat_seconds) THEN 'online' ELSE 'offline' END AS health,
  (SELECT count(*) FROM checks c WHERE c.agent_id = a.id AND c.deleted_at IS NULL)::int AS checks,
  (SELECT count(*) FROM config_items ci WHERE ci.agent_id = a.id AND ci.deleted_at IS NULL)::int AS configs,
  (SELECT count(*) FROM canaries ca WHERE ca.agent_id = a.id AND ca.deleted_at IS NULL)::int AS canaries,
  (SELECT count(*) FROM config_scrapers s WHERE s.agent_id = a.id AND s.deleted_at IS NULL)::int AS scrapers,
  (SELECT count(*) FROM topologies t WHERE t.agent_id = a.id AND t.deleted_at IS NULL)::int AS topologies
FROM agents a
WHERE a.deleted_at IS NULL AND a.id <> '00000000-0000-0000-0000-000000000000';
