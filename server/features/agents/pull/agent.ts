import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import { isRecord } from '../../../platform/errors';
import { errorMessage, inTransaction } from '../../../platform/jobs/db';
import type { Logger } from '../../../platform/logger';
import { UPSTREAM_SOURCE } from '../../../platform/resources';
import { secretStore } from '../../../platform/secrets';
import { redactingLogger, SecretValues } from '../../../platform/secrets/redact';
import { deleteScraper, saveScraper } from '../../catalog';
import { deleteCanary, saveCanary } from '../../health';
import { actionExecutors, AGENT_INPUT_VERSION, isAgentActionInput, prepareAction, type ActionExecutors, type ActionOutcome, type ActionSpec } from '../../playbooks';
import { deleteTopology, saveTopology } from '../../topology';
import type { ClaimedAction, PullAnswer, PulledResource, PullTable } from './upstream';

/**
 * Pull down, the agent side (docs/AGENTS.md "Resources and playbook actions from upstream"): every
 * `intervalMs` (30 s) the agent asks its upstream for the canaries, scrapers and topologies defined there for
 * it, and keeps them here with the same ids, source 'Upstream' (read-only in the agent's console) — the
 * normal schedulers run them and the outbox pushes their results up; what upstream deleted is deleted here.
 * Every `actionPollMs` (5 s) it claims the playbook actions waiting for it (runsOn), resolves their references
 * from its own secrets and connections, renders and runs them with the local action runners, and sends each
 * result back without the secrets it resolved.
 */
export interface PullWorkerOptions {
  /** The upstream's base URL (https://console.example.com). */
  url: string;
  /** The current token (re-read from the token file by the caller when it has one). */
  token: () => Promise<string> | string;
  intervalMs?: number;
  actionPollMs?: number;
  /** Actions run at once. */
  actionConcurrency?: number;
  dataDir: string;
  executors?: ActionExecutors;
  fetch?: typeof fetch;
}

export const DEFAULT_PULL_INTERVAL_MS = 30_000;
const DEFAULT_ACTION_POLL_MS = 5_000;
const REQUEST_TIMEOUT_MS = 30_000;

export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface PullOutcome {
  applied: number;
  deleted: number;
  failed: number;
  cursor: string;
}

export class PullWorker {
  private stopping = false;
  private timers: NodeJS.Timeout[] = [];
  private pulling: Promise<unknown> | undefined;
  private claiming: Promise<unknown> | undefined;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly stopController = new AbortController();

  constructor(
    private readonly pool: pg.Pool,
    private readonly log: Logger,
    private readonly options: PullWorkerOptions,
  ) {}

  start(): void {
    const pullEvery = this.options.intervalMs ?? DEFAULT_PULL_INTERVAL_MS;
    const claimEvery = this.options.actionPollMs ?? DEFAULT_ACTION_POLL_MS;
    const pullTick = () => {
      if (this.stopping) return;
      this.pulling = this.pullNow()
        .catch(() => undefined)
        .finally(() => {
          if (!this.stopping) this.timers.push(setTimeout(pullTick, pullEvery));
        });
    };
    const claimTick = () => {
      if (this.stopping) return;
      this.claiming = this.claimNow()
        .catch((error) => this.log.warn({ err: errorMessage(error) }, 'could not claim playbook actions from upstream'))
        .finally(() => {
          if (!this.stopping) this.timers.push(setTimeout(claimTick, claimEvery));
        });
    };
    pullTick();
    claimTick();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.stopController.abort();
    for (const flight of this.running.values()) flight.controller.abort(new Error('the agent was stopped before the action finished'));
    await Promise.all([this.pulling, this.claiming, ...[...this.running.values()].map((flight) => flight.done)].map((p) => p?.catch(() => undefined)));
  }

