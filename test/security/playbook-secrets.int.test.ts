import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetScopes } from '../../common/rbac';
import { connectionKind, secretKind } from '../../server/features/connections/kinds';
import { callTool, connect, tokenFor } from '../../server/features/mcp/tests/client';
import { createRunner } from '../../server/features/playbooks';
import type { PlaybookRunner } from '../../server/features/playbooks/runner';
import { createLogger } from '../../server/platform/logger';
import { applyDocuments } from '../../server/platform/resources';
import { REDACTED } from '../../server/platform/secrets/redact';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35 finding 8: secrets a playbook run uses (a `type: secret` parameter, an `env` from a Secret, an
 * action's own env from a Secret) are used in clear by the actions but never stored or answered in clear:
 * not in the rendered script (result.args), stdout, stderr, the action's or the run's error, artifacts,
 * events, nor through /api/db, rpc/get_playbook_run_actions or MCP get_playbook_run.
 */

let t: TestApp;
let runner: PlaybookRunner | undefined;
let viewer: { id: string; headers: Record<string, string> };
let base: string;
const log = createLogger('silent');

const PARAM_SECRET = 'pArAm-s3cret-9d1f';
const ENV_SECRET = 'eNv-s3cret-77a2c';
const ACTION_SECRET = 'aCtion-s3cret-41b0';
const ALL = [PARAM_SECRET, ENV_SECRET, ACTION_SECRET];
/** The forms a script may print a value in: as is, base64 and URL-encoded (none may be stored). */
const forms = (value: string) => [value, Buffer.from(value).toString('base64').replace(/=+$/, '')];

function expectClean(text: string, where: string): void {
  for (const secret of ALL) for (const form of forms(secret)) expect(text.includes(form), `${where} holds ${form}`).toBe(false);
}

async function waitFor(id: string, statuses: string[], millis = 20_000): Promise<Record<string, unknown>> {
  const until = Date.now() + millis;
  for (;;) {
    const { rows } = await t.db.pool.query('SELECT * FROM playbook_runs WHERE id = $1', [id]);
    if (statuses.includes(rows[0]?.status)) return rows[0];
    if (Date.now() > until) throw new Error(`run ${id} is ${rows[0]?.status}, not ${statuses.join('|')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function playbook(name: string, spec: Record<string, unknown>): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/playbooks', payload: { name, spec }, headers: t.adminHeaders });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function run(id: string, params: Record<string, string> = {}): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url: '/api/playbook/run', payload: { id, params }, headers: t.adminHeaders });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().run_id;
}

/** Everything a viewer reads of a run, and every stored row of it, as one text per place. */
async function everywhere(runId: string): Promise<Record<string, string>> {
  const get = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, headers: viewer.headers });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.body;
  };
  const { token } = await tokenFor(t, ['viewer'], presetScopes('Admin'));
  const client = await connect(base, token);
  let mcp: string;
  try {
    const answer = await callTool<Record<string, unknown>>(client, 'get_playbook_run', { id: runId });
    expect(answer.isError, answer.text).toBe(false);
    mcp = answer.text;
  } finally {
    await client.close();
  }
  const pool = t.db.pool;
  const artifacts = await pool.query<{ path: string; filename: string; content: Buffer; content_encoding: string }>(
    'SELECT a.path, a.filename, a.content, a.content_encoding FROM artifacts a JOIN playbook_run_actions r ON r.id = a.playbook_run_action_id WHERE r.playbook_run_id = $1',
    [runId],
  );
  return {
    'GET /api/db/playbook_runs': await get(`/api/db/playbook_runs?id=eq.${runId}`),
    'GET /api/db/playbook_run_actions': await get(`/api/db/playbook_run_actions?playbook_run_id=eq.${runId}`),
    'GET /api/db/rpc/get_playbook_run_actions': await get(`/api/db/rpc/get_playbook_run_actions?run_id=${runId}`),
    'MCP get_playbook_run': mcp,
    'table playbook_runs': JSON.stringify((await pool.query('SELECT * FROM playbook_runs WHERE id = $1', [runId])).rows),
    'table playbook_run_actions': JSON.stringify((await pool.query('SELECT * FROM playbook_run_actions WHERE playbook_run_id = $1', [runId])).rows),
    'table artifacts': JSON.stringify(
      artifacts.rows.map((row) => ({ path: row.path, filename: row.filename, content: (row.content_encoding === 'gzip' ? gunzipSync(row.content) : row.content).toString('utf8') })),
    ),
    'table event_queue': JSON.stringify((await pool.query("SELECT name, properties FROM event_queue WHERE properties->>'run_id' = $1", [runId])).rows),
  };
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  viewer = await t.userWith(['viewer']);
  const results = await applyDocuments(
    t.db.pool,
    [connectionKind, secretKind],
    [{ file: 'secrets.yaml', text: `apiVersion: v1\nkind: Secret\nmetadata: {name: run-secrets}\nstringData: {env: ${ENV_SECRET}, action: ${ACTION_SECRET}}\n` }],
    'ConfigFile',
    log,
  );
  expect(results.map((result) => result.errors)).toEqual(results.map(() => []));
  runner = createRunner(t.context, { pollMillis: 200, leaseMillis: 3_000 });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

describe('secrets of a playbook run never leave in clear', () => {
  it('a secret parameter and env from Secrets, echoed and put in an error, are [redacted] in every answer and row', async () => {
    const id = await playbook('secret-echo', {
      parameters: [{ name: 'token', label: 'Token', type: 'secret', required: true }],
      env: [{ name: 'ENV_TOKEN', valueFrom: { secretKeyRef: { name: 'run-secrets', key: 'env' } } }],
      actions: [
        {
          name: 'echo',
          exec: {
            script: [
              'echo "param={{.params.token}} env=$ENV_TOKEN action=$ACTION_TOKEN"',
              'printf %s "{{.params.token}}" | base64',
              'printf %s "$ENV_TOKEN" | base64',
              'echo "stderr {{.params.token}} $ENV_TOKEN $ACTION_TOKEN" >&2',
              // The action sees the real values: their digests prove it without printing them.
              'printf %s "{{.params.token}}|$ENV_TOKEN|$ACTION_TOKEN" | sha256sum | cut -c1-16 > digest.txt',
              'cat digest.txt',
            ].join('\n'),
            env: [{ name: 'ACTION_TOKEN', valueFrom: { secretKeyRef: { name: 'run-secrets', key: 'action' } } }],
            artifacts: [{ path: '/dev/stdout' }],
          },
        },
        { name: 'fail', exec: { script: 'echo "cannot use {{.params.token}} with $ENV_TOKEN" >&2\nexit 3' } },
      ],
    });
    const runId = await run(id, { token: PARAM_SECRET });
    const done = await waitFor(runId, ['completed', 'failed']);
    expect(done.status).toBe('failed');

    const { rows } = await t.db.pool.query<{ name: string; status: string; result: Record<string, unknown>; error: string | null }>(
      'SELECT name, status, result, error FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index',
      [runId],
    );
    const [echo, fail] = rows;
    expect(echo?.status).toBe('completed');
    const digest = createHash('sha256').update(`${PARAM_SECRET}|${ENV_SECRET}|${ACTION_SECRET}`).digest('hex').slice(0, 16);
    expect(String(echo?.result.stdout)).toContain(digest);
    expect(echo?.result.stdout).toBe(`param=${REDACTED} env=${REDACTED} action=${REDACTED}\n${REDACTED}\n${REDACTED}\n${digest}`);
    expect(echo?.result.stderr).toBe(`stderr ${REDACTED} ${REDACTED} ${REDACTED}`);
    expect(JSON.stringify(echo?.result.args)).not.toContain(PARAM_SECRET);
    expect(fail?.status).toBe('failed');
    expect(fail?.error).toBe(`exit code 3: cannot use ${REDACTED} with ${REDACTED}`);
    expect(done.error).toBe(`action fail failed: exit code 3: cannot use ${REDACTED} with ${REDACTED}`);

    const seen = await everywhere(runId);
    for (const [where, text] of Object.entries(seen)) expectClean(text, where);
    for (const where of ['GET /api/db/playbook_runs', 'GET /api/db/playbook_run_actions', 'GET /api/db/rpc/get_playbook_run_actions', 'MCP get_playbook_run', 'table artifacts']) {
      expect(seen[where], where).toContain(REDACTED);
    }
  });

  it('a secret shorter than the minimum is replaced only where it is the whole text', async () => {
    const id = await playbook('short-secret', {
      parameters: [{ name: 'pin', label: 'PIN', type: 'secret', required: true }],
      actions: [
        { name: 'whole', exec: { script: 'printf %s "{{.params.pin}}"' } },
        { name: 'inside', exec: { script: 'echo "a {{.params.pin}} b"' } },
      ],
    });
    const runId = await run(id, { pin: 'a' });
    expect((await waitFor(runId, ['completed', 'failed'])).status).toBe('completed');
    const { rows } = await t.db.pool.query<{ result: { stdout: string } }>('SELECT result FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index', [runId]);
    expect(rows.map((row) => row.result.stdout)).toEqual([REDACTED, 'a a b']);
  });
});
