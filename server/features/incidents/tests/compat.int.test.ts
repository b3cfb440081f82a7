import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { evaluateIncidentRules } from '../rules/engine';
import { incidentRuleKind } from '../rules/kind';

/**
 * IncidentRule files in Mission Control's format (tests/fixtures/compat, our own): severities written
 * short (`med`, `Crit`) apply, read as the severity with a warning, and the incidents open with it.
 */
const log = createLogger('silent');
const FIXTURE = path.join(ROOT, 'server', 'features', 'incidents', 'tests', 'fixtures', 'compat', 'short-severities.yaml');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('incident rules with short severities', () => {
  it('apply with a warning naming the field and what it is read as, and open incidents of that severity', async () => {
    const results = await applyDocuments(t.db.pool, [incidentRuleKind], [{ file: 'short-severities.yaml', text: await readFile(FIXTURE, 'utf8') }], 'ConfigFile', log);
    expect(results.map((result) => result.errors)).toEqual([[], []]);
    expect(results[0]?.outcome?.warnings).toEqual(['spec.template.severity: "med" is read as medium']);
    expect(results[1]?.outcome?.warnings).toEqual(['spec.template.severity: "CRIT" is read as critical', 'spec.filter.severity[0]: "Crit" is read as critical']);

    await t.db.pool.query("INSERT INTO components (external_id, name, type, health, status) VALUES ('crane-7', 'crane-7', 'CraneWorkload', 'unhealthy', 'error')");
    await evaluateIncidentRules(t.db.pool, log);
    const { rows } = await t.db.pool.query("SELECT i.severity, i.type FROM incidents i JOIN incident_rules r ON r.id = i.incident_rule_id WHERE r.name = 'crane-costs'");
    expect(rows).toEqual([{ severity: 'medium', type: 'cost' }]);
  });

  it('still refuse a severity that is no severity, naming the choices', async () => {
    const [bad] = await applyDocuments(t.db.pool, [incidentRuleKind], [{ file: 'bad.yaml', text: `
apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: bad-severity}
spec:
  components: [{types: [CraneWorkload]}]
  template: {severity: urgent}
` }], 'ConfigFile', log);
    expect(bad?.errors).toEqual(['spec.template.severity: must be one of info, warning, low, medium, high, critical, blocker']);
  });
});
