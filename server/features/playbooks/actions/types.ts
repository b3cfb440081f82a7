import type pg from 'pg';
import type { Logger } from '../../../platform/logger';
import type { SecretStore } from '../../../platform/secrets/store';
import type { ActionSpec, ActionType } from '../spec';

/**
 * What an action sees when it runs. `spec` is the action with its templated fields (the ones Mission Control
 * templates: contextual/fields.ts) already rendered over `templateData` (`.config`, `.component`, `.check`,
 * `.params`, `.env`, `.user`, `.run`, `.action`); every other field is as written.
 */
export interface ActionContext {
  pool: pg.Pool;
  secrets: SecretStore;
  log: Logger;
  /** The playbook's namespace: where connection:// and secret references without a namespace are looked up. */
  namespace: string;
  runId: string;
  /** playbook_run_actions.id of this attempt (artifacts are stored against it). */
  actionId: string;
  /** The rendered action (its type's block holds the fields). */
  spec: ActionSpec;
  /** The data templates were rendered over, for executors that render more (a script's env). */
  templateData: Record<string, unknown>;
  /** The playbook's spec.env, resolved (name → value). */
  env: Record<string, string>;
  /** Aborted on cancel, on the action's or the run's timeout, and when the instance stops. */
  signal: AbortSignal;
  /** Directory under the data directory for this attempt (created on first use, removed after the action). */
  workDir: () => Promise<string>;
}

/** What an action leaves: its result as stored in playbook_run_actions.result (shown on the run page). */
export interface ActionOutcome {
  /** exec: {stdout, stderr, exitCode, path, args}; http: {code, headers, body}; sql: {rows, count}; notification: {…}. */
  result: Record<string, unknown>;
  /** Set when the action failed: the message shown, naming what failed (never a secret). */
  error?: string;
}

export type ActionExecutor = (ctx: ActionContext) => Promise<ActionOutcome>;

/** The executors by type; an action type without one fails with a message naming it. */
export type ActionExecutors = Partial<Record<ActionType, ActionExecutor>>;
