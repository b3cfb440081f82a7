import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { platformJobsFeature } from '../../../platform/jobs/feature';
import { publish } from '../../../platform/jobs/event-queue';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { notificationsFeature } from '../index';

/**
 * What `serve` runs: the `notifications` consumer (through the platform's background work) and the
 * sender, started as serve starts them, deliver a published event to a local webhook.
 */
const log = createLogger('silent');
let t: TestApp;
let peer: http.Server;
const arrived: Array<{ at: number; body: Record<string, unknown> }> = [];
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await createTestApp();
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrived.push({ at: Date.now(), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/hook`;
  const kinds = features.flatMap((feature) => feature.kinds ?? []);
  const applied = await applyDocuments(t.db.pool, kinds, [{ file: 'rules.yaml', text: `
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: hook}
spec: {type: generic_webhook, url: "${url}"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: failures}
spec:
  events: [check.failed]
  to: {connection: hook}
` }], 'ConfigFile', log);
  expect(applied.map((result) => result.errors)).toEqual([[], []]);
  stops.push(await notificationsFeature.start!(t.context));
  stops.push(await platformJobsFeature.start!(t.context));
});

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await new Promise<void>((resolve) => peer.close(() => resolve()));
  await t.close();
});

it('delivers a published check.failed to the rule\'s webhook within seconds, and leaves nothing queued', async () => {
  const canary = (await t.db.pool.query<{ id: string }>("INSERT INTO canaries (name) VALUES ('shop') RETURNING id")).rows[0]?.id;
  const check = (await t.db.pool.query<{ id: string }>("INSERT INTO checks (canary_id, key, type, name, status) VALUES ($1, 'http/cart', 'http', 'cart', 'unhealthy') RETURNING id", [canary])).rows[0]?.id;
  // The consumer subscribes when it starts; wait for it so the event is delivered to it.
  for (let i = 0; i < 100 && (await t.db.pool.query("SELECT 1 FROM event_consumers WHERE name = 'notifications'")).rows.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  const published = Date.now();
  await publish(t.db.pool, 'check.failed', { id: check });
  for (let i = 0; i < 200 && arrived.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(arrived).toHaveLength(1);
  expect(arrived[0]?.body.title).toBe('Check cart has failed');
  expect((arrived[0]?.at ?? Infinity) - published).toBeLessThan(5_000);
  for (let i = 0; i < 40; i += 1) {
    const left = (await t.db.pool.query("SELECT count(*)::int AS n FROM event_queue WHERE consumer = 'notifications'")).rows[0].n;
    if (left === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect((await t.db.pool.query("SELECT count(*)::int AS n FROM event_queue WHERE consumer = 'notifications'")).rows[0].n).toBe(0);
  // The webhook answers before the engine records the send: wait (bounded) for the record.
  const history = () => t.db.pool.query<{ status: string; recipient: string }>('SELECT status, recipient FROM notification_send_history');
  await expect.poll(async () => (await history()).rows, { timeout: 10_000 }).toEqual([{ status: 'sent', recipient: 'connection connection://default/hook' }]);
});
