// Notifications, measured (docs/NOTIFICATIONS.md). Targets from the issue:
//  1. event → delivery at a local webhook: p95 ≤ 2 s. The real path: events published to the event queue,
//     the `notifications` consumer of a background runtime handling them (NotificationEngine.handleEvent),
//     and a NotificationSender delivering through a generic_webhook Connection to a local HTTP peer that
//     records when each message arrives.
//  2. a burst of 10,000 failing checks within one minute, a `groupBy: [type]` rule, TWO instances (runtime,
//     engine and sender each, own pools) on one database: every event accounted for (one send-history row per
//     event, sent or grouped), 0 lost, 0 sent twice, one webhook message per group.
//  3. silences evaluated per event with 1,000 active silences: SilenceIndex.match p95 ≤ 1 ms; and, printed
//     apart (no target), the inhibition lookup (engine.inhibitor) for a config with a parent chain.
// Run: npx tsx bench/notifications.ts [latency events, default 300] [burst events, default 10000]
// (BURST_SECONDS, default 60: the window the burst is published in.)
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { features } from '../server/features';
import { NotificationEngine } from '../server/features/notifications/engine';
import { NotificationSender } from '../server/features/notifications/index';
import type { EventResource } from '../server/features/notifications/resource';
import { loadEventResource } from '../server/features/notifications/resource';
import { SilenceIndex, toActive } from '../server/features/notifications/silences';
import { createPool } from '../server/platform/db/pool';
import { publish, publishMany } from '../server/platform/jobs/event-queue';
import { BackgroundWork } from '../server/platform/jobs/registry';
import { startBackgroundWork, type BackgroundRuntime } from '../server/platform/jobs/runtime';
import { createLogger } from '../server/platform/logger';
import { Metrics } from '../server/platform/metrics';
import { celIsTrue, celScope, evaluateCel } from '../server/platform/expressions';
import { applyDocuments } from '../server/platform/resources';
import { quantile, withEmbedded, type BenchDatabase } from './_db';

const LATENCY_EVENTS = Number(process.argv[2] ?? 300);
const BURST_EVENTS = Number(process.argv[3] ?? 10_000);
const BURST_SECONDS = Number(process.env.BURST_SECONDS ?? 60);
const BURST_TYPES = 10;
const GROUP_WAIT_MILLIS = 2_000;
const PUBLIC_URL = 'https://console.example.com';

interface Row {
  figure: string;
  value: string;
  target: string;
  verdict: 'PASS' | 'FAIL' | 'info';
}
const summary: Row[] = [];
const out = (line: string) => process.stdout.write(`${line}\n`);
const ms = (value: number) => `${value < 1 ? value.toFixed(3) : value < 100 ? value.toFixed(1) : Math.round(value).toString()} ms`;
const n = (value: number) => value.toLocaleString('en-US');
const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis));
const quiet = createLogger('error');
const kinds = features.flatMap((feature) => feature.kinds ?? []);

async function apply(pool: pg.Pool, text: string): Promise<void> {
  const results = await applyDocuments(pool, kinds, [{ file: 'bench.yaml', text }], 'ConfigFile', createLogger('warn'));
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) throw new Error(`setup not applied: ${failed.map((result) => `${result.kind} ${result.name}: ${result.errors.join('; ')}`).join(' | ')}`);
}

// ── The webhook peer ─────────────────────────────────────────────────────────────────────────────────

interface Arrival {
  at: number;
  title: string;
  message: string;
}

async function startPeer(): Promise<{ url: string; arrivals: Arrival[]; close(): Promise<void> }> {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title?: string; message?: string };
        arrivals.push({ at, title: String(body.title ?? ''), message: String(body.message ?? '') });
      } catch {
        arrivals.push({ at, title: '', message: '' });
      }
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

// ── An instance: what `serve` runs for notifications ────────────────────────────────────────────────

interface Instance {
  name: string;
  pool: pg.Pool;
  engine: NotificationEngine;
  stop(): Promise<void>;
}

/**
 * One instance as `serve` has it: its own pool (the default size, 20), a background runtime with default
 * timings running the `notifications` consumer (batch 50, as the feature registers it), a NotificationEngine
 * and a NotificationSender on the same pool.
 */