  private async request<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
    const token = await this.options.token();
    const signal = AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), this.stopController.signal]);
    const response = await (this.options.fetch ?? fetch)(new URL(url, this.options.url), {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal,
    });
    const text = await response.text();
    if (!response.ok) {
      let message = text.slice(0, 500);
      try {
        const parsed: unknown = JSON.parse(text);
        if (isRecord(parsed) && typeof parsed.message === 'string' && parsed.message) message = parsed.message;
      } catch {
        // not JSON: the text as it came
      }
      throw new UpstreamError(response.status, `${method} ${url}: ${response.status} ${message}`);
    }
    return JSON.parse(text) as T;
  }

  /** One pull: every page since the stored cursor, applied in order; the cursor advances after each page. */
  async pullNow(): Promise<PullOutcome> {
    const total: PullOutcome = { applied: 0, deleted: 0, failed: 0, cursor: '0' };
    try {
      for (let page = 0; page < 100 && !this.stopping; page += 1) {
        const cursor = await readCursor(this.pool);
        const answer = await this.request<PullAnswer>('GET', `/api/agent/pull?since=${encodeURIComponent(cursor)}`);
        const outcome = await applyPulled(this.pool, this.log, answer.resources);
        total.applied += outcome.applied;
        total.deleted += outcome.deleted;
        total.failed += outcome.failed;
        total.cursor = answer.cursor;
        await this.pool.query(
          `INSERT INTO agent_pull_state (id, cursor, last_pull_at, last_error, failures) VALUES (true, $1, now(), NULL, $2)
           ON CONFLICT (id) DO UPDATE SET cursor = $1, last_pull_at = now(), last_error = NULL,
             failures = (agent_pull_state.failures - $3::text[]) || $2`,
          [answer.cursor, JSON.stringify(outcome.failures), outcome.succeeded],
        );
        if (!answer.more) break;
      }
    } catch (error) {
      this.log.warn({ err: errorMessage(error) }, 'could not pull resources from upstream; retrying at the next interval');
      await this.pool
        .query('INSERT INTO agent_pull_state (id, last_error) VALUES (true, $1) ON CONFLICT (id) DO UPDATE SET last_error = $1', [errorMessage(error)])
        .catch(() => undefined);
      throw error;
    }
    return total;
  }

  /** Claims what waits for this agent, up to the concurrency, and runs each in the background. */
  async claimNow(): Promise<number> {
    const limit = this.options.actionConcurrency ?? 5;
    let claimed = 0;
    while (!this.stopping && this.running.size < limit) {
      // The input version this agent runs: upstream gives an action only to an agent that runs its version.
      const { action } = await this.request<{ action: ClaimedAction | null }>('POST', '/api/agent/playbook-actions/claim', { inputVersion: AGENT_INPUT_VERSION });
      if (!action) break;
      claimed += 1;
      const controller = new AbortController();
      const done = this.runAction(action, controller).finally(() => this.running.delete(action.id));
      this.running.set(action.id, { controller, done });
    }
    return claimed;
  }

  /** Waits for the actions under way (tests). */
  async settled(): Promise<void> {
    await Promise.all([...this.running.values()].map((flight) => flight.done));
  }

  private async runAction(action: ClaimedAction, controller: AbortController): Promise<void> {
    const log = this.log.child({ playbook_action: action.id, run: action.run_id });
    const outcome = await runClaimedAction(this.pool, log, action, controller.signal, this.options.dataDir, this.options.executors ?? actionExecutors);
    const send = { claim: action.claim, status: outcome.status, result: outcome.result, error: outcome.error ?? null };
    // The result is sent until upstream has it (or says it no longer waits): a few tries with backoff.
    for (let attempt = 0; attempt < 6; attempt += 1) {
      try {
        await this.request('POST', `/api/agent/playbook-actions/${action.id}/result`, send);
        return;
      } catch (error) {
        if (error instanceof UpstreamError && error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403 && error.status !== 429) {
          log.warn({ err: error.message }, 'upstream refused the result of a playbook action');
          return;
        }
        if (this.stopping && attempt > 0) break;
        log.warn({ err: errorMessage(error) }, 'could not send a playbook action result; retrying');
        await new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 500 * 2 ** attempt)));
      }
    }
    log.error('the result of a playbook action could not be sent; upstream gives the action out again when its lease runs out');
  }
}

/**
 * Runs one claimed action with this instance's own action runner. Upstream sent the action as written, its
 * template data and the playbook's env as written: the references (env valueFrom, connection://, secret://, an
 * action's own env) are resolved here, in the run's namespace, from this agent's secrets and connections — what
 * cannot be found fails the action saying it was looked up on this agent — and the values read are kept out of
 * the result it sends back.
 */
