import type pg from 'pg';
import type { Actor } from '../../platform/auth/types';
import { AppError, ValidationError, type Issue } from '../../platform/http/errors';
import { publish } from '../../platform/jobs/event-queue';
import type { Queryable } from '../../platform/jobs/db';
import type { SecretStore } from '../../platform/secrets/store';
import { checkParameters, parameterText, withDefaults } from './parameters';
import { checkPlaybookSpec, type PlaybookSpec } from './spec';
import { exclusionOf, loadTarget, targetOf, type RunTarget, type TargetKind } from './targets';
import { isOneOf } from '../../../common/guards';

export const RUNS_CHANNEL = 'watchkeeper_playbook_runs';
export const CANCEL_CHANNEL = 'watchkeeper_playbook_cancel';
/** Mission Control's default run timeout. */
export const DEFAULT_TIMEOUT_MILLIS = 30 * 60 * 1000;
export const FINAL_STATUSES = ['completed', 'failed', 'cancelled', 'timed_out'] as const;
export const SECRET_MASK = '********';

export interface PlaybookRow {
  id: string;
  name: string;
  namespace: string;
  title: string;
  spec: Record<string, unknown>;
}

export async function loadPlaybook(db: Queryable, id: string): Promise<PlaybookRow> {
  const { rows } = await db.query<PlaybookRow>('SELECT id, name, namespace, title, spec FROM playbooks WHERE id = $1 AND deleted_at IS NULL', [id]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', `playbook ${id} not found`);
  return row;
}

/** The checked spec of a stored playbook (a stored spec with problems cannot run). */
export function runnableSpec(playbook: PlaybookRow): PlaybookSpec {
  const { problems, checked } = checkPlaybookSpec(playbook.spec);
  if (!checked) throw new AppError('conflict', `the playbook ${playbook.namespace}/${playbook.name} cannot run: ${problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`);
  return checked.spec;
}

/** What templates of parameter defaults see for a target and a person. */
export function defaultsData(target: RunTarget | undefined, user: { id: string; name: string; email: string | null } | undefined): Record<string, unknown> {
  return { ...(target ? { [target.kind]: target.row } : {}), user: user ?? {} };
}

export interface RunRequest {
  playbookId: string;
  config_id?: string | null | undefined;
  component_id?: string | null | undefined;
  check_id?: string | null | undefined;
  params?: Record<string, unknown> | undefined;
  actor?: Pick<Actor, 'id' | 'name' | 'email'> | undefined;
  /** {trigger: manual | event | webhook | rerun, …}. */
  request: Record<string, unknown>;
  parentId?: string | null;
  /** Values already checked (a re-run copies its run's, secrets included). */
  trusted?: boolean;
}

const FIELD: Record<TargetKind, string> = { config: 'body.config_id', component: 'body.component_id', check: 'body.check_id' };

/**
 * Creates a run in the caller's transaction: the playbook and its target looked up, the target checked
 * against the selectors and filters, the parameters checked (spec §5) with defaults filled in, secret
 * parameters sealed. Waits for approval when the playbook asks for one. Every problem at once, nothing written.
 */
export async function createRun(client: pg.PoolClient, secrets: SecretStore, request: RunRequest): Promise<{ id: string; status: string }> {
  const playbook = await loadPlaybook(client, request.playbookId);
  const spec = runnableSpec(playbook);
  const wanted = targetOf(request);
  const issues: Issue[] = [];
  let target: RunTarget | undefined;
  if (wanted) {
    target = await loadTarget(client, wanted.kind, wanted.id);
    if (!target) throw new AppError('not_found', `${wanted.kind === 'config' ? 'config item' : wanted.kind} ${wanted.id} not found`);
  }
  const excluded = exclusionOf(spec, target);
  if (excluded) issues.push({ path: wanted ? FIELD[wanted.kind] : 'body', message: `the playbook ${playbook.namespace}/${playbook.name} cannot run here: ${excluded}` });
  const given: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.params ?? {})) {
    const text = parameterText(value);
    if (text !== undefined) given[name] = text;
  }
  const parameters = spec.parameters ?? [];
  const values = withDefaults(parameters, given, defaultsData(target, request.actor ? { id: request.actor.id, name: request.actor.name, email: request.actor.email } : undefined));
  if (!request.trusted) issues.push(...(await checkParameters(client, parameters, { ...given, ...Object.fromEntries(parameters.map((parameter) => [parameter.name, values[parameter.name] ?? ''])) })));
  if (issues.length > 0) throw new ValidationError(issues);

  const secretNames = parameters.filter((parameter) => parameter.type === 'secret').map((parameter) => parameter.name);
  const visible = { ...values };
  const hidden: Record<string, string> = {};
  for (const name of secretNames) {
    const value = values[name];
    if (value === undefined) continue;
    hidden[name] = value;
    visible[name] = SECRET_MASK;
  }
  const approvers = spec.approval?.approvers;
  const needsApproval = Boolean(approvers?.people?.length || approvers?.teams?.length);
  const status = needsApproval ? 'pending_approval' : 'scheduled';
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO playbook_runs (playbook_id, status, spec, parameters, secret_parameters, config_id, component_id, check_id, parent_id, created_by, request, timeout_millis)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      playbook.id,
      status,
      JSON.stringify(playbook.spec),
      JSON.stringify(visible),
      Object.keys(hidden).length > 0 ? secrets.encrypt(JSON.stringify(hidden)) : null,
      target?.kind === 'config' ? target.id : null,
      target?.kind === 'component' ? target.id : null,
      target?.kind === 'check' ? target.id : null,
      request.parentId ?? null,
      request.actor?.id ?? null,
      JSON.stringify(request.request),
      spec.timeout ?? DEFAULT_TIMEOUT_MILLIS,
    ],
  );
  const id = rows[0]?.id as string;
  if (needsApproval) {
    await publish(client, 'playbook.approval.inprogress', { id, run_id: id, playbook_id: playbook.id, name: playbook.name, namespace: playbook.namespace, status });
  } else {
    await client.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, id]);
  }
  return { id, status };
}

