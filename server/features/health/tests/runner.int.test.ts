import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { parsePrometheusText } from '../../../../test/peers/prom-text';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { secretKind } from '../../connections';
import { canaryKind } from '../canary-kind';
import { checkMetricsOf } from '../check-metrics';
import { runCanary } from '../run-canary';

/**
 * What canary-checker does around a check's own run, against a real database and real scripts: transforms
 * that make checks (in another namespace) or change a result in place, custom metrics on /metrics,
 * dependsOn with outputs, javascript displays, and resultMode junit.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

const apply = (text: string) => applyDocuments(t.db.pool, [canaryKind], [{ file: 'canary.yaml', text }], 'ConfigFile', createLogger('silent'));
const deps = () => ({ pool: t.db.pool, log: createLogger('silent'), metrics: checkMetricsOf(t.context.metrics.registry) });

async function run(name: string) {
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  const id = rows[0]?.id;
  if (!id) throw new Error(`no canary ${name}`);
  const ran = await runCanary(deps(), id, new AbortController().signal);
  return { id, byName: Object.fromEntries(ran.map((item) => [item.check.name, item.outcome.result])) };
}

async function metricsText(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  return res.body;
}

describe('transforms', () => {
  it('makes checks in the namespace the transform names, from a JSON text (.toJSON())', async () => {
    const applied = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: namespaced, namespace: dev}
spec:
  exec:
    - name: source
      script: echo ok
      transform:
        expr: |
          [{'name': 'moved', 'namespace': 'prod', 'pass': true, 'message': 'static message', 'description': 'static description'},
           {'name': 'stays', 'pass': false, 'error': 'broken'}].toJSON()
`);
    expect(applied[0]).toMatchObject({ ok: true });
    const { id } = await run('namespaced');
    const { rows } = await t.db.pool.query('SELECT name, namespace, status, description FROM checks WHERE canary_id = $1 AND transformed_from IS NOT NULL ORDER BY name', [id]);
    expect(rows).toEqual([
      { name: 'moved', namespace: 'prod', status: 'healthy', description: 'static description' },
      { name: 'stays', namespace: 'dev', status: 'unhealthy', description: null },
    ]);
  });

  it('changes the result in place when the transform names no check, and exports its metrics', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: rates}
spec:
  exec:
    - name: exchange-rates
      script: 'echo "{\\"base\\": \\"USD\\", \\"rates\\": {\\"EUR\\": 0.92, \\"GBP\\": 0.79}}"'
      transform:
        expr: |
          {
            'message': 'rates read',
            'metrics': [{'name': 'peer_exchange_rate', 'type': 'gauge', 'value': 0.92, 'labels': {'from': 'USD', 'to': 'EUR'}},
                        {'name': 'peer_exchange_rate', 'type': 'gauge', 'value': 0.79, 'labels': {'from': 'USD', 'to': 'GBP'}}]
          }.toJSON()
      metrics:
        - name: peer_exchange_rate_runs
          type: counter
          value: "1"
          labels:
            - name: check_name
              valueExpr: check.name
            - name: exit
              valueExpr: string(results.exitCode)
`);
    const { byName } = await run('rates');
    expect(byName['exchange-rates']).toMatchObject({ pass: true, message: 'rates read' });
    const text = await metricsText();
    expect(text).toContain('peer_exchange_rate{from="USD",to="EUR"} 0.92');
    expect(text).toContain('peer_exchange_rate{from="USD",to="GBP"} 0.79');
    expect(text).toContain('peer_exchange_rate_runs{check_name="exchange-rates",exit="0"} 1');
    await run('rates');
    expect(await metricsText()).toContain('peer_exchange_rate_runs{check_name="exchange-rates",exit="0"} 2');
  });

  it('exports gauge, counter and histogram metrics with labels from CEL, as a Prometheus scrape reads them', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: queue-metrics}
spec:
  exec:
    - name: queue
      script: 'echo "{\\"depth\\": 17, \\"latency\\": 0.3, \\"queue\\": \\"mail\\"}"'
      metrics:
        - name: wk_test_queue_depth
          type: gauge
          value: results.stdout.JSON().depth
          labels:
            - name: queue
              valueExpr: results.stdout.JSON().queue
            - name: team
              value: ops
        - name: wk_test_queue_reads
          type: counter
          value: "1"
        - name: wk_test_queue_latency_seconds
          type: histogram
          value: results.stdout.JSON().latency
`);
    await run('queue-metrics');
    await run('queue-metrics');
    const families = parsePrometheusText(await metricsText());
    expect(families.get('wk_test_queue_depth')).toMatchObject({ type: 'gauge', samples: [{ labels: { queue: 'mail', team: 'ops' }, value: 17 }] });
    expect(families.get('wk_test_queue_reads')).toMatchObject({ type: 'counter', samples: [{ value: 2 }] });
    const histogram = families.get('wk_test_queue_latency_seconds');
    expect(histogram?.type).toBe('histogram');
    const sample = (name: string, le?: string) => histogram?.samples.find((s) => s.name === name && (le === undefined || s.labels.le === le))?.value;
    expect(sample('wk_test_queue_latency_seconds_count')).toBe(2);
    expect(sample('wk_test_queue_latency_seconds_sum')).toBeCloseTo(0.6);
    expect(sample('wk_test_queue_latency_seconds_bucket', '0.25')).toBe(0);
    expect(sample('wk_test_queue_latency_seconds_bucket', '0.5')).toBe(2);
    expect(sample('wk_test_queue_latency_seconds_bucket', '+Inf')).toBe(2);
    // The console's own: each batch of results written (here one result a run) is timed.
    const writes = families.get('watchkeeper_check_result_write_seconds');
    expect(writes?.type).toBe('histogram');
    expect(writes?.samples.find((s) => s.name === 'watchkeeper_check_result_write_seconds_count')?.value).toBeGreaterThanOrEqual(2);
  });

  it('refuses a metric name Prometheus would not take, and warns of one without a value', async () => {
    const applied = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: bad-metrics}
spec:
  exec:
    - name: x
      script: echo 1
      metrics:
        - {name: "bad name", value: "1"}
        - {name: no_value}
`);
    expect(applied[0]?.ok).toBe(false);
    expect(applied[0]?.errors.join('\n')).toContain('spec.exec[0].metrics[0].name: must be a Prometheus metric name');
  });
});

describe('expressions at apply', () => {
  it('refuses an expression that does not compile, naming the field, the text and the position', async () => {
    const applied = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: broken-expressions}
spec:
  exec:
    - name: x
      script: echo 1
      test:
        expr: results.stdout ==
      display:
        template: "{{ .results.stdout | nosuchfunc }}"
      transform:
        javascript: "let x = ;"
      metrics:
        - name: wk_x
          value: results.stdout.noSuchFunction()
`);
    expect(applied[0]?.ok).toBe(false);
    const errors = applied[0]?.errors ?? [];
    expect(errors.find((e) => e.startsWith('spec.exec[0].test.expr:'))).toMatch(/^spec\.exec\[0\]\.test\.expr: "results\.stdout ==" at 1:\d+: /);
    expect(errors.find((e) => e.startsWith('spec.exec[0].display.template:'))).toMatch(/at 1:\d+: .*function "nosuchfunc" not defined/);
    expect(errors.find((e) => e.startsWith('spec.exec[0].transform.javascript:'))).toContain('does not parse');
    expect(errors.find((e) => e.startsWith('spec.exec[0].metrics[0].value:'))).toContain('noSuchFunction');
    expect((await t.db.pool.query("SELECT 1 FROM canaries WHERE name = 'broken-expressions'")).rowCount).toBe(0);
  });
});

describe('canary env', () => {
  it('reads an env value from a secret at each run, and fails every check of the canary naming a missing one', async () => {
    const applied = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: env-from-secret}
spec:
  env:
    TOKEN: {valueFrom: {secretKeyRef: {name: api, key: token}}}
    REGION: {value: eu}
  exec:
    - {name: uses-env, script: echo $REGION}
`);
    expect(applied[0]).toMatchObject({ ok: true });
    expect(applied[0]?.outcome?.warnings ?? []).toEqual([]);
    const { byName } = await run('env-from-secret');
    expect(byName['uses-env']).toMatchObject({ pass: false, message: 'spec.env.TOKEN: valueFrom.secretKeyRef (name "api", key "token"): secret "api" not found in namespace "default"' });
    const secret = await applyDocuments(t.db.pool, [secretKind], [{ file: 'secret.yaml', text: 'apiVersion: v1\nkind: Secret\nmetadata: {name: api}\nstringData: {token: t0ken-value}\n' }], 'ConfigFile', createLogger('silent'));
    expect(secret[0]?.ok).toBe(true);
    const again = await run('env-from-secret');
    expect(again.byName['uses-env'], JSON.stringify(again.byName['uses-env'])).toMatchObject({ pass: true });
  });
});

describe('dependsOn', () => {
  it('runs a check after the one it depends on, with its variables as outputs.<name>', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: chained}
spec:
  exec:
    - name: use-token
      script: echo used
      dependsOn: [get-token]
      test:
        expr: outputs['get-token'].results.stdout == 'token-42' && results.stdout == 'used'
    - name: get-token
      script: sleep 0.2; echo token-42
`);
    const { byName } = await run('chained');
    expect(byName['get-token']).toMatchObject({ pass: true });
    expect(byName['use-token']).toMatchObject({ pass: true });
  });

  it('does not run a check whose dependency failed, and says which', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: chained-failure}
spec:
  exec:
    - {name: login, script: exit 3}
    - {name: after-login, script: echo should-not-run, dependsOn: [login]}
`);
    const { byName } = await run('chained-failure');
    expect(byName.login).toMatchObject({ pass: false });
    expect(byName['after-login']).toMatchObject({ pass: false, message: 'not run: it depends on "login", which failed' });
  });

  it('refuses unknown names and circles at apply, with the path', async () => {
    const applied = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: circular}
spec:
  exec:
    - {name: a, script: echo a, dependsOn: [b]}
    - {name: b, script: echo b, dependsOn: [a]}
    - {name: c, script: echo c, dependsOn: [nobody]}
`);
    expect(applied[0]?.ok).toBe(false);
    expect(applied[0]?.errors).toContain('spec.exec[2].dependsOn: "nobody" is not a check of this canary');
    const circle = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: circular}
spec:
  exec:
    - {name: a, script: echo a, dependsOn: [b]}
    - {name: b, script: echo b, dependsOn: [a]}
`);
    expect(circle[0]?.errors.join('\n')).toMatch(/spec\.exec\[\d\]\.dependsOn: the checks depend on each other in a circle: (a → b → a|b → a → b)/);
  });
});

describe('templates', () => {
  it('runs a javascript display as canary-checker does (the value of the last statement)', async () => {
    await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: javascript}
spec:
  exec:
    - name: rates
      script: 'echo "{\\"rates\\": {\\"EUR\\": 0.9, \\"GBP\\": 0.8}}"'
      transform:
        expr: "{'data': {'json': results.stdout.JSON()}}.toJSON()"
      display:
        javascript: |
          symbols = {"EUR": "€", "GBP": "£"}
          display = []
          for (var currency in json.rates) {
            display.push(currency + " = " + symbols[currency] + json.rates[currency])
          }
          "$1 = " + display.join(", ")
`);
    const { byName } = await run('javascript');
    expect(byName.rates).toMatchObject({ pass: true, message: '$1 = EUR = €0.9, GBP = £0.8' });
  });
});

describe('resultMode junit', () => {
  it('stores one check with the JUnit report of every check of the canary', async () => {
    const applied = await apply(`
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: suite}
spec:
  resultMode: junit
  exec:
    - {name: first, description: "first test", script: echo one}
    - {name: second, script: echo two >&2; exit 1}
`);
    expect(applied[0]).toMatchObject({ ok: true });
    expect(applied[0]?.outcome?.warnings ?? []).toEqual([]);
    const { id, byName } = await run('suite');
    const { rows } = await t.db.pool.query('SELECT name, type, description, status FROM checks WHERE canary_id = $1 AND deleted_at IS NULL', [id]);
    expect(rows).toEqual([{ name: 'suite', type: 'junit', description: 'Result Mode: JUnit Report', status: 'unhealthy' }]);
    const result = byName.suite;
    expect(result).toMatchObject({ pass: false });
    expect(result?.message).toMatch(/^1 passed, 1 failed in /);
    const details = result?.details as { suite: { tests: Array<{ name: string; status: string }> }; junit: string };
    expect(details.suite.tests.map((test) => [test.name, test.status])).toEqual([
      ['first test', 'passed'],
      ['second', 'failed'],
    ]);
    expect(details.junit).toContain('<testsuite name="suite" tests="2" failures="1"');
    const files = await t.db.pool.query<{ filename: string }>('SELECT a.filename FROM artifacts a JOIN checks c ON c.id = a.check_id WHERE c.canary_id = $1', [id]);
    expect(files.rows).toEqual([{ filename: 'junit.xml' }]);
  });
});
