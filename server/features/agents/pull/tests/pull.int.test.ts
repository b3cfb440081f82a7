import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../../test/app';
import { createTestDatabase, type TestDatabase } from '../../../../../test/db';
import { inTransaction } from '../../../../platform/jobs/db';
import { createLogger } from '../../../../platform/logger';
import { applyDocuments } from '../../../../platform/resources';
import { secretStore } from '../../../../platform/secrets';
import { canaryKind, deleteCanary, runCanary, saveCanary } from '../../../health';
import { createRun, createRunner, type PlaybookRunner } from '../../../playbooks';
import { PullWorker } from '../agent';

const NIL = '00000000-0000-0000-0000-000000000000';
const log = createLogger('silent');

let t: TestApp;
let base: string;
let agentDb: TestDatabase;
let edge: { id: string; token: string };
let worker: PullWorker;

async function generate(name: string): Promise<{ id: string; token: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/api/agent/generate', headers: t.adminHeaders, payload: { name } });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<{ id: string; access_token: string }>();
  return { id: body.id, token: body.access_token };
}

const canaryYaml = (spec: string) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: edge-probe
  namespace: shop
  labels:
    watchkeeper.io/agent: edge-1
spec:
  schedule: "@every 30s"
  exec:
${spec}`;

async function until<T>(what: string, read: () => Promise<T | undefined>, millis = 15_000): Promise<T> {
  const end = Date.now() + millis;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  agentDb = await createTestDatabase();
  edge = await generate('edge-1');
  worker = new PullWorker(agentDb.pool, log, { url: base, token: () => edge.token, dataDir: os.tmpdir(), intervalMs: 60_000, actionPollMs: 60_000 });
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await agentDb?.drop();
  await t?.close();
});

describe('pull down: resources defined upstream for an agent', () => {
  let canaryId: string;
  let checkId: string;

  it('a canary applied upstream with the agent label is the agent\'s, never run upstream, and pulled with its ids', async () => {
    const results = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'edge.yaml', text: canaryYaml('    - name: hello\n      script: echo from-edge') }], 'ConfigFile', log);
    expect(results[0]?.errors).toEqual([]);
    const up = await t.db.pool.query('SELECT id, agent_id, upstream_origin, next_run_at, source FROM canaries WHERE name = $1', ['edge-probe']);
    expect(up.rows).toHaveLength(1);
    canaryId = up.rows[0].id;
    expect(up.rows[0]).toMatchObject({ agent_id: edge.id, upstream_origin: true, source: 'ConfigFile' });
    expect(up.rows[0].next_run_at).toBe(Infinity);
    const checks = await t.db.pool.query('SELECT id, agent_id FROM checks WHERE canary_id = $1', [canaryId]);
    expect(checks.rows).toHaveLength(1);
    checkId = checks.rows[0].id;
    expect(checks.rows[0].agent_id).toBe(edge.id);

    // Applying the same document again updates that row (found by the agent the label names), no second one.
    const again = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'edge.yaml', text: canaryYaml('    - name: hello\n      script: echo from-edge') }], 'ConfigFile', log);
    expect(again[0]?.outcome?.id).toBe(canaryId);
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM canaries WHERE name = $1', ['edge-probe'])).rows[0].n).toBe(1);

    const outcome = await worker.pullNow();
    expect(outcome).toMatchObject({ applied: 1, failed: 0 });
    const local = await agentDb.pool.query('SELECT id, agent_id, source, spec, next_run_at, deleted_at FROM canaries WHERE id = $1', [canaryId]);
    expect(local.rows[0]).toMatchObject({ agent_id: NIL, source: 'Upstream', deleted_at: null });
    expect(local.rows[0].next_run_at).not.toBe(Infinity);
    const localChecks = await agentDb.pool.query('SELECT id FROM checks WHERE canary_id = $1 AND deleted_at IS NULL', [canaryId]);
    expect(localChecks.rows.map((row) => row.id)).toEqual([checkId]);

    // The agent runs it: the result is for the check id upstream knows.
    await runCanary({ pool: agentDb.pool, log }, canaryId, new AbortController().signal);
    const statuses = await agentDb.pool.query('SELECT status FROM check_statuses WHERE check_id = $1', [checkId]);
    expect(statuses.rows).toEqual([{ status: true }]);

    // A second pull with nothing new changes nothing.
    expect(await worker.pullNow()).toMatchObject({ applied: 0, deleted: 0, failed: 0 });
  });

  it('the agent pushing its copy back up changes nothing of the definition kept upstream, and is not pulled again', async () => {
    const row = (await agentDb.pool.query('SELECT row_to_json(c) AS r FROM canaries c WHERE id = $1', [canaryId])).rows[0].r;
    const check = (await agentDb.pool.query('SELECT row_to_json(c) AS r FROM checks c WHERE id = $1', [checkId])).rows[0].r;
    const status = (await agentDb.pool.query('SELECT row_to_json(s) AS r FROM check_statuses s WHERE check_id = $1', [checkId])).rows[0].r;
    const cursorBefore = (await agentDb.pool.query('SELECT cursor FROM agent_pull_state')).rows[0].cursor;
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/api/agent/push',
      headers: { authorization: `Bearer ${edge.token}`, 'content-type': 'application/json' },
      payload: { agent: { name: 'edge-1', version: 't', hostname: 'h', heartbeat_seconds: 30 }, batch_id: crypto.randomUUID(), upserts: { canaries: [{ ...row, spec: { exec: [{ name: 'hello', script: 'echo stale' }] } }], checks: [check], check_statuses: [status] }, deletes: {} },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const up = await t.db.pool.query('SELECT source, spec, upstream_origin, next_run_at FROM canaries WHERE id = $1', [canaryId]);
    expect(up.rows[0]).toMatchObject({ source: 'ConfigFile', upstream_origin: true });
    expect(JSON.stringify(up.rows[0].spec)).toContain('from-edge');
    expect(up.rows[0].next_run_at).toBe(Infinity);
    expect((await t.db.pool.query('SELECT count(*)::int AS n FROM check_statuses WHERE check_id = $1', [checkId])).rows[0].n).toBe(1);
    const page = await t.app.inject({ method: 'GET', url: `/api/agent/pull?since=${cursorBefore}`, headers: { authorization: `Bearer ${edge.token}` } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().resources).toEqual([]);
  });

  it('a resource of the agent\'s own, pushed up, is never pulled back down', async () => {
    const own = await inTransaction(agentDb.pool, (client) =>
      saveCanary(client, { name: 'local-probe', namespace: 'shop', labels: {}, spec: { exec: [{ name: 'mine', script: 'echo mine' }] }, source: 'UI' }),
    );
    // It ran, as the scheduler runs it: an update of a local row keeps it the agent's own.
    await agentDb.pool.query("UPDATE canaries SET last_run_at = now(), next_run_at = now() + interval '30 seconds' WHERE id = $1", [own.id]);
    const row = (await agentDb.pool.query('SELECT row_to_json(c) AS r FROM canaries c WHERE id = $1', [own.id])).rows[0].r;
    expect(row.upstream_origin).toBe(false);
    const pushed = await t.app.inject({
      method: 'POST',
      url: '/api/agent/push',
      headers: { authorization: `Bearer ${edge.token}`, 'content-type': 'application/json' },
      payload: { agent: { name: 'edge-1', version: 't', hostname: 'h', heartbeat_seconds: 30 }, batch_id: crypto.randomUUID(), upserts: { canaries: [row] }, deletes: {} },
    });
    expect(pushed.statusCode, pushed.body).toBe(200);
    const up = await t.db.pool.query('SELECT agent_id, upstream_origin FROM canaries WHERE id = $1', [own.id]);
    expect(up.rows[0]).toEqual({ agent_id: edge.id, upstream_origin: false });
    const all = await t.app.inject({ method: 'GET', url: '/api/agent/pull?since=0', headers: { authorization: `Bearer ${edge.token}` } });
    expect(all.json().resources.map((resource: { id: string }) => resource.id)).not.toContain(own.id);
    expect(await worker.pullNow()).toMatchObject({ applied: 0, deleted: 0, failed: 0 });
    const local = await agentDb.pool.query('SELECT source, deleted_at FROM canaries WHERE id = $1', [own.id]);
    expect(local.rows[0]).toEqual({ source: 'UI', deleted_at: null });
  });

  it('a change upstream reaches the agent; a deletion upstream deletes it there', async () => {
    await applyDocuments(t.db.pool, [canaryKind], [{ file: 'edge.yaml', text: canaryYaml('    - name: hello\n      script: echo changed') }], 'ConfigFile', log);
    expect(await worker.pullNow()).toMatchObject({ applied: 1, failed: 0 });
    const changed = await agentDb.pool.query('SELECT spec FROM canaries WHERE id = $1', [canaryId]);
    expect(JSON.stringify(changed.rows[0].spec)).toContain('echo changed');

    await deleteCanary(t.db.pool, canaryId);
    expect(await worker.pullNow()).toMatchObject({ deleted: 1, failed: 0 });
    const gone = await agentDb.pool.query('SELECT deleted_at FROM canaries WHERE id = $1', [canaryId]);
    expect(gone.rows[0].deleted_at).not.toBeNull();
    expect((await agentDb.pool.query('SELECT count(*)::int AS n FROM checks WHERE canary_id = $1 AND deleted_at IS NULL', [canaryId])).rows[0].n).toBe(0);
  });

  it('an unknown agent in the label is refused by name, nothing written', async () => {
    const results = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'x.yaml', text: canaryYaml('    - name: x\n      script: echo x').replace('edge-1', 'nobody') }], 'ConfigFile', log);
    expect(results[0]?.ok).toBe(false);
    expect(results[0]?.errors.join(' ')).toContain('no agent is named "nobody"');
  });

  it('only an agent\'s token pulls: 401 without one, 403 for a person\'s', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/agent/pull' })).statusCode).toBe(401);
    const person = await t.app.inject({ method: 'GET', url: '/api/agent/pull', headers: t.adminHeaders });
    expect(person.statusCode).toBe(403);
    expect(person.json().message).toContain('agent-push');
    const claim = await t.app.inject({ method: 'POST', url: '/api/agent/playbook-actions/claim', headers: t.adminHeaders });
    expect(claim.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'GET', url: '/api/agent/pull?since=abc', headers: { authorization: `Bearer ${edge.token}` } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('since');
  });
});

describe('pull down: playbook actions with runsOn an agent', () => {
  let runner: PlaybookRunner;
  beforeAll(async () => {
    runner = createRunner(t.context, { pollMillis: 200 });
    await runner.start();
  });
  afterAll(async () => {
    await runner?.stop();
  });

  it('an exec action runsOn the agent is claimed, run there and its result continues the run upstream', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/playbooks',
      headers: t.adminHeaders,
      payload: {
        name: 'edge-restart',
        spec: {
          parameters: [{ name: 'who', default: 'edge' }],
          actions: [
            { name: 'remote', runsOn: ['edge-1'], exec: { script: 'echo "on-agent {{.params.who}}"' } },
            { name: 'after', exec: { script: 'echo "upstream saw {{.actions.remote.status}}"' } },
          ],
        },
      },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    expect(saved.json().warnings.filter((warning: string) => warning.includes('runsOn'))).toEqual([]);
    const playbookId = saved.json().id;
    const run = await inTransaction(t.db.pool, (client) => createRun(client, secretStore(t.db.pool), { playbookId, request: { trigger: 'manual' } }));
    await until('the action waiting for the agent', async () => {
      const { rows } = await t.db.pool.query("SELECT 1 FROM playbook_run_actions WHERE playbook_run_id = $1 AND status = 'waiting'", [run.id]);
      return rows[0];
    });
    expect((await t.db.pool.query('SELECT status FROM playbook_runs WHERE id = $1', [run.id])).rows[0].status).toBe('waiting');

    // Another agent's token gets nothing; a result for an action it was not given is 404.
    const other = await generate('edge-2');
    const none = await t.app.inject({ method: 'POST', url: '/api/agent/playbook-actions/claim', headers: { authorization: `Bearer ${other.token}` } });
    expect(none.json()).toEqual({ action: null });

    expect(await worker.claimNow()).toBe(1);
    await worker.settled();
    const done = await until('the run to end', async () => {
      const { rows } = await t.db.pool.query('SELECT status, error FROM playbook_runs WHERE id = $1', [run.id]);
      return ['completed', 'failed'].includes(rows[0].status) ? rows[0] : undefined;
    });
    expect(done).toEqual({ status: 'completed', error: null });
    const actions = await t.db.pool.query('SELECT name, status, result, agent_id, agent_input FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index', [run.id]);
    expect(actions.rows[0]).toMatchObject({ name: 'remote', status: 'completed', agent_id: edge.id, agent_input: null });
    expect(actions.rows[0].result.stdout).toContain('on-agent edge');
    expect(actions.rows[1]).toMatchObject({ name: 'after', status: 'completed', agent_id: null });
    expect(actions.rows[1].result.stdout).toContain('upstream saw completed');
  });

  it('a lease that runs out gives the action out again; the first claim\'s result is then refused', async () => {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/playbooks',
      headers: t.adminHeaders,
      payload: { name: 'edge-lease', spec: { actions: [{ name: 'remote', runsOn: ['edge-1'], exec: { script: 'echo hi' } }] } },
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const run = await inTransaction(t.db.pool, (client) => createRun(client, secretStore(t.db.pool), { playbookId: saved.json().id, request: { trigger: 'manual' } }));
    await until('the action waiting for the agent', async () => {
      const { rows } = await t.db.pool.query("SELECT id FROM playbook_run_actions WHERE playbook_run_id = $1 AND status = 'waiting'", [run.id]);
      return rows[0];
    });
    const auth = { authorization: `Bearer ${edge.token}` };
    // The claim says which action input version the agent runs (the version that resolves secrets on the agent).
    const claim = () => t.app.inject({ method: 'POST', url: '/api/agent/playbook-actions/claim', headers: auth, payload: { inputVersion: 2 } });
    const first = (await claim()).json().action;
    expect(first).toMatchObject({ claim: 1, type: 'exec', agent: 'edge-1', version: 2 });
    expect((await claim()).json().action).toBeNull();
    await t.db.pool.query("UPDATE playbook_run_actions SET agent_lease_until = now() - interval '1 second' WHERE id = $1", [first.id]);
    const second = (await claim()).json().action;
    expect(second).toMatchObject({ id: first.id, claim: 2 });
    const late = await t.app.inject({ method: 'POST', url: `/api/agent/playbook-actions/${first.id}/result`, headers: auth, payload: { claim: 1, status: 'completed', result: {} } });
    expect(late.statusCode).toBe(409);
    const badBody = await t.app.inject({ method: 'POST', url: `/api/agent/playbook-actions/${first.id}/result`, headers: auth, payload: { claim: 2, status: 'fine' } });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.body).toContain('status');
    const ok = await t.app.inject({ method: 'POST', url: `/api/agent/playbook-actions/${first.id}/result`, headers: auth, payload: { claim: 2, status: 'failed', result: { exitCode: 3 }, error: 'exit status 3' } });
    expect(ok.statusCode, ok.body).toBe(200);
    const ended = await until('the run to end', async () => {
      const { rows } = await t.db.pool.query('SELECT status, error FROM playbook_runs WHERE id = $1', [run.id]);
      return ['completed', 'failed'].includes(rows[0].status) ? rows[0] : undefined;
    });
    expect(ended).toEqual({ status: 'failed', error: 'action remote failed: exit status 3' });
  });
});
