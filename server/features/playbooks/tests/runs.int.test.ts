import { createHash, createHmac, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import type { QueuedEvent } from '../../../platform/jobs/event-queue';
import { createLogger } from '../../../platform/logger';
import { secretStore } from '../../../platform/secrets';
import { createRunner, scheduleRows } from '../index';
import type { PlaybookRunner } from '../runner';
import { handleTriggerEvent } from '../triggers';
import { BackgroundWork } from '../../../platform/jobs/registry';
import { eventually, startTestRuntime } from '../../../platform/jobs/testing';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { loadEventResource, NotificationEngine, renderMessage } from '../../notifications';

let t: TestApp;
let runner: PlaybookRunner | undefined;
const log = createLogger('silent');

async function post(url: string, payload: unknown, headers = t.adminHeaders) {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
}

async function playbook(name: string, spec: Record<string, unknown>): Promise<string> {
  const response = await post('/api/playbooks', { name, spec });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function run(body: Record<string, unknown>, headers = t.adminHeaders): Promise<string> {
  const response = await post('/api/playbook/run', body, headers);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().run_id;
}

async function waitFor(id: string, statuses: string[], millis = 15_000): Promise<Record<string, unknown>> {
  const until = Date.now() + millis;
  for (;;) {
    const { rows } = await t.db.pool.query('SELECT * FROM playbook_runs WHERE id = $1', [id]);
    if (statuses.includes(rows[0]?.status)) return rows[0];
    if (Date.now() > until) throw new Error(`run ${id} is ${rows[0]?.status}, not ${statuses.join('|')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function actions(id: string) {
  return (await t.db.pool.query('SELECT name, status, retry_count, result, error FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count', [id])).rows;
}

async function startRunner() {
  runner = createRunner(t.context, { pollMillis: 200, leaseMillis: 3_000 });
  await runner.start();
}

beforeAll(async () => {
  t = await createTestApp();
  await startRunner();
});

afterEach(() => undefined);

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

describe('playbook runs', () => {
  it('runs an exec action with a parameter, templates over .params and .user, and refuses a missing required parameter', async () => {
    const id = await playbook('greet', {
      title: 'Greet',
      parameters: [{ name: 'who', label: 'Who', required: true }, { name: 'count', label: 'Count', type: 'number', default: '2' }],
      actions: [{ name: 'say', exec: { script: 'echo "hello {{.params.who}} x{{.params.count}} by {{.user.email}}"' } }],
    });
    const missing = await post('/api/playbook/run', { id, params: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ path: 'body.params.who', message: 'This field is required' }]);
    const notNumber = await post('/api/playbook/run', { id, params: { who: 'x', count: 'many' } });
    expect(notNumber.json().details).toEqual([{ path: 'body.params.count', message: 'This field must be a number' }]);
    const unknown = await post('/api/playbook/run', { id, params: { who: 'x', colour: 'red' } });
    expect(unknown.json().details[0].path).toBe('body.params.colour');
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM playbook_runs WHERE playbook_id = $1', [id])).rows[0].n).toBe(0);

    const runId = await run({ id, params: { who: 'world' } });
    const done = await waitFor(runId, ['completed', 'failed']);
    expect(done.status).toBe('completed');
    const [say] = await actions(runId);
    expect(say.status).toBe('completed');
    expect(say.result.stdout).toMatch(/^hello world x2 by \S+@/);
    const listed = await t.app.inject({ method: 'GET', url: `/api/db/playbook_runs?id=eq.${runId}&select=id,status,parameters,playbooks(name)`, headers: t.adminHeaders });
    expect(listed.json()[0]).toMatchObject({ status: 'completed', parameters: { who: 'world', count: '2' }, playbooks: { name: 'greet' } });
    const rpc = await t.app.inject({ method: 'GET', url: `/api/db/rpc/get_playbook_run_actions?run_id=${runId}`, headers: t.adminHeaders });
    expect(rpc.statusCode, rpc.body).toBe(200);
    expect(rpc.json()[0]).toMatchObject({ name: 'say', status: 'completed', artifacts: [] });
  });

  it('masks secret parameters everywhere but in the action', async () => {
    const id = await playbook('secret-param', {
      parameters: [{ name: 'token', label: 'Token', type: 'secret', required: true }],
      actions: [{ name: 'use', exec: { script: 'printf %s "{{.params.token}}" | sha256sum | cut -c1-12' } }],
    });
    const runId = await run({ id, params: { token: 's3cr3t' } });
    expect((await waitFor(runId, ['completed', 'failed'])).status).toBe('completed');
    expect((await actions(runId))[0].result.stdout).toBe(createHash('sha256').update('s3cr3t').digest('hex').slice(0, 12));
    const read = await t.app.inject({ method: 'GET', url: `/api/db/playbook_runs?id=eq.${runId}`, headers: t.adminHeaders });
    expect(read.body).not.toContain('s3cr3t');
    expect(read.json()[0].parameters.token).toBe('********');
    const again = await post(`/api/playbook/run/rerun/${runId}`, {});
    expect(again.statusCode, again.body).toBe(201);
    expect((await waitFor(again.json().run_id, ['completed', 'failed'])).status).toBe('completed');
  });

  it('skips after a failure unless `if` says otherwise, and retries with the retry policy', async () => {
    const id = await playbook('conditions', {
      actions: [
        { name: 'flaky', exec: { script: 'echo try >&2; exit 3' }, retry: { limit: 2, duration: '50ms', exponent: { multiplier: 2 } } },
        { name: 'next', exec: { script: 'echo next' } },
        { name: 'cleanup', if: 'failure()', exec: { script: 'echo cleaning' } },
        { name: 'always', if: 'always() && params.size() == 0', exec: { script: 'echo done' } },
      ],
    });
    const runId = await run({ id });
    const done = await waitFor(runId, ['completed', 'failed']);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('flaky');
    const rows = await actions(runId);
    expect(rows.map((row) => `${row.name}:${row.retry_count}:${row.status}`)).toEqual(['flaky:0:failed', 'flaky:1:failed', 'flaky:2:failed', 'next:0:skipped', 'cleanup:0:completed', 'always:0:completed']);
    expect(rows[0].error).toBe('exit code 3: try');
  });

  it('times out an action and a run, sleeps through a delay, and sees .env in templates', async () => {
    const slow = await playbook('slow-action', { actions: [{ name: 'wait', timeout: '1s', exec: { script: 'sleep 20' } }, { name: 'after', if: 'always()', exec: { script: 'echo after' } }] });
    const slowRun = await run({ id: slow });
    const failed = await waitFor(slowRun, ['completed', 'failed', 'timed_out']);
    expect(failed.status).toBe('failed');
    expect((await actions(slowRun)).map((row) => `${row.name}:${row.status}:${row.error}`)).toEqual(['wait:timed_out:the action timed out after 1s', 'after:completed:null']);
    const whole = await playbook('slow-run', { timeout: '1s', actions: [{ name: 'wait', exec: { script: 'sleep 20' } }, { name: 'never', exec: { script: 'echo never' } }] });
    const wholeRun = await run({ id: whole });
    const timedOut = await waitFor(wholeRun, ['completed', 'failed', 'timed_out']);
    expect(timedOut).toMatchObject({ status: 'timed_out', error: 'the run timed out after 1s' });
    expect((await actions(wholeRun)).map((row) => `${row.name}:${row.status}`)).toEqual(['wait:timed_out']);
    const long = await playbook('long-timeout', { timeout: '720h', actions: [{ name: 'quick', timeout: '800h', exec: { script: 'echo ok' } }] });
    expect((await waitFor(await run({ id: long }), ['completed', 'failed', 'timed_out'])).status).toBe('completed');
    const delayed = await playbook('delayed', { env: [{ name: 'GREETING', value: 'hi {{.playbook.name}}' }], actions: [{ name: 'later', delay: '1s', exec: { script: 'echo "{{.env.GREETING}} $GREETING"' } }] });
    const delayedRun = await run({ id: delayed });
    await waitFor(delayedRun, ['sleeping'], 5_000);
    const started = Date.now();
    await waitFor(delayedRun, ['completed']);
    expect(Date.now() - started).toBeGreaterThan(300);
    expect((await actions(delayedRun))[0].result.stdout).toBe('hi delayed hi delayed');
  });

  it('reads the previous action (last_result, getLastAction, getAction), a CEL delay, the templated playbook env and a script’s own $(…) as Mission Control does', async () => {
    const id = await playbook('chained', {
      parameters: [{ name: 'delay', label: 'Delay', default: '0s' }, { name: 'word', label: 'Word', default: 'three' }],
      // The playbook's env is templated (an exec action's own env is used as written, as in Mission Control).
      env: [{ name: 'WORD', value: '{{.params.word}}' }],
      actions: [
        { name: 'count', exec: { script: 'echo 3' } },
        { name: 'use', if: "last_result().stdout == '3' && getLastAction().status == 'completed'", exec: { script: 'echo "got {{ index last_result "stdout" }} from {{ getLastAction.name }}"' } },
        { name: 'named', if: "getAction('count').result.stdout == '3'", delay: "params.delay == '0s' ? '10ms' : params.delay", exec: { script: 'echo $WORD $(echo shell)' } },
      ],
    });
    const runId = await run({ id });
    expect((await waitFor(runId, ['completed', 'failed'])).status).toBe('completed');
    expect((await actions(runId)).map((row) => `${row.name}:${row.status}:${row.result?.stdout}`)).toEqual(['count:completed:3', 'use:completed:got 3 from count', 'named:completed:three shell']);
  });

  it('waits for approval: an approver who is not the requester approves; a team rule refuses self-approval', async () => {
    const editor = await t.userWith(['editor'], `approver-${randomUUID().slice(0, 6)}@example.com`);
    const requester = await t.userWith(['editor'], `requester-${randomUUID().slice(0, 6)}@example.com`);
    const team = (await t.db.pool.query<{ id: string }>("INSERT INTO teams (name) VALUES ('release-approvers') RETURNING id")).rows[0]!.id;
    await t.db.pool.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2), ($1, $3)', [team, editor.id, requester.id]);
    const id = await playbook('approved', { approval: { type: 'any', approvers: { teams: ['release-approvers'] } }, actions: [{ name: 'go', exec: { script: 'echo approved' } }] });
    const runId = await run({ id }, requester.headers);
    expect((await waitFor(runId, ['pending_approval'])).status).toBe('pending_approval');
    const self = await post(`/api/playbook/run/approve/${runId}`, {}, requester.headers);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toContain('your own run');
    const viewer = await t.userWith(['viewer']);
    expect((await post(`/api/playbook/run/approve/${runId}`, {}, viewer.headers)).statusCode).toBe(403);
    const approved = await post(`/api/playbook/run/approve/${runId}`, {}, editor.headers);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('scheduled');
    expect((await waitFor(runId, ['completed', 'failed'])).status).toBe('completed');
    const approvals = await t.app.inject({ method: 'GET', url: `/api/db/playbook_approvals?run_id=eq.${runId}&select=person_id`, headers: t.adminHeaders });
    expect(approvals.json()).toEqual([{ person_id: editor.id }]);
  });

  it('cancel stops the running process group within 5 s', async () => {
    const id = await playbook('long', { actions: [{ name: 'sleep', exec: { script: 'sleep 60 & sleep 60; echo never' } }] });
    const runId = await run({ id });
    const until = Date.now() + 10_000;
    while ((await actions(runId))[0]?.status !== 'running') {
      if (Date.now() > until) throw new Error('the action never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const started = Date.now();
    const cancelled = await post(`/api/playbook/run/cancel/${runId}`, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    for (;;) {
      const [row] = await actions(runId);
      if (row.status !== 'running') {
        expect(row.status).toBe('cancelled');
        break;
      }
      if (Date.now() - started > 5_000) throw new Error('the action still runs 5 s after cancel');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await waitFor(runId, ['cancelled'])).status).toBe('cancelled');
    expect((await post(`/api/playbook/run/cancel/${runId}`, {})).statusCode).toBe(409);
  });

  it('takes over a run whose instance died: the action under way is failed, never run twice unless it retries', async () => {
    const id = await playbook('recover', {
      actions: [
        { name: 'once', exec: { script: 'echo ran' } },
        { name: 'retried', exec: { script: 'echo again' }, retry: { limit: 1, duration: '10ms' } },
      ],
    });
    const insert = async (index: number, name: string) => {
      const { rows } = await t.db.pool.query<{ id: string }>(
        `INSERT INTO playbook_runs (playbook_id, status, spec, claimed_by, lease_until, start_time)
         SELECT id, 'running', spec, 'dead-instance', now() - interval '1 second', now() FROM playbooks WHERE id = $1 RETURNING id`,
        [id],
      );
      const runId = rows[0]!.id;
      if (index === 1) await t.db.pool.query("INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, type, status, start_time, end_time) VALUES ($1, 'once', 0, 'exec', 'completed', now(), now())", [runId]);
      await t.db.pool.query("INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, type, status, start_time, claimed_by) VALUES ($1, $2, $3, 'exec', 'running', now(), 'dead-instance')", [runId, name, index]);
      runner?.wake();
      return runId;
    };
    const notRetryable = await insert(0, 'once');
    const done = await waitFor(notRetryable, ['completed', 'failed']);
    expect(done.status).toBe('failed');
    expect((await actions(notRetryable)).map((row) => `${row.name}:${row.retry_count}:${row.status}:${row.error}`)).toEqual(['once:0:failed:the instance running it stopped', 'retried:0:skipped:null']);
    const retryable = await insert(1, 'retried');
    expect((await waitFor(retryable, ['completed', 'failed'])).status).toBe('completed');
    expect((await actions(retryable)).map((row) => `${row.name}:${row.retry_count}:${row.status}`)).toEqual(['once:0:completed', 'retried:0:failed', 'retried:1:completed']);
  });

  it('refuses a resource its selectors exclude, and lists the playbooks runnable on a config', async () => {
    const pod = (await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, config_class, labels) VALUES ('Kubernetes::Pod', 'web-1', 'Pod', '{\"app\": \"web\"}') RETURNING id")).rows[0]!.id;
    const node = (await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, config_class) VALUES ('Kubernetes::Node', 'node-1', 'Node') RETURNING id")).rows[0]!.id;
    const id = await playbook('restart-pod', {
      configs: [{ types: ['Kubernetes::Pod'], labelSelector: 'app=web' }],
      parameters: [{ name: 'pod', label: 'Pod', default: '{{.config.name}}' }],
      actions: [{ name: 'restart', exec: { script: 'echo restarting {{.config.name}} {{.params.pod}}' } }],
    });
    const refused = await post('/api/playbook/run', { id, config_id: node });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details[0]).toMatchObject({ path: 'body.config_id' });
    expect(refused.json().details[0].message).toContain('do not select this config');
    const forPod = await t.app.inject({ method: 'GET', url: `/api/playbook/list?config_id=${pod}`, headers: t.adminHeaders });
    expect(forPod.json().map((item: { name: string }) => item.name)).toContain('restart-pod');
    const forNode = await t.app.inject({ method: 'GET', url: `/api/playbook/list?config_id=${node}`, headers: t.adminHeaders });
    expect(forNode.json().map((item: { name: string }) => item.name)).not.toContain('restart-pod');
    const params = await t.app.inject({ method: 'GET', url: `/api/playbook/${id}/params?config_id=${pod}`, headers: t.adminHeaders });
    expect(params.json().params[0]).toMatchObject({ name: 'pod', default: 'web-1' });
    const runId = await run({ id, config_id: pod });
    await waitFor(runId, ['completed']);
    expect((await actions(runId))[0].result.stdout).toBe('restarting web-1 web-1');
    const viewer = await t.userWith(['viewer']);
    expect((await post('/api/playbook/run', { id, config_id: pod }, viewer.headers)).statusCode).toBe(403);
  });

  it('runs from a webhook with basic or GitHub authentication, and from an event trigger', async () => {
    const id = await playbook('hooked', {
      on: { webhook: { path: 'deploy/web', authentication: { basic: { username: { value: 'ci' }, password: { value: 'pw' } } } } },
      actions: [{ name: 'echo', exec: { script: "echo '{{.request.json.ref}}'" } }],
    });
    const url = '/api/playbook/webhook/deploy/web';
    expect((await t.app.inject({ method: 'POST', url, payload: { ref: 'main' } })).statusCode).toBe(401);
    const ok = await t.app.inject({ method: 'POST', url, payload: { ref: 'main' }, headers: { authorization: `Basic ${Buffer.from('ci:pw').toString('base64')}` } });
    expect(ok.statusCode, ok.body).toBe(201);
    await waitFor(ok.json().run_id, ['completed']);
    expect((await actions(ok.json().run_id))[0].result.stdout).toBe('main');
    expect((await t.app.inject({ method: 'POST', url: '/api/playbook/webhook/nope', payload: {} })).statusCode).toBe(404);
    const clash = await post('/api/playbooks', { name: 'hooked-2', spec: { on: { webhook: { path: 'deploy/web', authentication: { basic: { username: { value: 'ci' }, password: { value: 'pw' } } } } }, actions: [{ name: 'a', exec: { script: 'true' } }] } });
    expect(clash.statusCode).toBe(409);

    await playbook('gh-hook', { on: { webhook: { path: 'gh', authentication: { github: { token: { value: 'gh-token' } } } } }, actions: [{ name: 'a', exec: { script: 'echo gh' } }] });
    const body = JSON.stringify({ action: 'opened' });
    const signature = `sha256=${createHmac('sha256', 'gh-token').update(body).digest('hex')}`;
    const bad = await t.app.inject({ method: 'POST', url: '/api/playbook/webhook/gh', payload: body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' } });
    expect(bad.statusCode).toBe(401);
    const good = await t.app.inject({ method: 'POST', url: '/api/playbook/webhook/gh', payload: body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });
    expect(good.statusCode, good.body).toBe(201);

    const canary = (await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('pb-trigger', 'default') RETURNING id")).rows[0]!.id;
    const check = (await t.db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, status, labels) VALUES ($1, 'api', 'http', 'api', 'unhealthy', '{\"team\": \"payments\"}') RETURNING id", [canary])).rows[0]!.id;
    const triggered = await playbook('on-failure', {
      checks: [{ types: ['http'] }],
      on: { canary: [{ event: 'failed', labels: { team: 'payments' }, filter: "check.name == 'api'" }] },
      actions: [{ name: 'note', exec: { script: 'echo {{.check.name}} {{.event.name}}' } }],
    });
    const event = (name: string): QueuedEvent => ({ id: randomUUID(), eventId: randomUUID(), name, properties: { id: check }, priority: 0, attempt: 1, maxAttempts: 3, createdAt: new Date() });
    expect(await handleTriggerEvent(t.db.pool, secretStore(t.db.pool), log, event('check.passed'))).toBe(0);
    expect(await handleTriggerEvent(t.db.pool, secretStore(t.db.pool), log, event('check.failed'))).toBe(1);
    const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM playbook_runs WHERE playbook_id = $1', [triggered]);
    await waitFor(rows[0]!.id, ['completed']);
    expect((await actions(rows[0]!.id))[0].result.stdout).toBe('api check.failed');
  });

  it('a notification with to.playbook runs the playbook on the event\'s resource; the run publishes playbook.run.completed', async () => {
    const canary = (await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('pb-notify', 'default') RETURNING id")).rows[0]!.id;
    const check = (await t.db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, status) VALUES ($1, 'db', 'postgres', 'db', 'unhealthy') RETURNING id", [canary])).rows[0]!.id;
    const id = await playbook('remediate', { checks: [{ types: ['postgres'] }], actions: [{ name: 'fix', exec: { script: 'echo fixing {{.check.name}}' } }] });
    const applied = await applyDocuments(t.db.pool, features.flatMap((feature) => feature.kinds ?? []), [{ file: 'n.yaml', text: `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: remediate-db, namespace: default}
spec:
  events: [check.failed]
  to: {playbook: default/remediate}
` }], 'ConfigFile', log);
    expect(applied.every((result) => result.ok && !result.outcome?.warnings), JSON.stringify(applied)).toBe(true);
    const engine = new NotificationEngine(t.db.pool, log, { publicUrl: '' });
    const eventId = randomUUID();
    await engine.handleEvent({ id: randomUUID(), eventId, name: 'check.failed', properties: { id: check }, priority: 0, attempt: 1, maxAttempts: 3, createdAt: new Date() });
    const { rows } = await t.db.pool.query('SELECT status, reason, playbook_run_id FROM notification_send_history WHERE event_id = $1', [eventId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'sent', reason: 'ran playbook default/remediate (run started)' });
    const done = await waitFor(rows[0].playbook_run_id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', playbook_id: id, check_id: check });
    expect((await actions(rows[0].playbook_run_id))[0].result.stdout).toBe('fixing db');
    const events = await t.db.pool.query("SELECT properties FROM event_queue WHERE name = 'playbook.run.completed' AND properties ->> 'run_id' = $1", [rows[0].playbook_run_id]);
    expect(events.rows.length).toBeGreaterThan(0);
    const resource = await loadEventResource(t.db.pool, { name: 'playbook.run.completed', properties: events.rows[0].properties });
    expect(resource).toMatchObject({ kind: 'playbook', name: 'remediate', link: `/playbooks/runs/${rows[0].playbook_run_id}` });
    expect(renderMessage({ title: null, template: null }, 'playbook.run.completed', resource!).title).toBe('Playbook remediate completed on db');
  });

  it('runs on spec.on.schedule, once per slot across two instances, and stops when the schedule is removed', async () => {
    const id = await playbook('scheduled', { on: { schedule: [{ schedule: '@every 1s' }] }, actions: [{ name: 'tick', exec: { script: 'echo tick' } }] });
    const bad = await post('/api/playbooks', { name: 'bad-schedule', spec: { on: { schedule: [{ schedule: 'every tuesday' }] }, actions: [{ name: 'a', exec: { script: 'true' } }] } });
    expect(bad.json().details[0].path).toBe('body.spec.on.schedule[0].schedule');
    const registry = () => {
      const work = new BackgroundWork();
      work.rows(scheduleRows(t.context));
      return work;
    };
    const [one, two] = await Promise.all([startTestRuntime(t.db.url, registry()), startTestRuntime(t.db.url, registry())]);
    try {
      await eventually(async () => ((await t.db.pool.query('SELECT count(*)::int AS n FROM playbook_runs WHERE playbook_id = $1', [id])).rows[0].n >= 3 ? true : undefined), 15_000, 'three scheduled runs');
    } finally {
      await Promise.all([one.stop(), two.stop()]);
    }
    const { rows } = await t.db.pool.query<{ slot: string; n: number }>("SELECT request ->> 'slot' AS slot, count(*)::int AS n FROM playbook_runs WHERE playbook_id = $1 GROUP BY 1", [id]);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    const { rows: runs } = await t.db.pool.query<{ id: string }>('SELECT id FROM playbook_runs WHERE playbook_id = $1 ORDER BY created_at LIMIT 1', [id]);
    expect((await waitFor(runs[0]!.id, ['completed'])).request).toMatchObject({ trigger: 'schedule', schedule: '@every 1s' });
    const put = await t.app.inject({ method: 'PUT', url: `/api/playbooks/${id}`, payload: { spec: { actions: [{ name: 'tick', exec: { script: 'echo tick' } }] } }, headers: t.adminHeaders });
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM playbook_schedules WHERE playbook_id = $1', [id])).rows[0].n).toBe(0);
  });

  it('refuses bad specs with paths and warns on fields it does not run', async () => {
    const bad = await post('/api/playbooks', {
      name: 'bad',
      spec: { actions: [{ name: 'a', frobnicate: {} }, { name: 'b', if: 'success( &&', exec: { script: 'echo {{ .params.x ' } }] },
    });
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().details.map((detail: { path: string }) => detail.path);
    expect(paths).toContain('body.spec.actions[0]');
    expect(paths.some((path: string) => path.startsWith('body.spec.actions[1].if'))).toBe(true);
    expect(paths.some((path: string) => path.startsWith('body.spec.actions[1].exec.script'))).toBe(true);
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM playbooks WHERE name = 'bad'")).rows[0].n).toBe(0);
    const warned = await post('/api/playbooks', {
      name: 'warned',
      spec: { runsOn: ['agent-1'], actions: [{ name: 'a', exec: { script: 'true' }, colour: 'blue' }, { name: 'p', pod: { name: 'x', spec: {} } }] },
    });
    expect(warned.statusCode, warned.body).toBe(201);
    const warnings: string[] = warned.json().warnings;
    expect(warnings.some((warning) => warning.startsWith('spec.actions[0].colour'))).toBe(true);
    // runsOn is run (an agent claims the action: server/features/agents/pull/tests): no warning.
    expect(warnings.some((warning) => warning.startsWith('spec.runsOn'))).toBe(false);
    expect(warnings.some((warning) => warning.startsWith('spec.actions[1].pod'))).toBe(true);
  });
});
