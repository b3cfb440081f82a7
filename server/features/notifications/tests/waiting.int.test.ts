import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import type { QueuedEvent } from '../../../platform/jobs/event-queue';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { NotificationEngine } from '../engine';

/**
 * Rules that name a connection, team or person before it exists (fixtures/compat/waiting-recipients.yaml,
 * docs/RESOURCES.md "References to what does not exist yet"): saved with a warning and `waiting_for`, a send
 * meanwhile fails saying why, and creating the connection, team or person resolves them with no re-apply.
 */
const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'compat', 'waiting-recipients.yaml');

let t: TestApp;
let peer: http.Server;
let peerUrl = '';
let engine: NotificationEngine;
const received: string[] = [];

async function apply(text: string, file = 'test.yaml') {
  return applyDocuments(t.db.pool, kinds, [{ file, text }], 'ConfigFile', log);
}

function event(name: string, id: string): QueuedEvent {
  return { id: randomUUID(), eventId: randomUUID(), name, properties: { id }, priority: 0, attempt: 1, maxAttempts: 5, createdAt: new Date() };
}

async function drain() {
  for (let i = 0; i < 30; i += 1) {
    const done = await engine.sendDue(50);
    const next = await engine.millisUntilDue();
    if (done === 0 && (next === undefined || next > 2_000)) return;
    await new Promise((resolve) => setTimeout(resolve, Math.max(10, Math.min(next ?? 10, 200))));
  }
}

async function rule(name: string) {
  const { rows } = await t.db.pool.query('SELECT person_id, team_id, custom_services, fallback_custom_services, waiting_for, error FROM notifications WHERE name = $1 AND deleted_at IS NULL', [name]);
  return rows[0];
}

let checkId = '';