export async function runClaimedAction(
  pool: pg.Pool,
  log: Logger,
  action: ClaimedAction,
  signal: AbortSignal,
  dataDir: string,
  executors: ActionExecutors = actionExecutors,
): Promise<{ status: 'completed' | 'failed' | 'timed_out'; result: Record<string, unknown>; error?: string }> {
  type Outcome = { status: 'completed' | 'failed' | 'timed_out'; result: Record<string, unknown>; error?: string };
  const type = action.type as keyof ActionExecutors;
  const executor = executors[type];
  if (!executor) return { status: 'failed', result: {}, error: `${action.type} actions are not run by this agent` };
  // The run's secret parameters upstream named, and what this agent resolves for the action, never go back in its result.
  const redactor = new SecretValues(Array.isArray(action.redact) ? action.redact.filter((value) => typeof value === 'string') : []);
  const result = (outcome: Outcome): Outcome => redactor.redactDeep(outcome);
  if (!isAgentActionInput(action)) {
    return result({
      status: 'failed',
      result: {},
      error: `upstream gave this action in an earlier form, rendered with upstream's secrets: this agent runs action input version ${AGENT_INPUT_VERSION}, which it resolves itself; upgrade the upstream console`,
    });
  }
  // Lookups that find nothing say where they looked: `secret "db" not found in namespace "shop" (looked up on agent "edge-1")`.
  const secrets = secretStore(pool).at(`agent ${JSON.stringify(action.agent)}`);
  let prepared: Awaited<ReturnType<typeof prepareAction>>;
  try {
    prepared = await prepareAction(secrets, action.namespace, structuredClone(action.spec) as unknown as ActionSpec, action.env, action.templateData, redactor);
  } catch (error) {
    return result({ status: 'failed', result: {}, error: errorMessage(error) });
  }
  const spec = prepared.spec;
  // Artifacts are stored against the run's action row, which is upstream's: here the files are not kept.
  const artifactsLeft = spec.exec?.artifacts?.length ? spec.exec.artifacts.map((artifact) => artifact.path) : [];
  if (spec.exec && artifactsLeft.length > 0) delete spec.exec.artifacts;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = action.timeoutMillis
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new Error('timed out'));
      }, action.timeoutMillis)
    : undefined;
  let workDir: string | undefined;
  let outcome: ActionOutcome;
  try {
    outcome = await executor({
      pool,
      secrets,
      log: redactingLogger(log, redactor),
      namespace: action.namespace,
      runId: action.run_id,
      actionId: action.id,
      spec,
      templateData: prepared.templateData,
      env: prepared.env,
      signal: controller.signal,
      workDir: async () => {
        workDir ??= path.join(dataDir, 'agent-actions', action.id);
        await fs.mkdir(workDir, { recursive: true });
        return workDir;
      },
    });
  } catch (error) {
    outcome = { result: {}, error: errorMessage(error) };
  } finally {
    if (timer) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    if (workDir) await fs.rm(workDir, { recursive: true, force: true }).catch(() => undefined);
  }
  if (artifactsLeft.length > 0) {
    outcome = { ...outcome, result: { ...outcome.result, artifactNotes: [`artifacts are not kept for an action run on an agent: ${artifactsLeft.join(', ')}`] } };
  }
  if (timedOut) return result({ status: 'timed_out', result: outcome.result ?? {}, error: `the action timed out after ${Math.round((action.timeoutMillis ?? 0) / 1000)}s on the agent` });
  if (outcome.error) return result({ status: 'failed', result: outcome.result ?? {}, error: outcome.error });
  return result({ status: 'completed', result: outcome.result ?? {} });
}

async function readCursor(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ cursor: string }>('SELECT cursor FROM agent_pull_state WHERE id');
  return rows[0]?.cursor ?? '0';
}

interface ApplyOutcome {
  applied: number;
  deleted: number;
  failed: number;
  /** id → why it could not be applied (kept in agent_pull_state.failures). */
  failures: Record<string, string>;
  /** ids applied now: earlier failures of theirs are cleared. */
  succeeded: string[];
}

const SAVE = {
  canaries: saveCanary,
  config_scrapers: saveScraper,
  topologies: saveTopology,
} as const;

