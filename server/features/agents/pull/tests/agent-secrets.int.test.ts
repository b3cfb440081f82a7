import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../../test/app';
import { createTestDatabase, type TestDatabase } from '../../../../../test/db';
import { inTransaction } from '../../../../platform/jobs/db';
import { createLogger } from '../../../../platform/logger';
import { applyDocuments } from '../../../../platform/resources';
import { secretStore } from '../../../../platform/secrets';
import { REDACTED } from '../../../../platform/secrets/redact';
import { connectionKind, secretKind } from '../../../connections';
import { createRun, createRunner, type PlaybookRunner } from '../../../playbooks';
import { PullWorker } from '../agent';

/**
 * Issue 35: an action that runs on an agent (runsOn) resolves its secrets on the agent. Upstream gives the agent
 * the action as written, its data and the env as written — never a value it read from its own Secrets or
 * connections; the agent resolves the references from its own, runs the action, and sends the result without
 * the values it resolved. A reference the agent cannot resolve fails the action saying where it was looked up.
 */

const log = createLogger('silent');
const AGENT = 'edge-s';
const CENTRAL_SECRET = 'cEntral-only-s3cret-5c1e';
const CENTRAL_CONNECTION_PASSWORD = 'cEntral-conn-pw-88d2';
const EDGE_SECRET = 'eDge-only-s3cret-a7f4';
const EDGE_CONNECTION_PASSWORD = 'eDge-conn-pw-3b9e';

/** A value as written and in the forms a JSON body or a script commonly carries it (base64, URL-encoded). */
const forms = (value: string) => [value, Buffer.from(value).toString('base64').replace(/=+$/, ''), encodeURIComponent(value)];

let t: TestApp;
let base: string;
let agentDb: TestDatabase;
let token: string;
let worker: PullWorker;
let runner: PlaybookRunner;
let peer: http.Server;
let peerUrl: string;
/** The Basic credentials the agent's http action sent to the peer. */
const peerSaw: string[] = [];
/** Every claim answer the agent received, as the text that came over the wire. */
const claimAnswers: string[] = [];

async function until<T>(what: string, read: () => Promise<T | undefined>, millis = 20_000): Promise<T> {
  const end = Date.now() + millis;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function startRun(name: string, spec: Record<string, unknown>): Promise<string> {
  const saved = await t.app.inject({ method: 'POST', url: '/api/playbooks', headers: t.adminHeaders, payload: { name, spec } });
  expect(saved.statusCode, saved.body).toBe(201);
  const run = await inTransaction(t.db.pool, (client) => createRun(client, secretStore(t.db.pool), { playbookId: saved.json().id, request: { trigger: 'manual' } }));
  return run.id;
}

async function waiting(runId: string): Promise<{ id: string; agent_input: string }> {
  return until('the action waiting for the agent', async () => {
    const { rows } = await t.db.pool.query<{ id: string; agent_input: string }>("SELECT id, agent_input FROM playbook_run_actions WHERE playbook_run_id = $1 AND status = 'waiting'", [runId]);
    return rows[0];
  });
}

async function ended(runId: string): Promise<{ status: string; error: string | null }> {
  return until('the run to end', async () => {
    const { rows } = await t.db.pool.query<{ status: string; error: string | null }>('SELECT status, error FROM playbook_runs WHERE id = $1', [runId]);
    return rows[0] && ['completed', 'failed', 'timed_out'].includes(rows[0].status) ? rows[0] : undefined;
  });
}

async function storedActions(runId: string): Promise<Array<{ name: string; status: string; result: Record<string, unknown>; error: string | null; agent_input: string | null }>> {
  const { rows } = await t.db.pool.query('SELECT name, status, result, error, agent_input FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count', [runId]);
  return rows;
}

/** The agent claims what waits for it and runs it; answers the claim answers it received meanwhile. */
async function agentRuns(): Promise<string> {
  const from = claimAnswers.length;
  expect(await worker.claimNow()).toBeGreaterThan(0);
  await worker.settled();
  return claimAnswers.slice(from).join('\n');
}

beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
  agentDb = await createTestDatabase();
  peer = http.createServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : '';
    peerSaw.push(decoded);
    res.writeHead(200, { 'content-type': 'application/json' });
    // A peer that repeats what it was sent: the agent must not send the password back up.
    res.end(JSON.stringify({ you: decoded }));
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;

  const generated = await t.app.inject({ method: 'POST', url: '/api/agent/generate', headers: t.adminHeaders, payload: { name: AGENT } });
  expect(generated.statusCode, generated.body).toBe(200);
  token = generated.json().access_token;

  // Upstream's own secret and connection: never sent to the agent.
  const central = await applyDocuments(t.db.pool, [connectionKind, secretKind], [{
    file: 'central.yaml',
    text: `apiVersion: v1
kind: Secret
metadata: {name: central-only}
stringData: {password: ${CENTRAL_SECRET}}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: central-api}
spec:
  http:
    url: ${peerUrl}/central
    username: central
    password: ${CENTRAL_CONNECTION_PASSWORD}
`,
  }], 'ConfigFile', log);
  expect(central.map((result) => result.errors)).toEqual([[], []]);
  // The agent's own: upstream has neither.
  const edge = await applyDocuments(agentDb.pool, [connectionKind, secretKind], [{
    file: 'edge.yaml',
    text: `apiVersion: v1
kind: Secret
metadata: {name: edge-only}
stringData: {password: ${EDGE_SECRET}}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: edge-api}
spec:
  http:
    url: ${peerUrl}/edge
    username: edge
    password: ${EDGE_CONNECTION_PASSWORD}
`,
  }], 'ConfigFile', log);
  expect(edge.map((result) => result.errors)).toEqual([[], []]);

  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (String(input).endsWith('/api/agent/playbook-actions/claim')) claimAnswers.push(await response.clone().text());
    return response;
  };
  worker = new PullWorker(agentDb.pool, log, { url: base, token: () => token, dataDir: os.tmpdir(), intervalMs: 60_000, actionPollMs: 60_000, fetch: recording });
  runner = createRunner(t.context, { pollMillis: 200 });
  await runner.start();
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await runner?.stop();
  await new Promise((resolve) => peer?.close(resolve));
  await agentDb?.drop();
  await t?.close();
});