beforeAll(async () => {
  t = await createTestApp();
  peer = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(req.url ?? '');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  const canary = (await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('edge', 'ops') RETURNING id")).rows[0]?.id;
  checkId = (await t.db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, status) VALUES ($1, 'http/edge', 'http', 'edge', 'unhealthy') RETURNING id", [canary])).rows[0]?.id ?? '';
  engine = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', retryBaseMillis: 20, groupWaitMillis: 300 });
});

afterAll(async () => {
  await new Promise<void>((resolve) => peer.close(() => resolve()));
  await t?.close();
});

describe('Notification rules that name what does not exist yet', () => {
  it('apply with a warning naming each reference, and show as waiting in /api/db', async () => {
    const results = await apply(await readFile(FIXTURE, 'utf8'), 'waiting-recipients.yaml');
    expect(results.map((result) => [result.name, result.ok, result.errors])).toEqual([
      ['pager-before-hooks', true, []],
      ['night-shift-alerts', true, []],
      ['lead-alerts', true, []],
    ]);
    expect(results[0]?.outcome?.warnings).toEqual([
      'spec.to.connection: connection "ops/pager-hook" does not exist yet; saved as waiting for it: nothing goes through it until it is created (a send meanwhile fails, saying so)',
      'spec.fallback.connection: connection "ops/backup-hook" does not exist yet; saved as waiting for it: nothing goes through it until it is created (a send meanwhile fails, saying so)',
    ]);
    expect(results[1]?.outcome?.warnings).toEqual(['spec.to.team: no team "night-shift" yet; saved as waiting for it: nothing is sent to it until the team exists']);
    expect(results[2]?.outcome?.warnings).toEqual(['spec.to.person: no person "ops-lead@example.com" yet; saved as waiting for them: nothing is sent to them until the person exists']);
    const res = await t.app.inject({ method: 'GET', url: '/api/db/notifications_summary?select=name,status,waiting_for&namespace=eq.ops&order=name', headers: t.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { name: 'lead-alerts', status: 'waiting', waiting_for: [{ path: 'spec.to.person', kind: 'person', ref: 'ops-lead@example.com' }] },
      { name: 'night-shift-alerts', status: 'waiting', waiting_for: [{ path: 'spec.to.team', kind: 'team', ref: 'night-shift' }] },
      {
        name: 'pager-before-hooks',
        status: 'waiting',
        waiting_for: [
          { path: 'spec.to.connection', kind: 'connection', ref: 'ops/pager-hook' },
          { path: 'spec.fallback.connection', kind: 'connection', ref: 'ops/backup-hook' },
        ],
      },
    ]);
  });

  it('a send meanwhile fails with the reason, the fallback too; a waiting team or person records it on the rule', async () => {
    engine.invalidate();
    expect(await engine.handleEvent(event('check.failed', checkId))).toBe(1);
    await drain();
    const { rows } = await t.db.pool.query<{ status: string; recipient: string; error: string | null; reason: string | null }>(
      "SELECT h.status, h.recipient, h.error, h.reason FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id WHERE n.name = 'pager-before-hooks' ORDER BY h.created_at, h.id",
    );
    expect(rows.map((row) => [row.status, row.recipient])).toEqual([
      ['error', 'connection connection://ops/pager-hook'],
      ['error', 'connection connection://ops/backup-hook'],
    ]);
    expect(rows[0]?.error).toBe(
      'to.connection: connection "ops/pager-hook" not found: the rule was saved before this connection existed and waits for it; nothing was sent (once the connection is created, the next send uses it)',
    );
    expect(rows[1]?.error).toContain('connection "ops/backup-hook" not found: the rule was saved before this connection existed and waits for it');
    expect((await rule('night-shift-alerts'))?.error).toBe('waiting for team "night-shift" (spec.to.team), which does not exist yet: nothing was sent there');
    expect((await rule('lead-alerts'))?.error).toBe('waiting for person "ops-lead@example.com" (spec.to.person), which does not exist yet: nothing was sent there');
    expect(received).toEqual([]);
  });

  it('creating the connection, team and person resolves the rules without re-applying them', async () => {
    const created = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: pager-hook, namespace: ops}
spec: {type: generic_webhook, url: "${peerUrl}/pager"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Team
metadata: {name: night-shift}
spec: {}
`);
    expect(created.map((result) => result.errors)).toEqual([[], []]);
    const lead = await t.userWith(['viewer'], 'ops-lead@example.com');
    const pager = await rule('pager-before-hooks');
    expect(pager?.waiting_for).toEqual([{ path: 'spec.fallback.connection', kind: 'connection', ref: 'ops/backup-hook' }]);
    expect(pager?.custom_services).toEqual([{ kind: 'connection', connection: 'connection://ops/pager-hook', connection_id: expect.any(String), connection_type: 'generic_webhook' }]);
    const team = (await t.db.pool.query<{ id: string }>("SELECT id FROM teams WHERE name = 'night-shift'")).rows[0]?.id;
    // The error that said what the rule waited for goes with the wait.
    expect(await rule('night-shift-alerts')).toMatchObject({ team_id: team, waiting_for: null, error: null });
    expect(await rule('lead-alerts')).toMatchObject({ person_id: lead.id, waiting_for: null, error: null });
    const summary = await t.app.inject({ method: 'GET', url: '/api/db/notifications_summary?select=name,waiting_for&name=eq.night-shift-alerts', headers: t.adminHeaders });
    expect(summary.json()).toEqual([{ name: 'night-shift-alerts', waiting_for: null }]);

    // The next event goes through the connection that now exists.
    engine.invalidate();
    await t.db.pool.query('DELETE FROM notification_send_history');
    expect(await engine.handleEvent(event('check.failed', checkId))).toBeGreaterThanOrEqual(1);
    await drain();
    expect(received).toEqual(['/pager']);
    const sent = await t.db.pool.query("SELECT h.status FROM notification_send_history h JOIN notifications n ON n.id = h.notification_id WHERE n.name = 'pager-before-hooks'");
    expect(sent.rows).toEqual([{ status: 'sent' }]);
  });
});
