import type pg from 'pg';
import type { Logger } from '../../platform/logger';
import type { SecretStore } from '../../platform/secrets/store';
import type { SecretValues } from '../../platform/secrets/redact';
import type { ActionExecutors } from './actions/types';
import type { PlaybookSpec } from './spec';

/** What the runner's three parts (runner.ts, run-state.ts, action-executor.ts with timing.ts) share. */

export interface RunnerOptions {
  instanceId: string;
  executors: ActionExecutors;
  secrets: SecretStore;
  dataDir: string;
  /** Runs worked on at once by this instance. */
  concurrency?: number;
  /** How long a claim holds without renewal (renewed every second while the run is worked on). */
  leaseMillis?: number;
  /** Longest sleep between polls when nothing is due. */
  pollMillis?: number;
  /** This instance's own agent name when it runs as an agent: `runsOn: [it]` runs here (docs/AGENTS.md). */
  agentName?: string | undefined;
}

export interface RunRow {
  id: string;
  playbook_id: string;
  status: string;
  spec: Record<string, unknown>;
  parameters: Record<string, string>;
  secret_parameters: string | null;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  created_by: string | null;
  request: Record<string, unknown> | null;
  timeout_millis: string;
  start_time: Date;
  created_at: Date;
  namespace: string;
  playbook_name: string;
  /** The playbook's last author (docs/SECURITY.md): the capabilities its actions use are checked against them. */
  author: string | null;
}

/** A run this instance claimed: its row, its spec parsed and checked once at the claim, and its deadline. */
export interface ClaimedRun {
  row: RunRow;
  spec: PlaybookSpec;
  /** When the run times out (ms since the epoch): its start plus its timeout. */
  deadline: number;
}

export interface ActionRow {
  id: string;
  action_index: number;
  name: string;
  status: string;
  retry_count: number;
  scheduled_time: Date;
  result: Record<string, unknown> | null;
  error: string | null;
  /** Set when an agent runs the attempt (runsOn). */
  agent_id: string | null;
}

/** The runner's pool, log and options, and the secret values each run in flight has seen. */
export interface RunnerContext {
  readonly pool: pg.Pool;
  readonly log: Logger;
  readonly options: RunnerOptions;
  /** The secret values of this run known so far (an empty set for a run not in flight here). */
  redactorOf(runId: string): SecretValues;
}

/** The clear values of the run's secret parameters (none when they cannot be read: the run then fails on them). */
export function secretParameterValues(secrets: SecretStore, run: Pick<RunRow, 'secret_parameters'>): string[] {
  if (!run.secret_parameters) return [];
  try {
    return Object.values(JSON.parse(secrets.reveal(run.secret_parameters)) as Record<string, string>).map(String);
  } catch {
    return [];
  }
}
