import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { startSmtpSink } from '../../../../test/smtp-sink';
import type { QueuedEvent } from '../../../platform/jobs/event-queue';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { NotificationEngine } from '../engine';

const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);

let t: TestApp;
let peer: http.Server;
let peerUrl: string;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let engine: NotificationEngine;
/** What the webhook peer received; `/fail` answers 500 with a body, anything else 200. */
const received: Array<{ path: string; body: Record<string, unknown> }> = [];

async function apply(text: string) {
  return applyDocuments(t.db.pool, kinds, [{ file: 'test.yaml', text }], 'ConfigFile', log);
}

function event(name: string, id: string): QueuedEvent {
  return { id: randomUUID(), eventId: randomUUID(), name, properties: { id }, priority: 0, attempt: 1, maxAttempts: 5, createdAt: new Date() };
}

async function history(where = 'true', values: unknown[] = []) {
  return (await t.db.pool.query(`SELECT h.status, h.reason, h.recipient, h.title, h.body, h.error, h.retries, h.parent_id, h.resource_id, h.source_event, n.name AS rule FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id WHERE ${where} ORDER BY h.created_at, h.id`, values)).rows;
}

/** Runs the sender until nothing is due (bounded). */
async function drain(rounds = 30) {
  for (let i = 0; i < rounds; i += 1) {
    const done = await engine.sendDue(50);
    const next = await engine.millisUntilDue();
    if (done === 0 && (next === undefined || next > 2_000)) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.min(next ?? 10, 200))));
  }
}

let canary = '';
async function check(name: string, status: 'healthy' | 'unhealthy' = 'unhealthy', type = 'http'): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>(
    "INSERT INTO checks (canary_id, key, type, name, status, labels) VALUES ($1, $2, $3, $2, $4, '{\"team\": \"payments\"}') RETURNING id",
    [canary, `${name}-${randomUUID().slice(0, 8)}`, type, status],
  );
  return rows[0]?.id as string;
}

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ env: { SMTP_URL: sink.url, SMTP_FROM: 'watchkeeper@example.com', PUBLIC_URL: 'https://console.example.com' } });
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({ path: req.url ?? '', body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
      if ((req.url ?? '').startsWith('/fail')) {
        res.statusCode = 500;
        res.end('{"error":"the webhook is down for maintenance"}');
      } else res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  const { rows } = await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('payments', 'default') RETURNING id");
  canary = rows[0]?.id as string;
  const results = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: hook, namespace: default}
spec: {type: generic_webhook, url: "${peerUrl}/hook"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: broken-hook, namespace: default}
spec: {type: generic_webhook, url: "${peerUrl}/fail"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: db, namespace: default}
spec:
  postgres: {url: "postgres://127.0.0.1:5432/test"}
`);
  expect(results.map((result) => result.errors)).toEqual([[], [], []]);
  engine = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', smtpUrl: sink.url, smtpFrom: 'watchkeeper@example.com', retryBaseMillis: 20, groupWaitMillis: 300 });
});

afterAll(async () => {
  await new Promise<void>((resolve) => peer.close(() => resolve()));
  await sink.close();
  await t.close();
});

beforeEach(async () => {
  received.length = 0;
  await t.db.pool.query('DELETE FROM notification_send_history');
  await t.db.pool.query('UPDATE notifications SET deleted_at = now() WHERE deleted_at IS NULL');
  await t.db.pool.query('UPDATE notification_silences SET deleted_at = now() WHERE deleted_at IS NULL');
  engine.invalidate();
});

describe('Notification rules', () => {
  it('apply from a Mission Control file, and refuse unknown events, bad CEL, templates and connection types by path', async () => {
    const ok = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: http-failures, namespace: default}
spec:
  events: [check.failed, "incident.status.*"]
  filter: check.type == 'http'
  title: "{{.check.name}} is down"
  to: {connection: connection://default/hook}
  repeatInterval: 30m
  somethingNew: true
`);
    expect(ok[0]?.errors).toEqual([]);
    expect(ok[0]?.outcome?.warnings).toEqual(['spec.somethingNew is not read by this console and was ignored']);
    const stored = (await t.db.pool.query("SELECT events, repeat_interval, custom_services FROM notifications WHERE name = 'http-failures' AND deleted_at IS NULL")).rows[0];
    expect(stored.events).toContain('incident.status.resolved');
    expect(stored.repeat_interval).toBe('1800s');
    expect(stored.custom_services[0]).toMatchObject({ kind: 'connection', connection: 'connection://default/hook', connection_type: 'generic_webhook' });

    const bad = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: broken}
