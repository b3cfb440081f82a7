import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import type { QueuedEvent } from '../../../platform/jobs/event-queue';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { NotificationEngine } from '../engine';

/**
 * Notification files in Mission Control's format that it accepts and this console once refused (issue 36
 * §2), our own (tests/fixtures/compat): component events under their older names, matchQuery filters with
 * leading-dot names, and titles or bodies that parse nowhere — accepted with a warning naming the field and
 * the problem, and failing, recorded, when a message is rendered.
 */
const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const FIXTURES = path.join(ROOT, 'server', 'features', 'notifications', 'tests', 'fixtures', 'compat');
const FILES = ['older-component-events.yaml', 'match-query-filters.yaml', 'render-time-failures.yaml'];

let t: TestApp;
let engine: NotificationEngine;

async function applyFile(file: string) {
  return applyDocuments(t.db.pool, kinds, [{ file, text: await readFile(path.join(FIXTURES, file), 'utf8') }], 'ConfigFile', log);
}

function event(name: string, id: string): QueuedEvent {
  return { id: randomUUID(), eventId: randomUUID(), name, properties: { id }, priority: 0, attempt: 1, maxAttempts: 5, createdAt: new Date() };
}

async function ruleNamesFor(name: string, id: string): Promise<string[]> {
  await engine.handleEvent(event(name, id));
  const { rows } = await t.db.pool.query<{ name: string }>('SELECT DISTINCT n.name FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id WHERE h.resource_id = $1 ORDER BY 1', [id]);
  return rows.map((row) => row.name);
}

beforeAll(async () => {
  t = await createTestApp();
  engine = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', retryBaseMillis: 20, groupWaitMillis: 50 });
});

afterAll(async () => {
  await t?.close();
});

beforeEach(() => engine.invalidate());

describe('notification files in Mission Control\'s format (tests/fixtures/compat)', () => {
  it('are our own, and apply unchanged: every warning names its field', async () => {
    for (const file of FILES) {
      const text = await readFile(path.join(FIXTURES, file), 'utf8');
      expect(text, file).not.toMatch(/flanksource\/mission-control|^# Source:/m);
      const results = await applyFile(file);
      expect(results.length, file).toBeGreaterThan(0);
      for (const result of results) {
        expect(result, `${file} #${result.index}`).toMatchObject({ ok: true, errors: [] });
        for (const warning of result.outcome?.warnings ?? []) expect(warning, `${file} #${result.index}`).toMatch(/^spec\./);
      }
    }
  });

  it('read component.status.<status> as the component health events, with a warning', async () => {
    const [result] = await applyFile('older-component-events.yaml');
    expect(result?.outcome?.warnings).toEqual([
      "spec.events.0: component.status.error is Mission Control's older name; read as component.unhealthy",
      "spec.events.1: component.status.warning is Mission Control's older name; read as component.warning",
    ]);
    const { rows } = await t.db.pool.query("SELECT events FROM notifications WHERE namespace = 'harbour' AND name = 'crane-status-changes' AND deleted_at IS NULL");
    expect(rows[0]?.events).toEqual(['component.unhealthy', 'component.warning']);
    const crane = (await t.db.pool.query<{ id: string }>("INSERT INTO components (name, type, status, health, external_id, labels) VALUES ('crane-9', 'Crane', 'error', 'unhealthy', 'crane-9', '{\"yard\": \"south\"}') RETURNING id")).rows[0]!.id;
    expect(await ruleNamesFor('component.unhealthy', crane)).toContain('crane-status-changes');
  });

  it('filter with matchQuery(.check | .component | .config, "…") as Mission Control means it', async () => {
    const results = await applyFile('match-query-filters.yaml');
    expect(results.map((result) => result.outcome?.warnings ?? [])).toEqual([[], [], []]);
    const canary = (await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('gates', 'harbour') RETURNING id")).rows[0]!.id;
    const check = async (type: string, flaky: string) =>
      (await t.db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, status, labels) VALUES ($1, $2, $3, $2, 'unhealthy', $4) RETURNING id", [canary, `gate-${randomUUID().slice(0, 8)}`, type, JSON.stringify({ 'known-flaky': flaky })])).rows[0]!.id;
    expect(await ruleNamesFor('check.failed', await check('tcp', 'false'))).toEqual(['gate-probe-failures']);
    expect(await ruleNamesFor('check.failed', await check('http', 'false'))).toEqual([]);
    expect(await ruleNamesFor('check.failed', await check('tcp', 'TRUE'))).toEqual([]);

    const component = async (motor: string) =>
      (await t.db.pool.query<{ id: string }>("INSERT INTO components (name, type, health, external_id, labels, properties) VALUES ($1, 'crane', 'unhealthy', $1, '{\"yard\": \"North\"}', $2) RETURNING id", [`crane-${randomUUID().slice(0, 8)}`, JSON.stringify([{ name: 'motor', text: motor }])])).rows[0]!.id;
    expect(await ruleNamesFor('component.unhealthy', await component('electric'))).toContain('crane-workload-alerts');
    expect(await ruleNamesFor('component.unhealthy', await component('diesel'))).not.toContain('crane-workload-alerts');

    const config = async (type: string, name: string, berth: string) =>
      (await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, tags, external_id) VALUES ($1, $2, 'unhealthy', $3, ARRAY[$2]) RETURNING id", [type, name, JSON.stringify({ berth })])).rows[0]!.id;
    expect(await ruleNamesFor('config.unhealthy', await config('Kubernetes::StatefulSet', 'manifests', 'b12'))).toEqual(['berth-config-alerts']);
    expect(await ruleNamesFor('config.unhealthy', await config('Kubernetes::Deployment', 'ledger', 'b12'))).toEqual([]);
    expect(await ruleNamesFor('config.unhealthy', await config('Kubernetes::Deployment', 'tally', 'a1'))).toEqual([]);
  });

  it('accept titles and bodies that do not parse with a warning naming the field and the problem, and record the failure when sending', async () => {
    const results = await applyFile('render-time-failures.yaml');
    expect(results.map((result) => result.errors)).toEqual([[], []]);
    expect(results[0]?.outcome?.warnings).toEqual([expect.stringMatching(/^spec\.title ".*" at 1:13: function "incident" not defined — the rule applies, and each message it renders fails with this error \(as in Mission Control\)$/)]);
    expect(results[1]?.outcome?.warnings).toEqual([expect.stringMatching(/^spec\.template ".*" at 2:23: malformed character constant: '\.status\.containerStatuses\[0\]\.state\.waiting\.message' — the rule applies/)]);

    const pod = (await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, external_id) VALUES ('Kubernetes::Pod', 'crane-agent-0', 'unhealthy', '{pod/crane-agent-0}') RETURNING id")).rows[0]!.id;
    expect(await ruleNamesFor('config.unhealthy', pod)).toEqual(['stuck-crane-pods']);
    for (let round = 0; round < 20 && (await engine.sendDue(50)) > 0; round += 1);
    const { rows } = await t.db.pool.query("SELECT h.status, h.error, n.error AS rule_error FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id WHERE h.resource_id = $1", [pod]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('error');
    expect(rows[0]?.error).toMatch(/^spec\.template ".*" at 2:23: malformed character constant/);
    expect(rows[0]?.rule_error).toMatch(/malformed character constant/);
  });
});
