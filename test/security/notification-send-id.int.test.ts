import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { NotificationEngine } from '../../server/features/notifications/engine';
import { features } from '../../server/features';
import type { QueuedEvent } from '../../server/platform/jobs/event-queue';
import { createLogger } from '../../server/platform/logger';
import { applyDocuments } from '../../server/platform/resources';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, finding 11 (notifications): after kill -9 an in-flight send went out twice with nothing to tell
 * the copies apart, while the send history said once. Every send now carries its history row's id
 * (X-Watchkeeper-Send-Id, and `sendId` in the generic webhook's body), and a send claimed again after its
 * instance died is re-sent with the same id and counted in `retries`.
 */
const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);

interface Arrival {
  sendId: string | undefined;
  body: Record<string, unknown>;
}

let t: TestApp;
let sink: http.Server;
const arrivals: Arrival[] = [];
/** While set, the sink keeps the request open without answering (the sender is stuck mid-send). */
let hold = false;
const held: http.ServerResponse[] = [];
let canary = '';

function event(name: string, id: string): QueuedEvent {
  return { id: randomUUID(), eventId: randomUUID(), name, properties: { id }, priority: 0, attempt: 1, maxAttempts: 5, createdAt: new Date() };
}

async function failingCheck(name: string): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, status) VALUES ($1, $2, 'http', $2, 'unhealthy') RETURNING id", [canary, `${name}-${randomUUID().slice(0, 8)}`]);
  return rows[0]?.id as string;
}

async function waitFor(what: string, condition: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://console.example.com' } });
  sink = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const header = req.headers['x-watchkeeper-send-id'];
      arrivals.push({ sendId: Array.isArray(header) ? header[0] : header, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      if (hold) held.push(res);
      else res.end('ok');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hook`;
  canary = (await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name) VALUES ('shop') RETURNING id")).rows[0]?.id as string;
  const applied = await applyDocuments(t.db.pool, kinds, [{ file: 'rules.yaml', text: `
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: sink, namespace: default}
spec: {type: generic_webhook, url: "${url}"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: failures, namespace: default}
spec:
  events: [check.failed]
  to: {connection: sink}
` }], 'ConfigFile', log);
  expect(applied.map((result) => result.errors)).toEqual([[], []]);
}, 60_000);

afterAll(async () => {
  for (const res of held) res.end('late');
  sink.closeAllConnections();
  await new Promise<void>((resolve) => sink.close(() => resolve()));
  await t?.close();
});

beforeEach(async () => {
  arrivals.length = 0;
  hold = false;
  await t.db.pool.query('DELETE FROM notification_send_history');
});

it('a generic webhook receives X-Watchkeeper-Send-Id and sendId, equal, the id of the send history row', async () => {
  const engine = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', retryBaseMillis: 20 });
  expect(await engine.handleEvent(event('check.failed', await failingCheck('cart')))).toBe(1);
  await engine.sendDue(10);
  expect(arrivals).toHaveLength(1);
  const [arrival] = arrivals;
  const { rows } = await t.db.pool.query<{ id: string; status: string; retries: number }>('SELECT id, status, retries FROM notification_send_history');
  expect(rows).toEqual([{ id: expect.any(String), status: 'sent', retries: 0 }]);
  expect(arrival?.sendId).toBe(rows[0]?.id);
  expect(arrival?.body.sendId).toBe(arrival?.sendId);
  expect(arrival?.body.title).toMatch(/^Check cart-\w+ has failed$/);
});

it('a send claimed but not recorded (its instance died) is re-sent with the same id after the lease, retries counting it', async () => {
  const dying = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', instanceId: 'instance-killed', retryBaseMillis: 20 });
  const survivor = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', instanceId: 'instance-survivor', retryBaseMillis: 20 });
  await dying.handleEvent(event('check.failed', await failingCheck('payments')));

  // The first instance claims the row and its message reaches the receiver; then it "dies" before it
  // records the outcome (the receiver holds the answer, and the process is gone as far as the row knows).
  hold = true;
  const inFlight = dying.sendDue(10);
  await waitFor('the first delivery', () => arrivals.length === 1);
  const claimed = (await t.db.pool.query<{ id: string; status: string; claimed_by: string; retries: number }>('SELECT id, status, claimed_by, retries FROM notification_send_history')).rows;
  expect(claimed).toEqual([{ id: expect.any(String), status: 'pending', claimed_by: 'instance-killed', retries: 0 }]);
  const rowId = claimed[0]?.id;

  // Its lease runs out (as after kill -9: nobody renews it), and another instance claims the row again.
  await t.db.pool.query("UPDATE notification_send_history SET claimed_until = now() - interval '1 second' WHERE id = $1", [rowId]);
  hold = false;
  expect(await survivor.sendDue(10)).toBe(1);
  expect(arrivals).toHaveLength(2);
  expect(arrivals.map((arrival) => arrival.sendId)).toEqual([rowId, rowId]);
  expect(arrivals.map((arrival) => arrival.body.sendId)).toEqual([rowId, rowId]);

  const after = (await t.db.pool.query<{ status: string; retries: number; reason: string | null; claimed_by: string | null }>('SELECT status, retries, reason, claimed_by FROM notification_send_history WHERE id = $1', [rowId])).rows;
  expect(after).toEqual([{ status: 'sent', retries: 1, reason: expect.stringMatching(/^re-sent \(same X-Watchkeeper-Send-Id\) after instance-killed/), claimed_by: null }]);

  // The dead instance's late answer changes nothing: its claim is gone.
  for (const res of held.splice(0)) res.end('ok');
  await inFlight;
  expect((await t.db.pool.query('SELECT status, retries FROM notification_send_history WHERE id = $1', [rowId])).rows).toEqual([{ status: 'sent', retries: 1 }]);
  // Nothing else is due: the receiver saw two copies of one send, with one id to drop the second by.
  expect(await survivor.sendDue(10)).toBe(0);
  expect(arrivals).toHaveLength(2);
});

it('a failed attempt retried normally keeps the same id', async () => {
  const engine = new NotificationEngine(t.db.pool, log, { publicUrl: 'https://console.example.com', retryBaseMillis: 20 });
  await engine.handleEvent(event('check.failed', await failingCheck('search')));
  // The first attempt is refused (the sink answers 503), the next one goes through.
  sink.removeAllListeners('request');
  let refuse = true;
  sink.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const header = req.headers['x-watchkeeper-send-id'];
      arrivals.push({ sendId: Array.isArray(header) ? header[0] : header, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      res.statusCode = refuse ? 503 : 200;
      refuse = false;
      res.end('busy');
    });
  });
  await engine.sendDue(10);
  await new Promise((resolve) => setTimeout(resolve, 60));
  await engine.sendDue(10);
  const { rows } = await t.db.pool.query<{ id: string; status: string; retries: number }>('SELECT id, status, retries FROM notification_send_history');
  expect(rows).toEqual([{ id: expect.any(String), status: 'sent', retries: 1 }]);
  expect(arrivals.map((arrival) => arrival.sendId)).toEqual([rows[0]?.id, rows[0]?.id]);
});