spec:
  events: [check.exploded]
  filter: "check.name =="
  template: "{{ .check.name "
  to: {person: nobody@example.com}
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: wrong-connection}
spec:
  events: [check.failed]
  to: {connection: connection://default/db}
`);
    expect(bad[0]?.errors.join('\n')).toMatch(/spec\.events\.0: unknown event "check\.exploded"/);
    expect(bad[0]?.errors.join('\n')).toMatch(/spec\.filter/);
    // A template that does not parse is a warning, not a refusal: it fails when rendered, as in Mission Control (compat.int.test.ts).
    expect(bad[0]?.errors.join('\n')).not.toMatch(/spec\.template/);
    expect(bad[1]?.errors.join('\n')).toMatch(/spec\.to\.connection: connection default\/db is of type postgres, which cannot carry a notification/);
    const person = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: to-nobody}
spec:
  events: [check.failed]
  to: {person: nobody@example.com}
`);
    // A person who does not exist yet is waited for (waiting.int.test.ts), not refused.
    expect(person[0]).toMatchObject({ ok: true, errors: [] });
    expect(person[0]?.outcome?.warnings).toEqual(['spec.to.person: no person "nobody@example.com" yet; saved as waiting for them: nothing is sent to them until the person exists']);
    expect((await t.db.pool.query("SELECT count(*)::int AS n FROM notifications WHERE name IN ('broken', 'wrong-connection')")).rows[0].n).toBe(0);
  });

  it('applies files in the older and newer Mission Control shapes unchanged, naming what it reads differently or not at all', async () => {
    const results = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: crashloops, namespace: default}
spec:
  events: [config.unhealthy]
  filter: config.type == 'Kubernetes::Pod' && config.status == 'CrashLoopBackOff'
  title: "Pod {{.config.name}} is in CrashLoopBackOff"
  body: |
    {{.config.config | jq ".status.containerStatuses[0].state.waiting.message" }}
  email: alerts@example.com
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: incident-updates}
spec:
  events: [incident.status.cancelled, incident.status.resolved]
  to: {connection: connection://default/hook}
  waitFor: 1m
  onResolved: {enabled: true, waitFor: 30s}
---
apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: helm-release, namespace: mc}
spec:
  matcher: .config.type == "Kubernetes::HelmRelease" && .config.name == "mission-control"
  from: '2024-09-01T00:00:00Z'
  until: '2024-09-30T00:00:00Z'
  recursive: true
---
apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: test-env}
spec:
  from: 2024-01-01
  until: 2099-01-01
  selectors:
    - namespace: test
    - namespace: stage