describe('runsOn: the agent resolves the action\'s secrets itself', () => {
  it('a secret and a connection only the agent has are resolved there; the action succeeds and the stored result holds neither', async () => {
    const runId = await startRun('edge-own-secrets', {
      parameters: [{ name: 'who', default: 'edge' }],
      env: [
        { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'edge-only', key: 'password' } } },
        { name: 'GREETING', value: 'hi {{.params.who}}' },
      ],
      actions: [
        {
          name: 'script',
          runsOn: [AGENT],
          exec: { script: 'printf %s "$PASSWORD" | sha256sum | cut -c1-64\necho "env=$PASSWORD tmpl={{.env.PASSWORD}} greet={{.env.GREETING}}"' },
        },
        { name: 'call', runsOn: [AGENT], http: { connection: 'connection://default/edge-api', method: 'GET' } },
      ],
    });
    const { agent_input: sealed } = await waiting(runId);
    // What upstream keeps for the agent names the Secret, and holds no value of it (upstream has none to give).
    const input = secretStore(t.db.pool).reveal(sealed);
    expect(input).toContain('edge-only');
    expect(input).not.toContain(EDGE_SECRET);

    await agentRuns();
    await waiting(runId);
    await agentRuns();
    expect(await ended(runId)).toEqual({ status: 'completed', error: null });

    const [script, call] = await storedActions(runId);
    // The script saw the agent's value (its hash matches), through the env and the .env template alike.
    const stdout = String(script?.result.stdout);
    expect(stdout.split('\n')[0]).toBe(createHash('sha256').update(EDGE_SECRET).digest('hex'));
    expect(stdout).toContain(`env=${REDACTED} tmpl=${REDACTED} greet=hi edge`);
    // The http action used the agent's connection, and its answer (which repeated the password) is stored redacted.
    expect(peerSaw).toContain(`edge:${EDGE_CONNECTION_PASSWORD}`);
    expect(call).toMatchObject({ status: 'completed', error: null });
    expect(JSON.stringify(call?.result)).toContain(REDACTED);
    const stored = JSON.stringify(await storedActions(runId));
    for (const form of [...forms(EDGE_SECRET), ...forms(EDGE_CONNECTION_PASSWORD)]) expect(stored.includes(form), `the stored actions hold ${form}`).toBe(false);
  });

  it('a secret only upstream has is not in what the agent claims; the agent fails the action naming the reference and itself', async () => {
    const runId = await startRun('edge-central-secret', {
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'central-only', key: 'password' } } }],
      actions: [{ name: 'remote', runsOn: [AGENT], exec: { script: 'echo "token=$TOKEN"' } }],
    });
    const { agent_input: sealed } = await waiting(runId);
    // The sealed input, decrypted as the claim decrypts it, and the claim answer the agent received: the reference, no value.
    const input = secretStore(t.db.pool).reveal(sealed);
    expect(input).toContain('central-only');
    const answer = await agentRuns();
    expect(answer).toContain('central-only');
    for (const text of [input, answer]) for (const form of forms(CENTRAL_SECRET)) expect(text.includes(form), `the agent was given ${form}`).toBe(false);

    const message = `spec.env[0]: valueFrom.secretKeyRef (name "central-only", key "password"): secret "central-only" not found in namespace "default" (looked up on agent "${AGENT}")`;
    expect(await ended(runId)).toEqual({ status: 'failed', error: `action remote failed: ${message}` });
    expect((await storedActions(runId))[0]).toMatchObject({ status: 'failed', error: message, agent_input: null });
  });

  it('a connection only upstream has is not in what the agent claims; the agent fails the action naming it and itself', async () => {
    const runId = await startRun('edge-central-connection', {
      actions: [{ name: 'remote', runsOn: [AGENT], http: { connection: 'connection://default/central-api', method: 'GET' } }],
    });
    const { agent_input: sealed } = await waiting(runId);
    const input = secretStore(t.db.pool).reveal(sealed);
    const answer = await agentRuns();
    expect(answer).toContain('central-api');
    for (const text of [input, answer]) for (const form of forms(CENTRAL_CONNECTION_PASSWORD)) expect(text.includes(form), `the agent was given ${form}`).toBe(false);
    const message = `http.connection: connection "default/central-api" not found (looked up on agent "${AGENT}")`;
    expect(await ended(runId)).toEqual({ status: 'failed', error: `action remote failed: ${message}` });
    expect(peerSaw.some((credentials) => credentials.includes(CENTRAL_CONNECTION_PASSWORD))).toBe(false);
  });
});

