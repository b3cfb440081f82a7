-- The agent's outbox (docs/AGENTS.md): what `serve --upstream` still has to push to the upstream console.
-- The triggers that fill agent_push_queue are not created here: an agent creates them on the pushed tables
-- at start, and a console that is not an agent drops them at start, so a plain console pays nothing.

-- One row per change of a pushed row, in commit order of the writers (seq). row_key holds the primary key
-- columns of the row; the pusher coalesces the rows of one key and sends the row as it is when it pushes
-- (a row gone by then is sent as a delete). Rows are deleted only once upstream accepted them (200).
CREATE TABLE agent_push_queue (
  seq bigserial PRIMARY KEY,
  table_name text NOT NULL,
  row_key jsonb NOT NULL,
  op text NOT NULL CHECK (op IN ('upsert', 'delete')),
  queued_at timestamptz NOT NULL DEFAULT now()
);

-- The pusher's state (one row). Push activity is kept here, never in job_history: a job_history row is
-- itself pushed, so recording pushes there would push forever.
CREATE TABLE agent_push_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- The upstream and agent name the queue was filled for: another one at start refills the queue from
  -- every pushed row (the new upstream has none of them yet).
  upstream text,
  agent_name text,
  -- The agent's id upstream, from the last 200 answer.
  agent_id uuid,
  last_push_at timestamptz,
  last_success_at timestamptz,
  last_error text,
  last_error_at timestamptz,
  pushed_total bigint NOT NULL DEFAULT 0,
  deleted_total bigint NOT NULL DEFAULT 0,
  pushes_total bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO agent_push_state DEFAULT VALUES;

-- Rows upstream refused on their own (400 for that single row): kept with the reason, never retried by
-- themselves (a later change of the row queues it again), shown by GET /api/agent/status.
CREATE TABLE agent_push_failures (
  id bigserial PRIMARY KEY,
  table_name text NOT NULL,
  row_key jsonb NOT NULL,
  op text NOT NULL,
  row_data jsonb,
  reason text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX agent_push_failures_failed_at_idx ON agent_push_failures (failed_at DESC);
