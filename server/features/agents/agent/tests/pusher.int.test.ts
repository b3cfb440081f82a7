import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/db';
import { createLogger } from '../../../../platform/logger';
import type { UpstreamConfig } from '../../../../platform/config';
import { installOutbox } from '../outbox';
import { Pusher, type PusherOptions } from '../pusher';
import { arrivals, fakeUpstream, ok, waitFor, type Push } from './fake-upstream';

let db: TestDatabase;
let pusher: Pusher | undefined;
let upstream: Awaited<ReturnType<typeof fakeUpstream>> | undefined;
const log = createLogger('silent');

beforeAll(async () => {
  db = await createTestDatabase();
});

afterEach(async () => {
  await pusher?.stop();
  pusher = undefined;
  await upstream?.close();
  upstream = undefined;
  await db.pool.query('DELETE FROM agent_push_queue');
  await db.pool.query('DELETE FROM agent_push_failures');
  await db.pool.query('DELETE FROM canaries');
});

afterAll(async () => {
  await db?.drop();
});

function config(url: string, extra: Partial<UpstreamConfig> = {}): UpstreamConfig {
  return { url, token: 'good', agentName: 'edge-1', heartbeatSeconds: 3600, pushIntervalMs: 50, ...extra };
}

async function startPusher(url: string, extra: Partial<UpstreamConfig> = {}, options: Partial<PusherOptions> = {}): Promise<Pusher> {
  await installOutbox(db.pool, { upstream: url, agentName: 'edge-1' });
  await db.pool.query('DELETE FROM agent_push_queue');
  pusher = new Pusher({ pool: db.pool, log, upstream: config(url, extra), minBackoffMs: 20, maxBackoffMs: 200, minGapMs: 0, ...options });
  await pusher.start();
  return pusher;
}