`);
    expect(results.map((result) => result.errors)).toEqual([[], [], [], []]);
    expect(results[0]?.outcome?.warnings).toEqual(['spec.body is the older name of spec.template: read as the template', 'spec.email: read as spec.to (the recipient belongs under spec.to)']);
    expect(results[1]?.outcome?.warnings).toEqual([
      'spec.onResolved is not read by this console and was ignored',
      'spec.events: incident.status.cancelled never happen here (no such incident status or health), so they send nothing',
    ]);
    expect(results[2]?.outcome?.warnings).toEqual(['spec.matcher is the older form of spec.filter: read as the CEL filter']);
    const silence = (await t.db.pool.query("SELECT filter, recursive FROM notification_silences WHERE name = 'helm-release'")).rows[0];
    expect(silence).toEqual({ filter: 'config.type == "Kubernetes::HelmRelease" && config.name == "mission-control"', recursive: true });
  });

  it('examples/notifications apply as they are, without warnings', async () => {
    const dir = path.join(ROOT, 'examples', 'notifications');
    for (const file of await readdir(dir)) {
      const results = await apply(await readFile(path.join(dir, file), 'utf8'));
      for (const result of results) {
        expect(result, `${file} #${result.index}`).toMatchObject({ ok: true, errors: [] });
        expect(result.outcome?.warnings ?? [], `${file} #${result.index}`).toEqual([]);
      }
    }
  });

  it('the API refuses a bad rule with 400 naming body.spec paths, creates one, and disables it', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/notifications', headers: t.adminHeaders, payload: { name: 'api-rule', spec: { events: ['check.failed'], filter: 'check.name ==', to: { connection: 'hook' } } } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toContain('body.spec.filter');
    const created = await t.app.inject({ method: 'POST', url: '/api/notifications', headers: t.adminHeaders, payload: { name: 'api-rule', spec: { events: ['check.failed'], to: { connection: 'hook' } } } });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/notifications/${id}`, headers: t.adminHeaders, payload: { disabled: true } });
    expect(patched.json()).toMatchObject({ disabled: true, message: 'Notification updated successfully' });
    const viewer = await t.userWith(['viewer']);
    const denied = await t.app.inject({ method: 'POST', url: '/api/notifications', headers: viewer.headers, payload: { name: 'x', spec: { events: ['check.failed'], to: { connection: 'hook' } } } });
    expect(denied.statusCode).toBe(403);
  });
});

describe('the engine', () => {
  it('sends a failing check to a webhook with the default title and body, once, and records it as sent', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: to-hook}
spec:
  events: [check.failed]
  filter: "check.type == 'http' && labels.team == 'payments'"
  to: {connection: connection://default/hook}
`);
    const id = await check('checkout-api');
    const other = await check('dns-probe', 'unhealthy', 'dns');
    const ev = event('check.failed', id);
    expect(await engine.handleEvent(ev)).toBe(1);
    expect(await engine.handleEvent(ev)).toBe(0); // the same event again (a redelivery) records nothing more
    expect(await engine.handleEvent(event('check.failed', other))).toBe(0); // the filter leaves it out
    await drain();
    expect(received).toHaveLength(1);
    expect(received[0]?.path).toBe('/hook');
    expect(received[0]?.body.title).toMatch(/^Check checkout-api-\w+ has failed$/);
    expect(String(received[0]?.body.message)).toContain('Canary: payments');
    expect(String(received[0]?.body.message)).toContain(`https://console.example.com/health?checkId=${id}`);
    const rows = await history();
    expect(rows).toMatchObject([{ status: 'sent', recipient: 'connection connection://default/hook', rule: 'to-hook' }]);
  });

  it('records silenced (with the silence in words), and the preview lists what a silence would have matched', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: silenced-rule}
spec:
  events: [check.failed]
  to: {connection: hook}
