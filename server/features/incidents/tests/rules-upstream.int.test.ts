import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { evaluateIncidentRules } from '../rules/engine';
import { incidentRuleKind } from '../rules/kind';

// IncidentRule documents in Mission Control's shape (its IncidentRuleSpec: priority, filter, components
// selectors, autoAssignOwner, breakOnMatch, autoClose, hoursOfOperation, responders, template), written
// here from the upstream types.

let t: TestApp;
const log = createLogger('silent');
let ownerId = '';

async function apply(text: string) {
  return applyDocuments(t.db.pool, [incidentRuleKind], [{ file: 'rules.yaml', text }], 'ConfigFile', log);
}

async function component(name: string, type: string, health: string, owner: string | null = null): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>(
    'INSERT INTO components (external_id, name, type, health, status, owner) VALUES ($1, $1, $2, $3, $4, $5) RETURNING id',
    [name, type, health, health === 'healthy' ? 'Running' : 'CrashLoopBackOff', owner],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('no component');
  return id;
}

async function incidentsOf(rule: string) {
  const { rows } = await t.db.pool.query<{ title: string; severity: string; type: string; status: string; commander_id: string | null; source_id: string }>(
    `SELECT i.title, i.severity, i.type, i.status, i.commander_id, i.source_id FROM incidents i JOIN incident_rules r ON r.id = i.incident_rule_id
     WHERE r.name = $1 ORDER BY i.title`,
    [rule],
  );
  return rows;
}

beforeAll(async () => {
  t = await createTestApp();
  ownerId = (await t.userWith(['responder'], 'pod-owner@example.com')).id;
  await t.db.pool.query("INSERT INTO teams (name) VALUES ('payments')");
});

afterAll(async () => {
  await t?.close();
});

