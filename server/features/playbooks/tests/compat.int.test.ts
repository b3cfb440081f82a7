import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { createRunner } from '../index';
import type { PlaybookRunner } from '../runner';

/**
 * Compatibility of the Playbook kind (docs/PLAYBOOKS.md): the examples in examples/playbooks apply without
 * a warning and run, and playbook files in Mission Control's format apply unchanged, any warning naming the
 * field it is about. Those files (tests/fixtures/compat) are our own, written from docs/PLAYBOOKS.md to
 * exercise the format's actions, parameters, conditions, retries, approvals and triggers; Mission Control's
 * own fixtures are read at run time by test/peer-suite/mission-control.int.test.ts, never copied here
 * (DESIGN §8, §9).
 */

const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const EXAMPLES = path.join(ROOT, 'examples', 'playbooks');
const FIXTURES = path.join(ROOT, 'server', 'features', 'playbooks', 'tests', 'fixtures', 'compat');

/**
 * Fixtures this console refuses today: compatibility bugs, each test marked `it.fails` so the suite stays
 * green and turns red (asking for the mark to go) once the bug is fixed.
 */
const KNOWN_REFUSALS: Record<string, string> = {};

let t: TestApp;
let runner: PlaybookRunner | undefined;

async function apply(file: string, text: string) {
  return applyDocuments(t.db.pool, kinds, [{ file, text }], 'ConfigFile', log);
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

async function actionRows(runId: string) {
  return (await t.db.pool.query('SELECT name, status, result, error FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, retry_count', [runId])).rows;
}

async function playbookId(name: string): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM playbooks WHERE name = $1 AND deleted_at IS NULL', [name]);
  expect(rows[0], `playbook ${name}`).toBeDefined();
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  runner = createRunner(t.context, { pollMillis: 200, leaseMillis: 3_000 });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await t?.close();
});