`);
    const id = await check('noisy-job');
    await engine.handleEvent(event('check.failed', id));
    await drain();
    const preview = await t.app.inject({ method: 'POST', url: '/api/notification/silence/preview', headers: t.adminHeaders, payload: { check_id: id } });
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ total: 1, rows: [{ resource_id: id, status: 'sent' }] });
    const made = await t.app.inject({ method: 'POST', url: '/api/notification/silence', headers: t.adminHeaders, payload: { name: 'low-severity-jobs', check_id: id, until: 'indefinitely', description: 'known flaky' } });
    expect(made.statusCode).toBe(201);
    expect((await t.db.pool.query('SELECT until FROM notification_silences WHERE id = $1', [made.json().id])).rows[0].until).toBeNull();
    engine.invalidate();
    await engine.handleEvent(event('check.failed', id));
    const rows = await history("h.status = 'silenced'");
    expect(rows).toMatchObject([{ status: 'silenced', reason: 'silenced by low-severity-jobs' }]);
    const bad = await t.app.inject({ method: 'POST', url: '/api/notification/silence', headers: t.adminHeaders, payload: { filter: 'check.name ==', until: 'tomorrow-ish' } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toMatch(/body\.until.*body\.filter|body\.filter.*body\.until/s);
    const viewer = await t.userWith(['viewer']);
    expect((await t.app.inject({ method: 'POST', url: '/api/notification/silence', headers: viewer.headers, payload: { check_id: id } })).statusCode).toBe(403);
  });

  it('holds a repeat within repeatInterval, and a silence by CEL filter or selector', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: repeating}
spec:
  events: [check.failed]
  to: {connection: hook}
  repeatInterval: 1h
`);
    const id = await check('repeat-me');
    await engine.handleEvent(event('check.failed', id));
    await engine.handleEvent(event('check.failed', id));
    expect((await history()).map((row) => row.status).sort()).toEqual(['pending', 'repeat-interval']);
    await t.app.inject({ method: 'POST', url: '/api/notification/silence', headers: t.adminHeaders, payload: { filter: "check.name.startsWith('quiet')" } });
    await t.app.inject({ method: 'POST', url: '/api/notification/silence', headers: t.adminHeaders, payload: { selectors: [{ types: ['dns'], labelSelector: 'team=payments' }] } });
    engine.invalidate();
    await engine.handleEvent(event('check.failed', await check('quiet-one')));
    await engine.handleEvent(event('check.failed', await check('resolver', 'unhealthy', 'dns')));
    expect((await history("h.status = 'silenced'")).map((row) => row.reason)).toEqual([expect.stringMatching(/^silenced by /), expect.stringMatching(/^silenced by /)]);
  });

  it('retries a channel that answers an error, then records the error with the peer status and body, and falls back to email', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: with-fallback}
spec:
  events: [check.failed]
  to: {connection: broken-hook}
  fallback: {email: oncall@example.com, delay: 1ms}
`);
    const id = await check('payments-db');
    await engine.handleEvent(event('check.failed', id));
    const mail = sink.next('oncall@example.com', 15_000);
    await drain(60);
    const rows = await history();
    expect(rows[0]).toMatchObject({ status: 'error', retries: 4, recipient: 'connection connection://default/broken-hook' });
    expect(rows[0]?.error).toMatch(/500/);
    expect(rows[0]?.error).toContain('the webhook is down for maintenance');
    expect(rows[1]).toMatchObject({ status: 'sent', recipient: 'email oncall@example.com' });
    expect(rows[1]?.parent_id).toBeTruthy();
    const received = await mail;
    expect(received.raw).toMatch(/Subject: Check payments-db-\w+ has failed/);
    expect(received.raw).toContain('text/html');
    expect(received.raw).toContain('text/plain');
  });

  it('fans a team out to its members, sends one message for a group, and skips a waitFor that recovered', async () => {
    const alice = await t.userWith(['viewer'], 'alice@example.com');
    const bob = await t.userWith(['viewer'], 'bob@example.com');
    const team = (await t.db.pool.query<{ id: string }>("INSERT INTO teams (name) VALUES ('payments-oncall') RETURNING id")).rows[0]?.id;
    await t.db.pool.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2), ($1, $3)', [team, alice.id, bob.id]);
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: team-rule}
spec:
  events: [check.passed]
  to: {team: payments-oncall}
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: grouped}
spec:
  events: [check.failed]
  to: {connection: hook}
  groupBy: [type]
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: patient}
spec:
  events: [check.failed]
  filter: check.type == 'tcp'
  to: {connection: hook}
  waitFor: 200ms
`);
    const passed = await check('back-again', 'healthy');
    await engine.handleEvent(event('check.passed', passed));
    const teamRows = await history("n.name = 'team-rule'");
    // Sorted by address: the members' display names come from a user sequence shared with other files.
    const recipients = teamRows.map((row) => String(row.recipient));
    const address = (recipient: string) => /<([^>]+)>/.exec(recipient)?.[1] ?? recipient;
    expect(recipients.map(address).sort()).toEqual(['alice@example.com', 'bob@example.com']);

    const ids = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => check(`group-${name}`)));
    for (const id of ids) await engine.handleEvent(event('check.failed', id));
    const tcp = await check('flapping', 'unhealthy', 'tcp');
    await engine.handleEvent(event('check.failed', tcp));
    await t.db.pool.query("UPDATE checks SET status = 'healthy' WHERE id = $1", [tcp]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await drain();
    const grouped = await history("n.name = 'grouped'");
    // Two groups by type: the five http checks in one message (one sent, four grouped into it), the tcp one alone.
    expect(grouped.filter((row) => row.status === 'sent')).toHaveLength(2);
    expect(grouped.filter((row) => row.status === 'grouped')).toHaveLength(4);
    const hook = received.filter((item) => String(item.body.title).includes('more'));
    expect(hook).toHaveLength(1);
    expect(String(hook[0]?.body.message)).toMatch(/5 resources/);
    expect(await history("n.name = 'patient'")).toMatchObject([{ status: 'skipped', reason: expect.stringMatching(/is healthy again after waiting 200ms/) }]);
  });

  it('renders a Mission Control template over the config item itself (.config.config with jq)', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: crashloops}