describe('IncidentRule in Mission Control shape', () => {
  it('applies every upstream field: the ones not run are warnings naming them, nothing is refused', async () => {
    const [result] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: everything, namespace: mc}
spec:
  name: everything
  priority: 5
  breakOnMatch: true
  autoAssignOwner: true
  filter:
    status: [unhealthy, warning]
    severity: ["*"]
    category: [availability]
    age: 5m
  components:
    - types: [Database, "!Cache"]
      labels: {tier: backend}
      labelSelector: "env in (prod,staging),!legacy"
      statuses: [CrashLoopBackOff]
      agent: local
      search: "name=db*"
      includeDeleted: false
  autoClose: {timeout: 1h}
  autoResolve: {timeout: 30m}
  hoursOfOperation:
    - {start: "09:00", end: "17:00", negate: false}
  responders:
    email: [{to: oncall@example.com, subject: "{{.name}} is down"}]
    jira: [{project: OPS, summary: down, issueType: Bug}]
    msPlanner: [{title: down}]
  template:
    title: "{{.component.name}} is {{.component.status}}"
    description: Raised by Mission Control
    severity: High
    type: technical_debt
    status: open
    created_by: 00000000-0000-0000-0000-000000000001
    commander_id: pod-owner@example.com
`);
    expect(result).toMatchObject({ ok: true, outcome: { action: 'created' } });
    expect(result?.outcome?.warnings).toEqual([
      'spec.components[0].agent: every resource here is matched whatever agent reported it; ignored',
      'spec.components[0].search: search queries are not supported in rule selectors; ignored',
      'spec.components[0].includeDeleted: deleted resources never open incidents; ignored',
      'spec.name: a rule is named by metadata.name; ignored',
      'spec.hoursOfOperation: not supported; the rule opens incidents at any hour',
      'spec.responders.email: external responders are not supported; add people or teams as responders on the incident',
      'spec.responders.jira: external responders are not supported; add people or teams as responders on the incident',
      'spec.responders.msPlanner: external responders are not supported; add people or teams as responders on the incident',
      'spec.template.created_by: incidents a rule opens are created by the system; ignored',
      'spec.filter.category: the rule opens technicalDebt incidents, which the filter leaves out; it opens none',
    ]);
    // Stored as written: the console shows the document the file holds.
    const { rows } = await t.db.pool.query("SELECT spec->'template'->>'severity' AS severity, source FROM incident_rules WHERE name = 'everything'");
    expect(rows).toEqual([{ severity: 'High', source: 'ConfigFile' }]);
    // Applying the same document again updates the same rule.
    const [again] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: everything, namespace: mc}
spec: {components: [{types: [Database]}], filter: {category: ["*"]}}
`);
    expect(again).toMatchObject({ ok: true, outcome: { action: 'updated', id: result?.outcome?.id } });
  });

  it('refuses only invalid values, each by path', async () => {
    const [bad] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: bad}
spec:
  components: [{types: [Pod], labelSelector: "app in (web"}]
  filter: {status: [burning], age: soon}
  autoClose: {timeout: later}
  priority: first
  template: {severity: apocalyptic, type: vibes}
  frobnicate: true
`);
    expect(bad?.ok).toBe(false);
    expect(bad?.errors).toEqual(
      expect.arrayContaining([
        'spec.components.0.labelSelector: is not a label selector (such as "app=web,tier!=db,env in (a,b)")',
        'spec.filter.status.0: must be one of healthy, unhealthy, warning, unknown, *',
        'spec.filter.age: "soon" is not a duration such as 5m or 1h30m',
        'spec.autoClose.timeout: "later" is not a duration such as 5m or 1h30m',
        'spec.priority: must be a whole number',
        'spec.template.severity: must be one of info, warning, low, medium, high, critical, blocker',
        expect.stringMatching(/^spec\.template\.type: must be one of availability/),
        expect.stringMatching(/^spec: .*frobnicate/),
      ]),
    );
  });

  it('runs components types selectors, filter.status, the template, priority with breakOnMatch and autoAssignOwner', async () => {
    const db = await component('orders-db', 'Database', 'unhealthy', 'pod-owner@example.com');
    await component('orders-cache', 'Cache', 'unhealthy');
    await component('ledger-db', 'Database', 'warning', 'payments');
    await component('search-db', 'Database', 'healthy');
    const [first, second] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: databases-first}
spec:
  priority: 1
  breakOnMatch: true
  autoAssignOwner: true
  components: [{types: [Database]}]
  filter: {status: [unhealthy, warning]}
  template: {title: "{{.component.name}} is {{ .component.status }}", severity: Critical, type: technical_debt}
---
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: anything-unhealthy}
spec:
  priority: 2
  components: [{types: ["*", "!Service"]}]
  template: {title: "{{.name}} needs a look"}
`);
    expect([first?.ok, second?.ok]).toEqual([true, true]);
    // The 'everything' rule of the first test watches databases too: keep it out of this one.
    await t.db.pool.query("UPDATE incident_rules SET deleted_at = now() WHERE name = 'everything'");
    const summary = await evaluateIncidentRules(t.db.pool, log);
    expect(summary.opened).toBe(3);
    expect(await incidentsOf('databases-first')).toEqual([
      { title: 'ledger-db is warning', severity: 'critical', type: 'technicalDebt', status: 'open', commander_id: null, source_id: expect.any(String) },
      { title: 'orders-db is unhealthy', severity: 'critical', type: 'technicalDebt', status: 'open', commander_id: ownerId, source_id: db },
    ]);
    // orders-db was matched by the first rule, which breaks on match: the second rule only sees the cache.
    expect((await incidentsOf('anything-unhealthy')).map((row) => row.title)).toEqual(['orders-cache needs a look']);
    // The owner that is a team is added as responder.
    const { rows } = await t.db.pool.query(
      "SELECT t.name FROM responders r JOIN teams t ON t.id = r.team_id JOIN incidents i ON i.id = r.incident_id WHERE i.title = 'ledger-db is warning'",
    );
    expect(rows).toEqual([{ name: 'payments' }]);
    const events = await t.db.pool.query(
      "SELECT DISTINCT e.name, e.properties->>'responder_type' AS type FROM event_queue e JOIN incidents i ON i.id::text = e.properties->>'incident_id' WHERE i.title = 'ledger-db is warning' ORDER BY 1",
    );
    expect(events.rows).toEqual([
      { name: 'incident.created', type: null },
      { name: 'incident.responder.added', type: 'team' },
    ]);
  });

  it('waits for filter.age and closes the incident once the resource is healthy for autoClose.timeout', async () => {
    const id = await component('billing-api', 'API', 'unhealthy');
    const [applied] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: slow-apis}
spec:
  components: [{types: [API]}]
  filter: {age: 10m}
  autoClose: {timeout: 15m}
`);
    expect(applied?.ok).toBe(true);
    await evaluateIncidentRules(t.db.pool, log);
    expect(await incidentsOf('slow-apis')).toEqual([]);
    // Ten minutes later (the rule remembers since when it saw the API failing).
    await t.db.pool.query("UPDATE incident_rule_resources SET failing_since = now() - interval '11 minutes' WHERE source_id = $1", [id]);
    await evaluateIncidentRules(t.db.pool, log);
    expect((await incidentsOf('slow-apis')).map((row) => row.status)).toEqual(['open']);
    // Healthy again: not closed before the timeout, closed after it.
    await t.db.pool.query("UPDATE components SET health = 'healthy' WHERE id = $1", [id]);
    expect((await evaluateIncidentRules(t.db.pool, log)).closed).toBe(0);
    await t.db.pool.query("UPDATE incident_rule_resources SET healthy_since = now() - interval '16 minutes' WHERE source_id = $1", [id]);
    expect((await evaluateIncidentRules(t.db.pool, log)).closed).toBe(1);
    expect((await incidentsOf('slow-apis')).map((row) => row.status)).toEqual(['closed']);
    const history = await t.db.pool.query(
      "SELECT h.description, h.created_by FROM incident_histories h JOIN incidents i ON i.id = h.incident_id WHERE i.source_id = $1 AND h.type = 'incident.status_updated'",
      [id],
    );
    expect(history.rows).toEqual([{ description: 'Status: open → closed', created_by: null }]);
    // Opened and closed by the rule: incident.created, then incident.status.closed with the previous status.
    const events = await t.db.pool.query(
      `SELECT name, previous, status FROM (
         SELECT DISTINCT e.event_id, e.name, e.properties->'previous' AS previous, e.properties->>'status' AS status, e.created_at
         FROM event_queue e JOIN incidents i ON i.id::text = e.properties->>'incident_id' JOIN incident_rules r ON r.id = i.incident_rule_id
         WHERE i.source_id = $1 AND r.name = 'slow-apis' AND e.name LIKE 'incident.%') x
       ORDER BY created_at`,
      [id],
    );
    expect(events.rows).toEqual([
      { name: 'incident.created', previous: { status: null }, status: 'open' },
      { name: 'incident.status.closed', previous: { status: 'open' }, status: 'closed' },
    ]);
    // Evaluated again: nothing changes, nothing is published.
    const count = async () =>
      (await t.db.pool.query("SELECT count(DISTINCT e.event_id)::int AS n FROM event_queue e JOIN incidents i ON i.id::text = e.properties->>'incident_id' WHERE i.source_id = $1", [id])).rows[0].n;
    const before = await count();
    await evaluateIncidentRules(t.db.pool, log);
    expect(await count()).toBe(before);
  });

  it('filters checks by severity and opens nothing when filter.category leaves the template type out', async () => {
    await t.db.pool.query(`
      WITH canary AS (INSERT INTO canaries (name) VALUES ('payments') RETURNING id),
      chk AS (
        INSERT INTO checks (canary_id, key, type, name, status, severity)
        SELECT id, k.key, 'http', k.name, 'unhealthy', k.severity FROM canary,
          (VALUES ('http/pay-critical', 'pay-critical', 'critical'), ('http/pay-low', 'pay-low', 'low')) AS k(key, name, severity)
        RETURNING id
      )
      INSERT INTO check_statuses (check_id, time, status) SELECT id, now(), false FROM chk`);
    const results = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: critical-checks}
spec:
  checks: [{names: [pay-critical, pay-low]}]
  filter: {severity: [Critical]}
---
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: cost-only}
spec:
  checks: [{name: "pay-*"}]
  filter: {category: [cost]}
  template: {type: availability}
`);
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    await evaluateIncidentRules(t.db.pool, log);
    expect((await incidentsOf('critical-checks')).map((row) => row.title)).toEqual(['pay-critical is failing']);
    expect(await incidentsOf('cost-only')).toEqual([]);
  });
});