describe('examples/playbooks', () => {
  it('every file applies as it is, without errors or warnings', async () => {
    const files = (await readdir(EXAMPLES)).filter((file) => file.endsWith('.yaml')).sort();
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const file of files) {
      const results = await apply(file, await readFile(path.join(EXAMPLES, file), 'utf8'));
      expect(results.some((result) => result.kind === 'Playbook'), file).toBe(true);
      for (const result of results) {
        expect(result, `${file} #${result.index}`).toMatchObject({ ok: true, errors: [] });
        expect(result.outcome?.warnings ?? [], `${file} #${result.index}`).toEqual([]);
      }
    }
  });

  it('restart-deployment runs on a deployment with its templated default', async () => {
    const config = (await t.db.pool.query<{ id: string }>(
      "INSERT INTO config_items (type, name, namespace, config_class, config) VALUES ('Kubernetes::Deployment', 'frontend', 'shop', 'Deployment', '{\"spec\": {\"replicas\": 3}}') RETURNING id",
    )).rows[0]!.id;
    const id = await playbookId('restart-deployment');
    const short = await t.app.inject({ method: 'POST', url: '/api/playbook/run', headers: t.adminHeaders, payload: { id, config_id: config, params: { reason: 'no' } } });
    expect(short.json().details).toEqual([{ path: 'body.params.reason', message: 'This field must be at least 5 characters' }]);
    const started = await t.app.inject({ method: 'POST', url: '/api/playbook/run', headers: t.adminHeaders, payload: { id, config_id: config, params: { reason: 'stuck rollout' } } });
    expect(started.statusCode, started.body).toBe(201);
    expect((await waitFor(started.json().run_id, ['completed', 'failed'])).status).toBe('completed');
    const [restart] = await actionRows(started.json().run_id);
    expect(restart.result.stdout).toContain('kubectl rollout restart deployment/frontend --namespace shop');
    expect(restart.result.stdout).toContain('reason: stuck rollout');

    const scale = await t.app.inject({ method: 'POST', url: '/api/playbook/run', headers: t.adminHeaders, payload: { id: await playbookId('scale-deployment'), config_id: config } });
    expect(scale.statusCode, scale.body).toBe(201);
    expect(scale.json().status).toBe('pending_approval');
    const params = (await t.db.pool.query('SELECT parameters FROM playbook_runs WHERE id = $1', [scale.json().run_id])).rows[0].parameters;
    expect(params).toEqual({ replicas: '3' });
  });

  it('deploy-finished runs from its webhook with basic authentication', async () => {
    const url = '/api/playbook/webhook/deploy-finished';
    const payload = { service: 'checkout', version: '1.4.2' };
    expect((await t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Basic ${Buffer.from('deployer:wrong').toString('base64')}` } })).statusCode).toBe(401);
    const ok = await t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Basic ${Buffer.from('deployer:change-me').toString('base64')}`, 'user-agent': 'ci/1' } });
    expect(ok.statusCode, ok.body).toBe(201);
    const runId = ok.json().run_id as string;
    await waitFor(runId, ['sleeping']);
    const [record] = await actionRows(runId);
    expect(record.result.stdout).toBe('deployed checkout 1.4.2 (from ci/1)');
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/playbook/run/cancel/${runId}`, headers: t.adminHeaders, payload: {} });
    expect(cancelled.json()).toEqual({ status: 'cancelled' });
  });
});

describe('playbook files in Mission Control\'s format (tests/fixtures/compat)', async () => {
  const files = (await readdir(FIXTURES)).filter((file) => file.endsWith('.yaml')).sort();

  it('are our own and use every action and parameter type the format\'s fixtures rely on', async () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
    const texts = await Promise.all(files.map((file) => readFile(path.join(FIXTURES, file), 'utf8')));
    for (const [index, text] of texts.entries()) expect(text, files[index]).not.toMatch(/flanksource\/mission-control|^# Source:/m);
    const all = texts.join('\n');
    for (const action of ['exec', 'http', 'sql', 'notification', 'logs', 'gitops']) expect(all, action).toMatch(new RegExp(`^ {6}${action}:$`, 'm'));
    for (const type of ['text', 'checkbox', 'team', 'people', 'component', 'config', 'code', 'list', 'secret']) expect(all, type).toMatch(new RegExp(`^ {6}type: ${type}$`, 'm'));
    for (const field of ['retry:', 'approval:', 'webhook:', 'component:', 'delay:', 'if:']) expect(all, field).toContain(field);
  });

  for (const file of files) {
    const known = KNOWN_REFUSALS[file];
    (known ? it.fails : it)(`${file} applies unchanged${known ? ` (refused today: ${known})` : ''}`, async () => {
      const results = await apply(file, await readFile(path.join(FIXTURES, file), 'utf8'));
      expect(results.length, file).toBeGreaterThan(0);
      for (const result of results) {
        expect(result, `${file} #${result.index}`).toMatchObject({ ok: true, errors: [] });
        for (const warning of result.outcome?.warnings ?? []) expect(warning, `${file} #${result.index}`).toMatch(/^spec\./);
      }
    });
  }

  it('fields the console does not read, and events it never emits, are warned by name', async () => {
    const warnings = async (file: string) => (await apply(file, await readFile(path.join(FIXTURES, file), 'utf8'))).flatMap((result) => result.outcome?.warnings ?? []);
    expect(await warnings('post-status.yaml')).toEqual(['spec.actions[0].http.thresholdMillis is not read by this console and was ignored']);
    expect(await warnings('vacuum-on-alarm.yaml')).toEqual([expect.stringMatching(/^spec\.on\.component\[1\]\.event: "error" never happens here/)]);
    expect(await warnings('berth-report.yaml')).toEqual([
      expect.stringMatching(/^spec\.parameters\[0\]\.type: "configs" is not a parameter type here \(.*\); read as text$/),
      'spec.actions[0].report is not run by this console: Mission Control renders the report with its facet renderer (a TSX template to HTML or PDF), which this console does not have; this action fails when the run reaches it',
    ]);
    const { rows } = await t.db.pool.query("SELECT name FROM playbooks WHERE namespace = 'harbour' AND deleted_at IS NULL ORDER BY name");
    expect(rows.map((row) => row.name)).toEqual(files.map((file) => file.replace(/\.yaml$/, '')));
  });
});