/**
 * Applies pulled resources here, in order: each in its own transaction, so one that this agent refuses (a
 * name a local resource already has, a spec this version cannot read) is noted and the rest goes on.
 */
export async function applyPulled(pool: pg.Pool, log: Logger, resources: PulledResource[]): Promise<ApplyOutcome> {
  const outcome: ApplyOutcome = { applied: 0, deleted: 0, failed: 0, failures: {}, succeeded: [] };
  for (const resource of resources) {
    try {
      if (resource.deleted_at) {
        if (await removePulled(pool, resource.table, resource.id)) outcome.deleted += 1;
      } else {
        await inTransaction(pool, (client) => upsertPulled(client, resource));
        outcome.applied += 1;
      }
      outcome.succeeded.push(resource.id);
    } catch (error) {
      const message = `${resource.kind} ${resource.namespace}/${resource.name}: ${errorMessage(error)}`;
      log.warn({ resource: resource.id }, `could not apply a resource from upstream: ${message}`);
      outcome.failed += 1;
      outcome.failures[resource.id] = message;
    }
  }
  return outcome;
}

async function upsertPulled(client: pg.PoolClient, resource: PulledResource): Promise<void> {
  const table = resource.table;
  const { rows } = await client.query<{ source: string; deleted_at: Date | null }>(`SELECT source, deleted_at FROM ${table} WHERE id = $1 FOR UPDATE`, [resource.id]);
  const existing = rows[0];
  if (existing && existing.source !== UPSTREAM_SOURCE) throw new Error(`a ${table} row of this agent (source ${existing.source}) has this id`);
  if (!existing) {
    // The row first, with upstream's id; the kind's own save then checks and writes the spec (and a canary's checks).
    await client.query(
      `INSERT INTO ${table} (id, name, namespace, labels, spec, source, upstream_origin, next_run_at) VALUES ($1, $2, $3, $4, '{}', $5, true, 'infinity')`,
      [resource.id, resource.name, resource.namespace, JSON.stringify(resource.labels), UPSTREAM_SOURCE],
    );
  } else if (existing.deleted_at) {
    await client.query(`UPDATE ${table} SET deleted_at = NULL WHERE id = $1`, [resource.id]);
  }
  if (table === 'canaries') {
    for (const check of resource.checks ?? []) {
      await client.query('INSERT INTO checks (id, canary_id, key, type, name) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [check.id, resource.id, check.key, check.type, check.name]);
    }
  }
  const input = { name: resource.name, namespace: resource.namespace, labels: resource.labels, spec: resource.spec, source: UPSTREAM_SOURCE, ...(table === 'config_scrapers' ? { description: resource.description ?? undefined } : {}) };
  await SAVE[table](client, input, { id: resource.id });
}

/** Deletes (soft) a resource upstream no longer gives this agent; never one of the agent's own. */
async function removePulled(pool: pg.Pool, table: PullTable, id: string): Promise<boolean> {
  const { rows } = await pool.query<{ source: string }>(`SELECT source FROM ${table} WHERE id = $1 AND deleted_at IS NULL`, [id]);
  if (rows[0]?.source !== UPSTREAM_SOURCE) return false;
  if (table === 'canaries') return deleteCanary(pool, id);
  if (table === 'config_scrapers') return deleteScraper(pool, id);
  return deleteTopology(pool, id);
}

/** Starts the pull worker of `serve --upstream` (the agent feature's start calls it). */
export function startPullWorker(
  ctx: { pool: pg.Pool; log: Logger; config: { dataDir: string } },
  upstream: { url: string; token?: string | undefined; tokenFile?: string | undefined },
): PullWorker {
  const seconds = Number(process.env.WATCHKEEPER_AGENT_PULL_SECONDS ?? '');
  const worker = new PullWorker(ctx.pool, ctx.log.child({ component: 'agent-pull' }), {
    url: upstream.url,
    // The token file is read again for each request: a rotated token is used without a restart.
    token: async () => (upstream.tokenFile ? (await fs.readFile(upstream.tokenFile, 'utf8')).trim() : (upstream.token ?? '')),
    intervalMs: Number.isFinite(seconds) && seconds >= 1 ? seconds * 1000 : DEFAULT_PULL_INTERVAL_MS,
    dataDir: ctx.config.dataDir,
  });
  worker.start();
  return worker;
}