describe('runsOn: inputs of earlier versions', () => {
  it('an action sealed in the earlier shape (rendered upstream, env resolved) is not given to the agent: it fails saying why', async () => {
    const runId = await startRun('edge-old-row', { actions: [{ name: 'remote', runsOn: [AGENT], exec: { script: 'echo hi' } }] });
    const { id } = await waiting(runId);
    const old = secretStore(t.db.pool).encrypt(JSON.stringify({
      spec: { name: 'remote', exec: { script: 'echo hi' } }, env: { TOKEN: 'resolved-upstream' }, templateData: {}, namespace: 'default',
      playbook: { id: 'x', name: 'edge-old-row', namespace: 'default' }, timeoutMillis: null, redact: ['resolved-upstream'],
    }));
    await t.db.pool.query('UPDATE playbook_run_actions SET agent_input = $2 WHERE id = $1', [id, old]);
    expect(await worker.claimNow()).toBe(0);
    expect(claimAnswers.at(-1)).toBe('{"action":null}');
    const ended_ = await ended(runId);
    expect(ended_.status).toBe('failed');
    expect(ended_.error).toContain(`this action was queued for agent "${AGENT}" by an earlier version of this console, which resolved its secrets here: it is not given to the agent`);
  });

  it('an agent of an earlier version (its claim names no input version) is not given the action: it fails saying to upgrade the agent', async () => {
    const runId = await startRun('edge-old-agent', { actions: [{ name: 'remote', runsOn: [AGENT], exec: { script: 'echo hi' } }] });
    await waiting(runId);
    const claim = await t.app.inject({ method: 'POST', url: '/api/agent/playbook-actions/claim', headers: { authorization: `Bearer ${token}` } });
    expect(claim.statusCode, claim.body).toBe(200);
    expect(claim.json()).toEqual({ action: null });
    expect(await ended(runId)).toEqual({
      status: 'failed',
      error: `action remote failed: agent "${AGENT}" runs an earlier version, which cannot resolve an action's secrets on the agent: upgrade it, then run the playbook again`,
    });
    const bad = await t.app.inject({ method: 'POST', url: '/api/agent/playbook-actions/claim', headers: { authorization: `Bearer ${token}` }, payload: { inputVersion: 'two' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('inputVersion');
  });
});
