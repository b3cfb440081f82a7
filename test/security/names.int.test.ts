import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canaryKind } from '../../server/features/health/canary-kind';
import { configMapKind } from '../../server/features/connections/kinds';
import { teamKind } from '../../server/features/identity/team-kind';
import { createLogger } from '../../server/platform/logger';
import { applyDocuments } from '../../server/platform/resources';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, the last item of finding 11: a ConfigMap named with invalid UTF-8 was created through `apply` and
 * the kube POST. Names are valid UTF-8 and DNS-1123 on every write path (docs/RESOURCES.md "Names").
 */
let t: TestApp;
const log = createLogger('silent');

/** What invalid UTF-8 bytes decode to ("n\ufffdo"), and a lone surrogate that no UTF-8 can hold. */
const BAD_UTF8 = Buffer.from([0x6e, 0xff, 0x6f]).toString('utf8');
const LONE_SURROGATE = 'n\ud800o';
const RULE = "use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit (at most 253)";

const kube = (url: string, body: string | Buffer, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: `/api/kubernetes${url}`, headers: { ...t.adminHeaders, 'content-type': contentType }, payload: body });
const configMapBody = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value' } });
const canaryBody = (name: string) => JSON.stringify({ apiVersion: 'canaries.flanksource.com/v1', kind: 'Canary', metadata: { name }, spec: { schedule: '@every 5m', tcp: [{ name: 'db', endpoint: 'localhost:5432' }] } });
const VIEW_SPEC = { queries: { namespaces: { configs: { types: ['Kubernetes::Namespace'] } } }, columns: [{ name: 'name', type: 'string', primaryKey: true }] };
const count = async (table: string, where = '') => (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}${where}`)).rows[0]?.n ?? 0;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the Kubernetes API refuses a name that is not valid UTF-8 or DNS-1123 (Invalid, a cause on metadata.name)', () => {
  for (const [label, name] of [
    ['invalid UTF-8', BAD_UTF8],
    ['a lone surrogate', LONE_SURROGATE],
    ['uppercase and a space', 'My Check'],
  ] as const) {
    it(`a ConfigMap named with ${label}`, async () => {
      const before = await count('secrets');
      const res = await kube('/api/v1/namespaces/default/configmaps', configMapBody(name));
      expect(res.statusCode, res.body).toBe(422);
      const status = res.json<{ kind: string; reason: string; message: string; details: { causes: Array<{ field: string; message: string; reason: string }> } }>();
      expect(status).toMatchObject({ kind: 'Status', reason: 'Invalid' });
      expect(status.details.causes).toContainEqual(expect.objectContaining({ field: 'metadata.name', reason: 'FieldValueInvalid' }));
      expect(await count('secrets')).toBe(before);
    });

    it(`a Canary named with ${label}`, async () => {
      const before = await count('canaries');
      const res = await kube('/apis/canaries.flanksource.com/v1/namespaces/default/canaries', canaryBody(name));
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<{ details: { causes: Array<{ field: string }> } }>().details.causes.map((cause) => cause.field)).toContain('metadata.name');
      expect(await count('canaries')).toBe(before);
    });
  }

  it('the raw bytes 6e ff 6f in a YAML body are refused, not stored as "n\ufffdo"', async () => {
    const yaml = Buffer.concat([Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: '), Buffer.from([0x6e, 0xff, 0x6f]), Buffer.from('\ndata:\n  key: value\n')]);
    const res = await kube('/api/v1/namespaces/default/configmaps', yaml, 'application/yaml');
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ message: string }>().message).toContain('metadata.name');
  });

  it('a namespace that is not a DNS-1123 label is refused on metadata.namespace', async () => {
    const res = await kube('/api/v1/namespaces/Shop_1/configmaps', configMapBody('settings'));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json<{ details: { causes: Array<{ field: string }> } }>().details.causes.map((cause) => cause.field)).toContain('metadata.namespace');
  });

  it('a valid name is still created', async () => {
    const res = await kube('/api/v1/namespaces/default/configmaps', configMapBody('app-settings.v2'));
    expect(res.statusCode, res.body).toBe(201);
    const canary = await kube('/apis/canaries.flanksource.com/v1/namespaces/default/canaries', canaryBody('kube-valid'));
    expect(canary.statusCode, canary.body).toBe(201);
  });
});

describe('apply (and the watched folder: applyDocuments) refuses such names with the field and the rule', () => {
  const configMap = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${JSON.stringify(name)}\ndata:\n  key: value\n`;
  const canary = (name: string, namespace = 'default') =>
    `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: ${JSON.stringify(name)}\n  namespace: ${JSON.stringify(namespace)}\nspec:\n  schedule: "@every 5m"\n  tcp:\n    - name: db\n      endpoint: localhost:5432\n`;

  for (const [label, name] of [
    ['invalid UTF-8', BAD_UTF8],
    ['a lone surrogate', LONE_SURROGATE],
  ] as const) {
    it(`a ConfigMap and a Canary named with ${label}`, async () => {
      const [cm, check] = await applyDocuments(t.db.pool, [configMapKind, canaryKind], [{ file: 'bad.yaml', text: `${configMap(name)}---\n${canary(name)}` }], 'ConfigFile', log);
      expect(cm?.ok).toBe(false);
      expect(cm?.errors.join('\n')).toMatch(/^metadata\.name: .* is not valid UTF-8/);
      expect(check?.ok).toBe(false);
      expect(check?.errors.join('\n')).toMatch(/^metadata\.name: .* is not valid UTF-8/);
      expect(await count('canaries', " WHERE name LIKE 'n%o' AND length(name) = 3")).toBe(0);
    });
  }

  it('"My Check" is refused naming the rule; a namespace with an underscore too', async () => {
    const [check, spaced] = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'c.yaml', text: `${canary('My Check')}---\n${canary('ok-name', 'team_a')}` }], 'ConfigFile', log);
    expect(check?.errors).toEqual([`metadata.name: "My Check" is not a valid name: ${RULE}`]);
    expect(spaced?.errors).toEqual(["metadata.namespace: \"team_a\" is not a valid namespace: use lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)"]);
  });

  it('a kind with its own schema (Team) follows the same rule for its resource name', async () => {
    const [team] = await applyDocuments(t.db.pool, [teamKind], [{ file: 't.yaml', text: 'apiVersion: mission-control.flanksource.com/v1\nkind: Team\nmetadata:\n  name: "Platform Team"\nspec: {}\n' }], 'ConfigFile', log);
    expect(team?.ok).toBe(false);
    expect(team?.errors[0]).toContain('metadata.name: "Platform Team" is not a valid name');
  });

  it("a name whose only fault is uppercase (canary-checker's connection://HTTP/200) applies from a file with a warning; the Kubernetes API refuses it", async () => {
    const [applied] = await applyDocuments(t.db.pool, [configMapKind], [{ file: 'upper.yaml', text: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: upper-settings\n  namespace: HTTP\ndata:\n  key: value\n' }], 'ConfigFile', log);
    expect(applied?.ok, applied?.errors.join('\n')).toBe(true);
    expect(applied?.outcome?.warnings?.[0]).toContain('metadata.namespace: "HTTP" is not a valid namespace');
    const kubeUpper = await kube('/api/v1/namespaces/HTTP/configmaps', configMapBody('upper-kube'));
    expect(kubeUpper.statusCode, kubeUpper.body).toBe(422);
    const [spaced] = await applyDocuments(t.db.pool, [configMapKind], [{ file: 'spaced.yaml', text: configMap('Upper Settings') }], 'ConfigFile', log);
    expect(spaced?.ok).toBe(false);
  });

  it('valid names apply as before', async () => {
    const results = await applyDocuments(t.db.pool, [configMapKind, canaryKind], [{ file: 'ok.yaml', text: `${configMap('apply-settings')}---\n${canary('apply-check.v1')}` }], 'ConfigFile', log);
    expect(results.map((result) => [result.ok, result.errors])).toEqual([
      [true, []],
      [true, []],
    ]);
  });
});

describe('REST create routes check the same rule', () => {
  it('POST /api/canary "My Check" is 400 with the message; a valid name is created', async () => {
    const spec = { schedule: '@every 5m', tcp: [{ name: 'db', endpoint: 'localhost:5432' }] };
    const bad = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: t.adminHeaders, payload: { name: 'My Check', spec } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json<{ message: string }>().message).toContain(`"My Check" is not a valid name: ${RULE}`);
    expect(bad.json<{ details: Array<{ path: string }> }>().details.map((issue) => issue.path)).toContain('body.name');
    const surrogate = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: { ...t.adminHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ name: LONE_SURROGATE, spec }) });
    expect(surrogate.statusCode, surrogate.body).toBe(400);
    const good = await t.app.inject({ method: 'POST', url: '/api/canary/canaries', headers: t.adminHeaders, payload: { name: 'my-check', spec } });
    expect(good.statusCode, good.body).toBeLessThan(300);
  });

  it('a spec-row kind (incident rule) and a view are refused the same way', async () => {
    const rule = await t.app.inject({ method: 'POST', url: '/api/incident/rules', headers: t.adminHeaders, payload: { name: 'Rule One', spec: {} } });
    expect(rule.statusCode, rule.body).toBe(400);
    expect(rule.json<{ message: string }>().message).toContain('"Rule One" is not a valid name');
    const view = await t.app.inject({ method: 'POST', url: '/api/views', headers: t.adminHeaders, payload: { name: 'My View', spec: VIEW_SPEC } });
    expect(view.statusCode, view.body).toBe(400);
    expect(view.json<{ message: string }>().message).toContain('"My View" is not a valid name');
  });
});

describe('/api/db inserts of views check the same rule', () => {
  const insert = (name: string, namespace = 'default') =>
    t.app.inject({ method: 'POST', url: '/api/db/views', headers: { ...t.adminHeaders, 'content-type': 'application/json', prefer: 'return=representation' }, payload: JSON.stringify({ name, namespace, spec: VIEW_SPEC }) });

  it('an invalid name or namespace is refused and nothing is written', async () => {
    const before = await count('views');
    for (const name of ['My View', BAD_UTF8]) {
      const res = await insert(name);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(/^name: /);
    }
    // A lone surrogate cannot even reach the row: the body is refused naming the field (test/security/db-lone-surrogate.int.test.ts).
    const surrogate = await insert(LONE_SURROGATE);
    expect(surrogate.statusCode, surrogate.body).toBe(400);
    const ns = await insert('fine-view', 'Team A');
    expect(ns.statusCode, ns.body).toBe(400);
    expect(ns.json<{ message: string }>().message).toContain('namespace: "Team A" is not a valid namespace');
    expect(await count('views')).toBe(before);
  });

  it('a valid name is inserted', async () => {
    const res = await insert('db-view');
    expect(res.statusCode, res.body).toBe(201);
  });
});
