import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../../test/cli';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { evaluateIncidentRules } from '../rules/engine';
import { incidentRuleKind } from '../rules/kind';

let t: TestApp;
const log = createLogger('silent');

beforeAll(async () => {
  t = await createTestApp();
  await t.db.pool.query(`
    WITH canary AS (INSERT INTO canaries (name) VALUES ('web') RETURNING id),
    chk AS (
      INSERT INTO checks (canary_id, key, type, name, status, labels)
      SELECT id, k.key, 'http', k.name, k.status, '{"team": "web"}' FROM canary,
        (VALUES ('http/api', 'api', 'unhealthy'), ('http/flaky', 'flaky', 'unhealthy'), ('http/home', 'home', 'healthy')) AS k(key, name, status)
      RETURNING id, name
    )
    INSERT INTO check_statuses (check_id, time, status)
    SELECT chk.id, now() - make_interval(mins => n), CASE chk.name WHEN 'api' THEN false WHEN 'flaky' THEN n <> 2 ELSE true END
    FROM chk, generate_series(1, 3) AS n;
    INSERT INTO config_items (type, name, namespace, health, labels) VALUES
      ('Kubernetes::Deployment', 'cart', 'shop', 'unhealthy', '{"app": "cart"}'),
      ('Kubernetes::Deployment', 'search', 'shop', 'healthy', '{"app": "search"}');
  `);
});

afterAll(async () => {
  await t?.close();
});

async function post(url: string, body: unknown, headers = t.adminHeaders) {
  const res = await t.app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
  return { status: res.statusCode, json: (): { id?: string; details?: unknown } => JSON.parse(res.body) };
}

describe('incident rules', () => {
  it('refuses a rule without anything to watch or with a bad template, by field', async () => {
    const res = await post('/api/incident/rules', { name: 'bad', spec: { template: { severity: 'apocalyptic' } } });
    expect(res.status).toBe(400);
    expect(res.json().details).toEqual(
      expect.arrayContaining([
        { path: 'body.spec.template.severity', message: 'must be one of info, warning, low, medium, high, critical, blocker' },
        { path: 'body.spec.checks', message: 'a rule watches checks, components or configs: give at least one selector' },
      ]),
    );
    const viewer = await t.userWith(['viewer']);
    expect((await post('/api/incident/rules', { name: 'x', spec: { checks: [{ name: '*' }] } }, viewer.headers)).status).toBe(403);
  });

  it('opens one incident per check failing N runs in a row, with a hypothesis and the check as evidence, and no duplicate', async () => {
    const created = await post('/api/incident/rules', {
      name: 'web-checks',
      spec: { checks: [{ labels: { team: 'web' } }], failures: 2, template: { title: '{{name}} check keeps failing', severity: 'high' } },
    });
    expect(created.status).toBe(201);
    const first = await evaluateIncidentRules(t.db.pool, log);
    // api failed its last 3 runs; flaky passed its latest; home is healthy.
    expect(first).toMatchObject({ rules: 1, opened: 1 });
    const { rows } = await t.db.pool.query(
      `SELECT i.title, i.severity, i.status, h.title AS hypothesis, e.type, e.evidence->'snapshot'->>'name' AS snapshot
       FROM incidents i JOIN hypotheses h ON h.incident_id = i.id JOIN evidences e ON e.hypothesis_id = h.id WHERE i.incident_rule_id = $1`,
      [created.json().id],
    );
    expect(rows).toEqual([{ title: 'api check keeps failing', severity: 'high', status: 'open', hypothesis: 'api check keeps failing', type: 'check', snapshot: 'api' }]);
    expect((await evaluateIncidentRules(t.db.pool, log)).opened).toBe(0);
    // Once resolved, a new failure may open a new one.
    await t.db.pool.query("UPDATE incidents SET status = 'resolved' WHERE incident_rule_id = $1", [created.json().id]);
    expect((await evaluateIncidentRules(t.db.pool, log)).opened).toBe(1);
    const history = await t.db.pool.query("SELECT h.type, h.created_by FROM incident_histories h JOIN incidents i ON i.id = h.incident_id WHERE i.incident_rule_id = $1 AND i.status = 'open' ORDER BY h.created_at", [created.json().id]);
    expect(history.rows).toEqual([
      { type: 'incident.created', created_by: null },
      { type: 'hypothesis.created', created_by: null },
      { type: 'evidence.created', created_by: null },
    ]);
  });

  it('opens incidents for unhealthy configs matched by namespace and name pattern', async () => {
    const res = await post('/api/incident/rules', { name: 'shop-configs', spec: { configs: [{ namespace: 'shop', name: 'c*' }] } });
    expect(res.status).toBe(201);
    await evaluateIncidentRules(t.db.pool, log);
    const { rows } = await t.db.pool.query('SELECT title, type, severity FROM incidents WHERE incident_rule_id = $1', [res.json().id]);
    expect(rows).toEqual([{ title: 'cart is unhealthy', type: 'availability', severity: 'low' }]);
  });

  it('applies as kind IncidentRule (watchkeeper apply -f), every problem by path', async () => {
    const text = [
      'apiVersion: mission-control.flanksource.com/v1',
      'kind: IncidentRule',
      'metadata: {name: pods-unhealthy, namespace: ops}',
      'spec:',
      '  components: [{type: Pod}]',
      '  health: [unhealthy, warning]',
      '---',
      'apiVersion: mission-control.flanksource.com/v1',
      'kind: IncidentRule',
      'metadata: {name: broken}',
      'spec: {checks: [{name: api}], failures: 0}',
    ].join('\n');
    const [good, bad] = await applyDocuments(t.db.pool, [incidentRuleKind], [{ file: 'rules.yaml', text }], 'ConfigFile', log);
    expect(good).toMatchObject({ ok: true, outcome: { action: 'created' } });
    expect(bad).toMatchObject({ ok: false, errors: ['spec.failures: must be at least 1'] });
    const { rows } = await t.db.pool.query("SELECT namespace, source FROM incident_rules WHERE name = 'pods-unhealthy'");
    expect(rows).toEqual([{ namespace: 'ops', source: 'ConfigFile' }]);
  });

  it('applies examples/incidents/rules.yaml as written', async () => {
    const file = path.join(ROOT, 'examples', 'incidents', 'rules.yaml');
    const results = await applyDocuments(t.db.pool, [incidentRuleKind], [{ file, text: await fs.readFile(file, 'utf8') }], 'ConfigFile', log);
    expect(results.map((result) => [result.name, result.ok, result.errors])).toEqual([
      ['checks-keep-failing', true, []],
      ['unhealthy-deployments', true, []],
    ]);
  });
});