async function startInstance(url: string, name: string, groupWaitMillis?: number): Promise<Instance> {
  const pool = createPool(url, quiet);
  const engine = new NotificationEngine(pool, quiet, { publicUrl: PUBLIC_URL, instanceId: `bench-${name}`, ...(groupWaitMillis ? { groupWaitMillis } : {}) });
  const registry = new BackgroundWork().consumer({
    name: 'notifications',
    events: ['check.failed'],
    batchSize: 50,
    maxAttempts: 5,
    handler: async (event) => {
      await engine.handleEvent(event);
    },
  });
  const runtime: BackgroundRuntime = await startBackgroundWork({ pool, log: quiet, metrics: new Metrics(pool) }, registry, { instanceId: `bench-${name}-${randomUUID().slice(0, 8)}` });
  const sender = new NotificationSender(engine, pool, quiet);
  await sender.start();
  return {
    name,
    pool,
    engine,
    async stop() {
      await sender.stop();
      await runtime.stop();
      await pool.end();
    },
  };
}

async function insertChecks(pool: pg.Pool, canary: string, names: string[], types: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (let at = 0; at < names.length; at += 5_000) {
    const { rows } = await pool.query<{ id: string }>(
      `INSERT INTO checks (canary_id, key, type, name, status, labels)
       SELECT $1, u.name, u.type, u.name, 'unhealthy', jsonb_build_object('team', 'team-' || (u.n % 7)) FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(name, type, n)
       ORDER BY u.n RETURNING id`,
      [canary, names.slice(at, at + 5_000), types.slice(at, at + 5_000)],
    );
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

async function until(what: string, timeoutMillis: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMillis;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  out(`  (gave up waiting for ${what} after ${timeoutMillis / 1000} s)`);
  return false;
}

// ── 1. Event → delivery ─────────────────────────────────────────────────────────────────────────────

async function latency(db: BenchDatabase, peer: Awaited<ReturnType<typeof startPeer>>): Promise<void> {
  const { pool } = db;
  await apply(pool, `apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: hook, namespace: default}
spec: {type: generic_webhook, url: "${peer.url}/hook"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: bench-latency, namespace: default}
spec:
  events: [check.failed]
  to: {connection: connection://default/hook}
`);
  const canary = (await pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('bench-latency', 'default') RETURNING id")).rows[0]?.id as string;
  const names = Array.from({ length: LATENCY_EVENTS }, (_, i) => `lat-${String(i).padStart(5, '0')}`);
  const ids = await insertChecks(pool, canary, names, names.map(() => 'http'));

  const instance = await startInstance(db.url, 'latency');
  peer.arrivals.length = 0;
  // Warm-up: a few events not measured (first rule/silence load, code paths compiled, connection opened).
  const warm = await insertChecks(pool, canary, ['lat-warm-1', 'lat-warm-2', 'lat-warm-3'], ['http', 'http', 'http']);
  for (const id of warm) await publish(pool, 'check.failed', { id });
  await until('the warm-up messages', 30_000, async () => peer.arrivals.length >= warm.length);
  peer.arrivals.length = 0;

  const published = new Map<string, number>();
  const started = performance.now();
  for (let i = 0; i < ids.length; i += 1) {
    const at = performance.now();
    await publish(pool, 'check.failed', { id: ids[i] });
    published.set(names[i] as string, at);
    const next = started + (i + 1) * 20;
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
  }
  const publishSeconds = (performance.now() - started) / 1000;
  await until('every message at the peer', 60_000, async () => peer.arrivals.length >= ids.length);
  await instance.stop();

  const samples: number[] = [];
  let unmatched = 0;
  const seen = new Set<string>();
  for (const arrival of peer.arrivals) {
    const name = /^Check (\S+) has failed/.exec(arrival.title)?.[1];
    const at = name === undefined ? undefined : published.get(name);
    if (at === undefined || !name || seen.has(name)) {
      unmatched += 1;
      continue;
    }
    seen.add(name);
    samples.push(arrival.at - at);
  }
  samples.sort((a, b) => a - b);
  const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(samples, q)) as [number, number, number];
  const max = samples[samples.length - 1] ?? NaN;
  const missing = ids.length - samples.length;
  out(`1. event → delivery at a local webhook: ${n(ids.length)} check.failed events, one every 20 ms (published in ${publishSeconds.toFixed(1)} s), one instance`);
  out(`   publish → arrival  p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(p99)}  max ${ms(max)}  min ${ms(samples[0] ?? NaN)}`);
  out(`   messages received ${n(peer.arrivals.length)}; matched ${n(samples.length)}; missing ${n(missing)}; unmatched or repeated ${n(unmatched)}`);
  summary.push({ figure: 'event → webhook, p95', value: ms(p95), target: '≤ 2 s', verdict: p95 <= 2_000 && missing === 0 ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'event → webhook, p50 / max', value: `${ms(p50)} / ${ms(max)}`, target: '', verdict: 'info' });

  await pool.query("UPDATE notifications SET deleted_at = now() WHERE name = 'bench-latency'");
}

// ── 2. Burst across two instances ──────────────────────────────────────────────────────────────────

async function burst(db: BenchDatabase, peer: Awaited<ReturnType<typeof startPeer>>): Promise<void> {
  const { pool } = db;
  await apply(pool, `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: bench-burst, namespace: default}
spec:
  events: [check.failed]
  to: {connection: connection://default/hook}
  groupBy: [type]
`);
  const rule = (await pool.query<{ id: string }>("SELECT id FROM notifications WHERE name = 'bench-burst' AND deleted_at IS NULL")).rows[0]?.id as string;
  const canary = (await pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('bench-burst', 'default') RETURNING id")).rows[0]?.id as string;
  const types = Array.from({ length: BURST_TYPES }, (_, i) => `type-${i}`);
  const names = Array.from({ length: BURST_EVENTS }, (_, i) => `burst-${String(i).padStart(5, '0')}`);
  const seeded = performance.now();
  const ids = await insertChecks(pool, canary, names, names.map((_, i) => types[i % BURST_TYPES] as string));
  out(`\n2. burst: ${n(BURST_EVENTS)} failing checks (${BURST_TYPES} types) seeded in ${Math.round(performance.now() - seeded)} ms; rule groupBy [type], groupWaitMillis ${GROUP_WAIT_MILLIS}; two instances`);

  const instances = [await startInstance(db.url, 'a', GROUP_WAIT_MILLIS), await startInstance(db.url, 'b', GROUP_WAIT_MILLIS)];
  peer.arrivals.length = 0;
  const arrivalsBefore = peer.arrivals.length;

  // Publish in ticks of 100 ms, each tick's events in one transaction (publishMany: one INSERT).
  const ticks = Math.max(1, Math.round(BURST_SECONDS * 10));
  const perTick = Math.ceil(ids.length / ticks);
  let publishedCount = 0;
  const started = performance.now();
  for (let tick = 0; tick * perTick < ids.length; tick += 1) {
    const slice = ids.slice(tick * perTick, (tick + 1) * perTick);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      publishedCount += (await publishMany(client, slice.map((id) => ({ name: 'check.failed', properties: { id } })))).length;
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    const wait = started + (tick + 1) * 100 - performance.now();
    if (wait > 0) await sleep(wait);
  }
  const publishSeconds = (performance.now() - started) / 1000;

  // Progress while it drains: recorded rows and queue depth every 10 s.
  let lastReport = performance.now();
  const handledAt: number[] = [];
  let maxQueued = 0;
  const done = await until('the queue and the pending rows to drain', 300_000, async () => {
    const { rows } = await pool.query<{ queued: number; pending: number; recorded: number }>(
      `SELECT (SELECT count(*) FROM event_queue WHERE consumer IN ('notifications', ''))::int AS queued,
              (SELECT count(*) FROM notification_send_history WHERE notification_id = $1 AND status IN ('pending', 'evaluating-waitfor', 'attempting_fallback'))::int AS pending,
              (SELECT count(*) FROM notification_send_history WHERE notification_id = $1)::int AS recorded`,
      [rule],
    );
    const row = rows[0] as { queued: number; pending: number; recorded: number };
    maxQueued = Math.max(maxQueued, row.queued);
    if (row.recorded >= publishedCount && handledAt.length === 0) handledAt.push(performance.now());
    if (performance.now() - lastReport >= 10_000) {
      lastReport = performance.now();
      out(`   … ${((performance.now() - started) / 1000).toFixed(0)} s: recorded ${n(row.recorded)}, queue ${n(row.queued)}, pending ${n(row.pending)}`);
    }
    return row.queued === 0 && row.pending === 0 && row.recorded >= publishedCount;
  });
  const wall = (performance.now() - started) / 1000;
  const recordedSeconds = ((handledAt[0] ?? performance.now()) - started) / 1000;
  await sleep(500);
  for (const instance of instances) await instance.stop();

  const byStatus = (await pool.query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM notification_send_history WHERE notification_id = $1 GROUP BY status ORDER BY status', [rule])).rows;
  const totals = (await pool.query<{ rows: number; events: number; resources: number; recipients: number; dup_events: number; dup_resources: number; }>(
    `SELECT count(*)::int AS rows, count(DISTINCT event_id)::int AS events, count(DISTINCT resource_id)::int AS resources, count(DISTINCT recipient_key)::int AS recipients,
            (SELECT count(*) FROM (SELECT event_id FROM notification_send_history WHERE notification_id = $1 GROUP BY event_id HAVING count(*) > 1) d)::int AS dup_events,
            (SELECT count(*) FROM (SELECT resource_id FROM notification_send_history WHERE notification_id = $1 GROUP BY resource_id HAVING count(*) > 1) d)::int AS dup_resources
       FROM notification_send_history WHERE notification_id = $1`,
    [rule],
  )).rows[0] as { rows: number; events: number; resources: number; recipients: number; dup_events: number; dup_resources: number };
  const groups = (await pool.query<{ hash: string; sent: number; grouped: number; other: number }>(
    `SELECT group_by_hash AS hash, count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'grouped')::int AS grouped,
            count(*) FILTER (WHERE status NOT IN ('sent', 'grouped'))::int AS other
       FROM notification_send_history WHERE notification_id = $1 GROUP BY group_by_hash ORDER BY group_by_hash`,
    [rule],
  )).rows;
  // Grouped rows must point at a sent row of their own group.
  const orphans = (await pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM notification_send_history g LEFT JOIN notification_send_history p ON p.id = g.parent_id
      WHERE g.notification_id = $1 AND g.status = 'grouped' AND (p.id IS NULL OR p.status <> 'sent' OR p.group_by_hash <> g.group_by_hash)`,
    [rule],
  )).rows[0]?.n ?? 0;
  const queueLeft = (await pool.query<{ n: number; failed: number }>("SELECT count(*)::int AS n, count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed FROM event_queue WHERE consumer IN ('notifications', '')")).rows[0] ?? { n: 0, failed: 0 };

  // What the webhook received: one message per send; each lists up to 100 resources by title.
  const messages = peer.arrivals.slice(arrivalsBefore);
  const inMessages = new Map<string, number>();
  let claimed = 0;
  for (const message of messages) {
    const listed = new Set<string>();
    for (const match of `${message.title}\n${message.message}`.matchAll(/Check (burst-\d+) has failed/g)) listed.add(match[1] as string);
    for (const name of listed) inMessages.set(name, (inMessages.get(name) ?? 0) + 1);
    claimed += 1 + Number(/\(and (\d+) more\)/.exec(message.title)?.[1] ?? 0);
  }
  const repeatedInMessages = [...inMessages.values()].filter((count) => count > 1).length;
  const statuses = Object.fromEntries(byStatus.map((row) => [row.status, row.n]));
  const sentOrGrouped = (statuses.sent ?? 0) + (statuses.grouped ?? 0);
  const notDone = totals.rows - sentOrGrouped;
  const lost = publishedCount - totals.events;
  const handledPerSecond = totals.rows / recordedSeconds;

  out(`   published ${n(publishedCount)} events in ${publishSeconds.toFixed(1)} s (${n(perTick)} per 100 ms tick, one transaction each)`);
  out(`   drained (queue empty, nothing pending) ${done ? `after ${wall.toFixed(1)} s` : `NOT within the wait (${wall.toFixed(1)} s)`}; every event recorded after ${recordedSeconds.toFixed(1)} s → ${n(Math.round(handledPerSecond))} events/s handled by the two consumers (offered ${n(Math.round(publishedCount / publishSeconds))}/s; deepest queue seen ${n(maxQueued)})`);
  out(`   send-history rows ${n(totals.rows)} (recipients ${totals.recipients}); by status ${byStatus.map((row) => `${row.status} ${n(row.n)}`).join(', ')}`);
  out(`   distinct event_id ${n(totals.events)} → lost ${n(lost)}; event_ids with more than one row ${n(totals.dup_events)}; resources with more than one row ${n(totals.dup_resources)}`);
  out(`   groups ${groups.length}: ${groups.map((group) => `${group.hash.split('=').pop()} sent ${group.sent}/grouped ${group.grouped}${group.other ? `/other ${group.other}` : ''}`).join('; ')}`);
  out(`   grouped rows without a sent parent of their own group ${orphans}`);
  out(`   webhook messages ${n(messages.length)} (groups ${groups.length}); resources they claim (1 + "and N more") ${n(claimed)}; resources named in more than one message ${repeatedInMessages} (messages list ≤ 100 names each)`);
  out(`   event_queue rows left for notifications ${queueLeft.n} (out of attempts ${queueLeft.failed})`);
  // A group with more than one message: when each went out, and which rows joined each (evidence for a race).
  for (const group of groups.filter((item) => item.sent > 1)) {
    const { rows: sentRows } = await pool.query<{ id: string; created_at: Date; not_before: Date; sent_at: Date; children: number; first_child: Date | null; last_child: Date | null; child_not_before: Date | null; reason: string | null }>(
      `SELECT s.id, s.created_at, s.not_before, s.sent_at, s.reason, count(g.id)::int AS children, min(g.created_at) AS first_child, max(g.created_at) AS last_child, min(g.not_before) AS child_not_before
         FROM notification_send_history s LEFT JOIN notification_send_history g ON g.parent_id = s.id
        WHERE s.notification_id = $1 AND s.group_by_hash = $2 AND s.status = 'sent' GROUP BY s.id ORDER BY s.sent_at`,
      [rule, group.hash],
    );
    out(`   group ${group.hash.split('=').pop()} went out ${sentRows.length} times:`);
    const t0 = sentRows[0]?.created_at.getTime() ?? 0;
    const at = (date: Date | null) => (date ? `${((date.getTime() - t0) / 1000).toFixed(3)} s` : '-');
    for (const row of sentRows) {
      out(`     sent row created ${at(row.created_at)}, not_before ${at(row.not_before)}, sent_at ${at(row.sent_at)}; ${row.children} grouped into it (created ${at(row.first_child)} … ${at(row.last_child)}, earliest not_before ${at(row.child_not_before)}); reason: ${row.reason ?? '-'}`);
    }
  }

  const accounted = totals.rows === publishedCount && sentOrGrouped === publishedCount && notDone === 0;
  summary.push({ figure: `burst ${n(publishedCount)} events, 2 instances: rows sent+grouped`, value: `${n(sentOrGrouped)} of ${n(publishedCount)}`, target: 'all', verdict: accounted ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'burst: lost / duplicated rows', value: `${n(lost)} / ${n(totals.dup_events)}`, target: '0 / 0', verdict: lost === 0 && totals.dup_events === 0 ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'burst: webhook messages (groups)', value: `${n(messages.length)} (${groups.length})`, target: '= groups', verdict: messages.length === groups.length ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'burst: resources in > 1 message', value: String(repeatedInMessages), target: '0', verdict: repeatedInMessages === 0 ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'burst: wall time / events/s handled', value: `${wall.toFixed(1)} s / ${n(Math.round(handledPerSecond))}`, target: '', verdict: 'info' });
}

// ── 3. Silences and inhibitions ─────────────────────────────────────────────────────────────────────

const uuid = () => randomUUID();

/** Variants of real resources (one check, one config, loaded as the engine loads them): new id, name, type, labels. */
function variant(template: EventResource, id: string, name: string, type: string, labels: Record<string, string>, namespace: string): EventResource {
  const own = { ...(template.kind === 'check' ? (template.env.check as Record<string, unknown>) : (template.env.config as Record<string, unknown>)), id, name, type, labels, namespace };
  const env = { ...template.env, ...own, labels, [template.kind]: own };
  return { ...template, id, name, type, labels, namespace, env, ...(template.kind === 'check' ? { canaryId: template.canaryId } : { ancestors: [uuid(), uuid()] }) };
}

async function silencesAndInhibitions(db: BenchDatabase): Promise<void> {
  const { pool } = db;
  // Two real resources to copy from.
  const canary = (await pool.query<{ id: string }>("INSERT INTO canaries (name, namespace) VALUES ('bench-silence', 'default') RETURNING id")).rows[0]?.id as string;
  const [checkId] = await insertChecks(pool, canary, ['silence-template'], ['http']);
  const configId = (await pool.query<{ id: string }>(
    `INSERT INTO config_items (type, name, status, health, labels, tags, external_id, config) VALUES ('Kubernetes::Pod', 'web-0', 'Running', 'unhealthy', '{"app": "web"}', '{"namespace": "shop"}', '{pod/web-0}', '{"spec": {"containers": [{"name": "web"}]}}') RETURNING id`,
  )).rows[0]?.id as string;
  const checkTemplate = await loadEventResource(pool, { name: 'check.failed', properties: { id: checkId } }, PUBLIC_URL);
  const configTemplate = await loadEventResource(pool, { name: 'config.unhealthy', properties: { id: configId } }, PUBLIC_URL);
  if (!checkTemplate || !configTemplate) throw new Error('template resources not loaded');

  // 1,000 silences: 700 by resource id (350 checks, 350 configs), 200 by selectors, 100 by CEL filter.
  const now = Date.now();
  const checkIds = Array.from({ length: 350 }, uuid);
  const configIds = Array.from({ length: 350 }, uuid);
  const base = { name: null, description: null, from: new Date(now - 60_000), until: new Date(now + 3_600_000), recursive: false, config_id: null, check_id: null, canary_id: null, component_id: null, filter: null, selectors: null };
  const silenceRows = [
    ...checkIds.map((id, i) => ({ ...base, id: uuid(), name: `check-${i}`, check_id: id })),
    ...configIds.map((id, i) => ({ ...base, id: uuid(), name: `config-${i}`, config_id: id })),
    ...Array.from({ length: 200 }, (_, i) => ({
      ...base,
      id: uuid(),
      name: `selector-${i}`,
      selectors: i % 2 === 0
        ? [{ types: [`Kubernetes::Custom${i}`, `custom-${i}`] }]
        : [{ namespace: `ns-${i}`, labelSelector: `app=app-${i},env!=prod` }],
    })),
    ...Array.from({ length: 100 }, (_, i) => ({
      ...base,
      id: uuid(),
      name: `filter-${i}`,
      filter: i % 2 === 0 ? `config.type == 'Kubernetes::Pod' && config.name == 'quiet-${i}'` : `check.type == 'dns' && check.name.startsWith('quiet-${i}-')`,
    })),
  ];
  const index = new SilenceIndex(silenceRows.map((row) => toActive(row as Parameters<typeof toActive>[0])));

  // 10,000 resources: half checks, half configs; ~10% match something (by id, selector or filter).
  const resources: EventResource[] = [];
  const expectMatch: boolean[] = [];
  for (let i = 0; i < 10_000; i += 1) {
    const isCheck = i % 2 === 0;
    const kind = i % 100;
    let id: string = uuid();
    let name = isCheck ? `api-${i}` : `web-${i}`;
    let type = isCheck ? 'http' : 'Kubernetes::Pod';
    let labels: Record<string, string> = { app: `app-${i % 300}`, env: 'prod' };
    let namespace = `ns-${i % 50}`;
    let matches = false;
    if (kind < 4) {
      id = isCheck ? (checkIds[i % 350] as string) : (configIds[i % 350] as string);
      matches = true;
    } else if (kind < 6) {
      type = `custom-${(i % 100) * 2}`;
      matches = true;
    } else if (kind < 8) {
      const s = ((i % 100) * 2 + 1) % 200;
      namespace = `ns-${s}`;
      labels = { app: `app-${s}`, env: 'dev' };
      matches = true;
    } else if (kind < 10) {
      if (isCheck) {
        type = 'dns';
        name = `quiet-1-${i}`;
      } else name = 'quiet-0';
      matches = true;
    }
    resources.push(variant(isCheck ? checkTemplate : configTemplate, id, name, type, labels, namespace));
    expectMatch.push(matches);
  }
  // Warm-up (JIT, CEL programs compiled), then measured.
  for (let i = 0; i < 2_000; i += 1) index.match(resources[i] as EventResource);
  const samples: number[] = [];
  const byOutcome = { matched: [] as number[], unmatched: [] as number[] };
  let wrong = 0;
  for (let i = 0; i < resources.length; i += 1) {
    const resource = resources[i] as EventResource;
    const started = performance.now();
    const found = index.match(resource);
    const took = performance.now() - started;
    samples.push(took);
    (found ? byOutcome.matched : byOutcome.unmatched).push(took);
    if (Boolean(found) !== expectMatch[i]) wrong += 1;
  }
  for (const list of [samples, byOutcome.matched, byOutcome.unmatched]) list.sort((a, b) => a - b);
  const p50 = quantile(samples, 0.5);
  const p95 = quantile(samples, 0.95);
  out(`\n3. silences: SilenceIndex of ${n(index.size)} active silences (700 by check/config id, 200 by selectors, 100 by CEL filter); match() for ${n(resources.length)} resources (half checks, half configs)`);
  out(`   all        p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(quantile(samples, 0.99))}  max ${ms(samples[samples.length - 1] ?? NaN)}`);
  out(`   matched    ${n(byOutcome.matched.length)}: p50 ${ms(quantile(byOutcome.matched, 0.5))}  p95 ${ms(quantile(byOutcome.matched, 0.95))}`);
  out(`   unmatched  ${n(byOutcome.unmatched.length)}: p50 ${ms(quantile(byOutcome.unmatched, 0.5))}  p95 ${ms(quantile(byOutcome.unmatched, 0.95))} (every open silence tried: 200 selectors + 100 CEL filters)`);
  out(`   outcomes different from the expected match: ${wrong}`);
  // What dominates an unmatched lookup: the 100 CEL filters alone, evaluated the way silenceMatches does.
  const filtersOnly = new SilenceIndex(silenceRows.slice(900).map((row) => toActive(row as Parameters<typeof toActive>[0])));
  const selectorsOnly = new SilenceIndex(silenceRows.slice(700, 900).map((row) => toActive(row as Parameters<typeof toActive>[0])));
  const part = (which: SilenceIndex) => {
    const times: number[] = [];
    for (let i = 0; i < 2_000; i += 1) {
      const resource = resources[(i * 7) % resources.length] as EventResource;
      const started = performance.now();
      which.match(resource);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return `p50 ${ms(quantile(times, 0.5))}  p95 ${ms(quantile(times, 0.95))}`;
  };
  out(`   parts: the 100 CEL-filter silences alone ${part(filtersOnly)}; the 200 selector silences alone ${part(selectorsOnly)}`);
  // One CEL filter evaluation: reading a variable the event's env has, and one it has not (check.* on a config
  // event: evaluateCel throws, silenceMatches catches it as "no match").
  const celCost = (expression: string, resource: EventResource) => {
    const runs = 5_000;
    const started = performance.now();
    for (let i = 0; i < runs; i += 1) {
      try {
        evaluateCel('bench', expression, resource.env);
      } catch {
        // as silenceMatches: not a match
      }
    }
    return ((performance.now() - started) / runs) * 1000;
  };
  const onCheck = resources[0] as EventResource;
  const quietCost = (expression: string, resource: EventResource) => {
    const runs = 5_000;
    const scope = celScope(resource.env);
    const started = performance.now();
    for (let i = 0; i < runs; i += 1) celIsTrue(expression, scope);
    return ((performance.now() - started) / runs) * 1000;
  };
  out(`   as silenceMatches evaluates a filter (celIsTrue over the event's scope, converted once per event): over check.* ${quietCost("check.type == 'dns' && check.name.startsWith('quiet-1-')", onCheck).toFixed(1)} µs; over config.* (absent) ${quietCost("config.type == 'Kubernetes::Pod' && config.name == 'quiet-0'", onCheck).toFixed(1)} µs`);
  out(`   one evaluateCel call (variables converted per call, errors with detail) on a check event: over check.* ${celCost("check.type == 'dns' && check.name.startsWith('quiet-1-')", onCheck).toFixed(1)} µs; over config.* (absent: throws) ${celCost("config.type == 'Kubernetes::Pod' && config.name == 'quiet-0'", onCheck).toFixed(1)} µs; \`true\` ${celCost('true', onCheck).toFixed(1)} µs`);
  summary.push({ figure: 'silence match, 1,000 silences, p95', value: ms(p95), target: '≤ 1 ms', verdict: p95 <= 1 && wrong === 0 ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'silence match, p50', value: ms(p50), target: '', verdict: 'info' });

  // Inhibition: Namespace → Deployment → ReplicaSet → Pod (parent_id chain and relationships), a rule whose
  // inhibition makes a Deployment with a recent message inhibit its Pods.
  await apply(pool, `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: bench-inhibit, namespace: default}
spec:
  events: [config.unhealthy]
  to: {connection: connection://default/hook}
  inhibitions:
    - {direction: outgoing, from: Kubernetes::Deployment, to: [Kubernetes::Pod], depth: 3}
`);
  const engine = new NotificationEngine(pool, quiet, { publicUrl: PUBLIC_URL });
  const rule = (await engine.rulesFor('config.unhealthy')).find((item) => item.name === 'bench-inhibit');
  if (!rule) throw new Error('inhibition rule not loaded');
  const DEPLOYMENTS = 50;
  const PODS_PER = 4;
  const namespace = (await pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, external_id) VALUES ('Kubernetes::Namespace', 'shop', 'healthy', '{ns/shop}') RETURNING id")).rows[0]?.id as string;
  const pods: Array<{ id: string; inhibited: boolean }> = [];
  for (let d = 0; d < DEPLOYMENTS; d += 1) {
    const deployment = (await pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, parent_id, external_id) VALUES ('Kubernetes::Deployment', $1, 'unhealthy', $2, ARRAY['dep/' || $1]) RETURNING id", [`web-${d}`, namespace])).rows[0]?.id as string;
    const replicaSet = (await pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, parent_id, external_id) VALUES ('Kubernetes::ReplicaSet', $1, 'unhealthy', $2, ARRAY['rs/' || $1]) RETURNING id", [`web-${d}-7f9`, deployment])).rows[0]?.id as string;
    await pool.query("INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'DeploymentReplicaSet')", [deployment, replicaSet]);
    // Half of the deployments have a message on its way (a pending row of this rule): their pods are inhibited.
    const inhibited = d % 2 === 0;
    if (inhibited) {
      await pool.query(
        `INSERT INTO notification_send_history (notification_id, event_id, source_event, resource_id, resource_type, recipient, recipient_key, status, not_before)
         VALUES ($1, gen_random_uuid(), 'config.unhealthy', $2, 'config', 'bench', 'bench', 'pending', now() + interval '1 hour')`,
        [rule.id, deployment],
      );
    }
    for (let p = 0; p < PODS_PER; p += 1) {
      const pod = (await pool.query<{ id: string }>("INSERT INTO config_items (type, name, health, parent_id, external_id) VALUES ('Kubernetes::Pod', $1, 'unhealthy', $2, ARRAY['pod/' || $1]) RETURNING id", [`web-${d}-7f9-${p}`, replicaSet])).rows[0]?.id as string;
      await pool.query("INSERT INTO config_relationships (config_id, related_id, relation) VALUES ($1, $2, 'ReplicaSetPod')", [replicaSet, pod]);
      pods.push({ id: pod, inhibited });
    }
  }
  const podResources: Array<{ resource: EventResource; inhibited: boolean }> = [];
  for (const pod of pods) {
    const resource = await loadEventResource(pool, { name: 'config.unhealthy', properties: { id: pod.id } }, PUBLIC_URL);
    if (resource) podResources.push({ resource, inhibited: pod.inhibited });
  }
  for (const { resource } of podResources.slice(0, 20)) await engine.inhibitor(rule, resource);
  const hit: number[] = [];
  const miss: number[] = [];
  let inhibitWrong = 0;
  const ROUNDS = 5;
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const { resource, inhibited } of podResources) {
      const started = performance.now();
      const found = await engine.inhibitor(rule, resource);
      const took = performance.now() - started;
      (inhibited ? hit : miss).push(took);
      if (Boolean(found) !== inhibited) inhibitWrong += 1;
    }
  }
  const all = [...hit, ...miss].sort((a, b) => a - b);
  hit.sort((a, b) => a - b);
  miss.sort((a, b) => a - b);
  const historyRows = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM notification_send_history')).rows[0]?.n ?? 0;
  out(`   inhibition lookup (engine.inhibitor, against the database: ${n(historyRows)} send-history rows): Pod → ReplicaSet → Deployment (depth 3, direction outgoing), ${n(all.length)} lookups over ${podResources.length} pods`);
  out(`   all        p50 ${ms(quantile(all, 0.5))}  p95 ${ms(quantile(all, 0.95))}  max ${ms(all[all.length - 1] ?? NaN)}`);
  out(`   inhibited  p50 ${ms(quantile(hit, 0.5))}  p95 ${ms(quantile(hit, 0.95))}; not inhibited p50 ${ms(quantile(miss, 0.5))}  p95 ${ms(quantile(miss, 0.95))}; wrong outcomes ${inhibitWrong}`);
  out('   (each lookup is 3 walk queries + 1 config_items read + 1 send-history query: 5 round trips, one at a time)');
  summary.push({ figure: 'inhibition lookup (DB, parent chain), p95', value: ms(quantile(all, 0.95)), target: '', verdict: inhibitWrong === 0 ? 'info' : 'FAIL' });
  summary.push({ figure: 'inhibition lookup, p50', value: ms(quantile(all, 0.5)), target: '', verdict: 'info' });
}

async function main(db: BenchDatabase): Promise<void> {
  out(`database: ${db.label}; Node ${process.version}; instances run in this process (default runtime timings, pool of 20 each)\n`);
  const peer = await startPeer();
  try {
    await latency(db, peer);
    await burst(db, peer);
    await silencesAndInhibitions(db);
  } finally {
    await peer.close();
  }
}

await withEmbedded('notifications', main);

const width = Math.max(...summary.map((row) => row.figure.length));
const valueWidth = Math.max(...summary.map((row) => row.value.length));
out('\nsummary');
for (const row of summary) out(`  ${row.figure.padEnd(width)}  ${row.value.padStart(valueWidth)}  ${row.target.padEnd(8)} ${row.verdict}`);
process.exit(0);