async function addCanaries(count: number, prefix = 'c'): Promise<string[]> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO canaries (name) SELECT $2 || g FROM generate_series(1, $1::int) g RETURNING id`,
    [count, prefix],
  );
  return rows.map((row) => row.id);
}

async function queueDepth(): Promise<number> {
  return Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM agent_push_queue')).rows[0]?.n);
}

const names = (push: Push) => (push.upserts.canaries ?? []).map((row) => String(row.name));

describe('agent pusher', () => {
  it('pushes a burst in batches, parents before children, each row once, and empties the queue', async () => {
    upstream = await fakeUpstream(ok);
    await startPusher(upstream.url, {}, { batchKeys: 40 });
    const canaries = await addCanaries(3);
    await db.pool.query(
      "INSERT INTO checks (canary_id, key, type, name) SELECT c, 'http/' || g, 'http', 'n' || g FROM unnest($1::uuid[]) c, generate_series(1, 50) g",
      [canaries],
    );
    await waitFor('the queue to drain', async () => (await queueDepth()) === 0 && upstream!.accepted.length > 0);
    const seen = arrivals(upstream.accepted);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    expect([...seen.keys()].filter((key) => key.startsWith('checks:'))).toHaveLength(150);
    expect([...seen.keys()].filter((key) => key.startsWith('canaries:'))).toHaveLength(3);
    expect(upstream.accepted.length).toBeGreaterThanOrEqual(4);
    expect(upstream.accepted.every((push) => Object.values(push.upserts).reduce((n, rows) => n + rows.length, 0) <= 40)).toBe(true);
    // The first push with rows carries the canaries (queued first); every push names the agent.
    // Parents first: each check's canary was accepted in the same push or an earlier one; nothing was deleted.
    const canaryPush = new Map<string, number>();
    upstream.accepted.forEach((push, at) => {
      for (const row of push.upserts.canaries ?? []) canaryPush.set(String(row.id), at);
      for (const row of push.upserts.checks ?? []) expect(canaryPush.get(String(row.canary_id))).toBeLessThanOrEqual(at);
      expect(push.deletes).toEqual({});
      expect(push.agent).toMatchObject({ name: 'edge-1', heartbeat_seconds: 3600 });
    });
    expect(upstream.pushes.every((push) => push.token === 'good')).toBe(true);
    const state = (await db.pool.query('SELECT pushed_total::int, last_error, agent_id FROM agent_push_state')).rows[0];
    expect(state).toMatchObject({ pushed_total: 153, last_error: null, agent_id: '11111111-1111-1111-1111-111111111111' });
  });

  it('upstream down (500, then connection refused): backs off up to the ceiling, loses nothing, sends nothing twice', async () => {
    let failures = 0;
    upstream = await fakeUpstream(() => {
      failures += 1;
      return { status: 503, body: { error: 'unavailable', message: 'down for maintenance' } };
    });
    await startPusher(upstream.url);
    await addCanaries(20, 'down');
    await waitFor('a few failed attempts', () => failures >= 5);
    expect(pusher!.backoffMs).toBeGreaterThan(20);
    expect(pusher!.backoffMs).toBeLessThanOrEqual(200);
    expect(await queueDepth()).toBe(20);
    const state = (await db.pool.query<{ last_error: string }>('SELECT last_error FROM agent_push_state')).rows[0];
    expect(state?.last_error).toBe('upstream answered 503: down for maintenance');

    // Keep producing while upstream is gone: the refused connection is just another retry.
    const url = upstream.url;
    await upstream.close();
    await db.pool.query("UPDATE canaries SET labels = '{\"v\":\"2\"}' WHERE name LIKE 'down%'");
    await addCanaries(5, 'later');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await queueDepth()).toBe(45);

    // Back on the same port: everything arrives once, as it is now.
    const port = Number(new URL(url).port);
    const back = await fakeUpstreamOn(port);
    upstream = back;
    await waitFor('the queue to drain', async () => (await queueDepth()) === 0 && back.accepted.length > 0);
    const seen = arrivals(back.accepted);
    expect(seen.size).toBe(25);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const rows = back.accepted.flatMap((push) => push.upserts.canaries ?? []);
    expect(rows.filter((row) => String(row.name).startsWith('down')).every((row) => (row.labels as { v?: string }).v === '2')).toBe(true);
    expect((await db.pool.query('SELECT last_error FROM agent_push_state')).rows[0]).toEqual({ last_error: null });
  });

  it('400 with a failed list: the refused row goes to the dead letters alone, the rest is pushed in order', async () => {
    upstream = await fakeUpstream((push) => {
      const rows = push.upserts.canaries ?? [];
      const index = rows.findIndex((row) => String(row.name).startsWith('poison'));
      if (index < 0) return ok(push);
      return { status: 400, body: { error: 'invalid_request', message: `upserts.canaries[${index}]: value refused`, failed: [{ table: 'canaries', index, message: `upserts.canaries[${index}]: value refused` }] } };
    });
    await startPusher(upstream.url);
    await addCanaries(10, 'a');
    await addCanaries(1, 'poison');
    await addCanaries(10, 'b');
    await waitFor('the queue to drain', async () => (await queueDepth()) === 0);
    const seen = arrivals(upstream.accepted);
    expect(seen.size).toBe(20);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // Order kept: the a's went before the b's.
    const order = upstream.accepted.flatMap(names);
    expect(order.findIndex((name) => name.startsWith('b'))).toBeGreaterThan(order.findLastIndex((name) => name.startsWith('a')));
    const failures = (await db.pool.query('SELECT table_name, op, reason, row_data->>\'name\' AS name FROM agent_push_failures')).rows;
    expect(failures).toEqual([{ table_name: 'canaries', op: 'upsert', name: 'poison1', reason: '400: upserts.canaries[0]: value refused' }]);
    // 1 whole + the part before + the row alone + the part after.
    expect(upstream.pushes.length).toBeLessThanOrEqual(5);
  });

  it('400 without a failed list: bisects down to the refused rows', async () => {
    upstream = await fakeUpstream((push) => {
      const bad = (push.upserts.canaries ?? []).some((row) => String(row.name).startsWith('poison'));
      return bad ? { status: 400, body: { error: 'invalid_request', message: 'a row was refused' } } : ok(push);
    });
    await startPusher(upstream.url);
    await addCanaries(30, 'x');
    await addCanaries(2, 'poison');
    await addCanaries(31, 'y');
    await waitFor('the queue to drain', async () => (await queueDepth()) === 0);
    const seen = arrivals(upstream.accepted);
    expect(seen.size).toBe(61);
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    const failed = (await db.pool.query<{ name: string }>("SELECT row_data->>'name' AS name FROM agent_push_failures ORDER BY name")).rows.map((row) => row.name);
    expect(failed).toEqual(['poison1', 'poison2']);
    expect(upstream.pushes.length).toBeLessThan(30);
  });

  it('403: retries, re-reads the token file, and pushes with the new token once it is there', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-agent-token-'));
    const file = path.join(dir, 'token');
    await fs.writeFile(file, 'old-token\n');
    upstream = await fakeUpstream((push) =>
      push.token === 'new-token' ? ok(push) : { status: 403, body: { error: 'forbidden', message: 'this token may not push for an agent (scope agent-push)' } },
    );
    try {
      await startPusher(upstream.url, { token: undefined, tokenFile: file });
      await addCanaries(4, 'tok');
      await waitFor('refused pushes', () => upstream!.pushes.length >= 3);
      expect(await queueDepth()).toBe(4);
      expect((await db.pool.query<{ last_error: string }>('SELECT last_error FROM agent_push_state')).rows[0]?.last_error).toContain('403');
      expect(await db.pool.query('SELECT count(*)::int AS n FROM agent_push_failures').then((r) => r.rows[0].n)).toBe(0);
      await fs.writeFile(file, 'new-token\n');
      await waitFor('the queue to drain', async () => (await queueDepth()) === 0);
      expect(arrivals(upstream.accepted).size).toBe(4);
      expect(upstream.accepted.every((push) => push.token === 'new-token')).toBe(true);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('sends a delete for a row gone before it was pushed, and a heartbeat when idle', async () => {
    upstream = await fakeUpstream(ok);
    await startPusher(upstream.url, { heartbeatSeconds: 1 });
    const [id] = await addCanaries(1, 'short');
    await waitFor('the canary pushed', () => arrivals(upstream!.accepted).size === 1);
    await db.pool.query('DELETE FROM canaries WHERE id = $1', [id]);
    await waitFor('the delete pushed', () => upstream!.accepted.some((push) => (push.deletes.canaries ?? []).some((key) => key.id === id)));
    const before = upstream.accepted.length;
    await waitFor('a heartbeat', () => upstream!.accepted.slice(before).some((push) => Object.keys(push.upserts).length === 0 && Object.keys(push.deletes).length === 0), 5_000);
  });

  it('stops at once while a push hangs, and the rows stay queued', async () => {
    upstream = await fakeUpstream(() => 'hang');
    await startPusher(upstream.url);
    await addCanaries(3, 'hang');
    await waitFor('a push in flight', () => upstream!.pushes.length >= 1);
    const started = Date.now();
    await pusher!.stop();
    pusher = undefined;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await queueDepth()).toBe(3);
  });
});

/** The same fake upstream, answering 200, on a given port (the one the pusher already uses). */
async function fakeUpstreamOn(port: number): Promise<Awaited<ReturnType<typeof fakeUpstream>>> {
  const http = await import('node:http');
  const probe = http.createServer();
  // The port was just freed; take it back for the new server (bounded attempts).
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const free = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (free) {
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return fakeUpstream(ok, port);
}