/** The values a run's parameters had, secrets revealed (for the runner and a re-run). */
export function revealParameters(secrets: SecretStore, run: { parameters: Record<string, string>; secret_parameters: string | null }): Record<string, string> {
  if (!run.secret_parameters) return { ...run.parameters };
  return { ...run.parameters, ...(JSON.parse(secrets.reveal(run.secret_parameters)) as Record<string, string>) };
}

interface RunState {
  id: string;
  status: string;
  created_by: string | null;
  spec: Record<string, unknown>;
  playbook_id: string;
}

async function lockRun(client: pg.PoolClient, id: string): Promise<RunState> {
  const { rows } = await client.query<RunState>('SELECT id, status, created_by, spec, playbook_id FROM playbook_runs WHERE id = $1 FOR UPDATE', [id]);
  const run = rows[0];
  if (!run) throw new AppError('not_found', `playbook run ${id} not found`);
  return run;
}

/**
 * Approves a run waiting for approval. The person must be an approver (named in approvers.people, or a
 * member of a team in approvers.teams). A person approves their own run only when approvers.people names
 * them: a rule that names teams asks someone else. `any` starts the run on the first approval; `all` when
 * every named person and every named team (by one of its members) has approved.
 */
export async function approveRun(client: pg.PoolClient, id: string, actor: Pick<Actor, 'id' | 'teamIds' | 'email' | 'name'>): Promise<{ status: string; approvals: number }> {
  const run = await lockRun(client, id);
  if (run.status !== 'pending_approval') throw new AppError('conflict', `this run is ${run.status.replace('_', ' ')}, not waiting for approval`);
  const spec = checkPlaybookSpec(run.spec).checked?.spec;
  const approval = spec?.approval;
  const people = await resolveNames(client, 'people', approval?.approvers?.people ?? []);
  const teams = await resolveNames(client, 'teams', approval?.approvers?.teams ?? []);
  const asPerson = people.includes(actor.id);
  const asTeams = teams.filter((team) => actor.teamIds.includes(team));
  if (!asPerson && asTeams.length === 0) throw new AppError('forbidden', 'you are not an approver of this playbook (spec.approval.approvers names the people and teams who are)');
  if (run.created_by === actor.id && !asPerson) throw new AppError('forbidden', 'you cannot approve your own run: the approvers of this playbook are teams, so another member approves it');
  await client.query('INSERT INTO playbook_approvals (run_id, person_id, team_id) VALUES ($1, $2, $3) ON CONFLICT (run_id, person_id) DO NOTHING', [id, actor.id, asTeams[0] ?? null]);
  const { rows } = await client.query<{ person_id: string | null; team_id: string | null; teams: string[] }>(
    `SELECT a.person_id, a.team_id, coalesce((SELECT array_agg(tm.team_id::text) FROM team_members tm WHERE tm.person_id = a.person_id), '{}') AS teams
       FROM playbook_approvals a WHERE a.run_id = $1`,
    [id],
  );
  const approvedPeople = new Set(rows.map((row) => row.person_id));
  const approvedTeams = new Set(rows.flatMap((row) => row.teams));
  const satisfied = (approval?.type ?? 'any') === 'any' ? rows.length > 0 : people.every((person) => approvedPeople.has(person)) && teams.every((team) => approvedTeams.has(team));
  if (!satisfied) return { status: run.status, approvals: rows.length };
  await client.query("UPDATE playbook_runs SET status = 'scheduled', scheduled_time = now() WHERE id = $1", [id]);
  await client.query('SELECT pg_notify($1, $2)', [RUNS_CHANNEL, id]);
  return { status: 'scheduled', approvals: rows.length };
}

/** People by id, email or name; teams by id or name (names that match nothing approve nothing). */
async function resolveNames(db: Queryable, table: 'people' | 'teams', names: readonly string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<{ id: string }>(
    table === 'people'
      ? 'SELECT id FROM people WHERE deleted_at IS NULL AND (id::text = ANY($1) OR lower(email) = ANY($2) OR lower(name) = ANY($2))'
      : 'SELECT id FROM teams WHERE deleted_at IS NULL AND (id::text = ANY($1) OR lower(name) = ANY($2))',
    [names, names.map((name) => name.toLowerCase())],
  );
  return rows.map((row) => row.id);
}

/** Cancels a run that has not ended; the instance running an action of it stops that action (its process group). */
export async function cancelRun(client: pg.PoolClient, id: string): Promise<{ status: string }> {
  const run = await lockRun(client, id);
  if (isOneOf(FINAL_STATUSES, run.status)) throw new AppError('conflict', `this run has already ended (${run.status.replace('_', ' ')})`);
  await client.query("UPDATE playbook_runs SET status = 'cancelled', end_time = now(), error = coalesce(error, 'cancelled') WHERE id = $1", [id]);
  await client.query(
    "UPDATE playbook_run_actions SET status = 'cancelled', end_time = coalesce(end_time, now()) WHERE playbook_run_id = $1 AND status IN ('scheduled', 'sleeping', 'waiting')",
    [id],
  );
  await client.query('SELECT pg_notify($1, $2)', [CANCEL_CHANNEL, id]);
  return { status: 'cancelled' };
}