spec:
  events: [config.unhealthy]
  filter: config.type == 'Kubernetes::Pod' && config.status == 'CrashLoopBackOff'
  title: "Pod {{.config.name}} in namespace {{.config.tags.namespace}} is in CrashLoopBackOff"
  template: |
    {{.config.config | jq ".status.containerStatuses[0].state.waiting.message" }}
  to: {connection: hook}
`);
    const pod = (await t.db.pool.query<{ id: string }>(
      `INSERT INTO config_items (type, name, status, health, tags, external_id, config) VALUES ('Kubernetes::Pod', 'api-7f9', 'CrashLoopBackOff', 'unhealthy', '{"namespace": "shop"}', '{pod/api-7f9}', $1) RETURNING id`,
      [JSON.stringify({ status: { containerStatuses: [{ state: { waiting: { message: 'back-off 5m0s restarting failed container' } } }] } })],
    )).rows[0]?.id as string;
    await engine.handleEvent(event('config.unhealthy', pod));
    await drain();
    expect(received).toHaveLength(1);
    expect(received[0]?.body.title).toBe('Pod api-7f9 in namespace shop is in CrashLoopBackOff');
    expect(String(received[0]?.body.message)).toContain('back-off 5m0s restarting failed container');
  });

  it('inhibits a child config while its parent Deployment has a message on its way', async () => {
    await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: k8s}
spec:
  events: [config.unhealthy]
  to: {connection: hook}
  inhibitions:
    - {direction: outgoing, from: Kubernetes::Deployment, to: [Kubernetes::Pod], depth: 2}
`);
    const deployment = (await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, external_id) VALUES ('Kubernetes::Deployment', 'web', 'unhealthy', '{dep/web}') RETURNING id")).rows[0]?.id as string;
    const pod = (await t.db.pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, parent_id, external_id) VALUES ('Kubernetes::Pod', 'web-1', 'unhealthy', $1, '{pod/web-1}') RETURNING id", [deployment])).rows[0]?.id as string;
    await engine.handleEvent(event('config.unhealthy', deployment));
    await engine.handleEvent(event('config.unhealthy', pod));
    const rows = await history();
    expect(rows.map((row) => [row.status, row.reason])).toEqual([
      ['pending', null],
      ['inhibited', 'inhibited by Kubernetes::Deployment web'],
    ]);
  });
});
