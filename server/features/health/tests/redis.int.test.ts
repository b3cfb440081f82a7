import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, runByName, uniqueName, closedPort as freeClosedPort } from '../testing/check-harness';

/** redis checks against the machine's real Redis (127.0.0.1:6379), with an ACL user of this run's own. */
let t: TestApp;
let admin: Redis;
const user = uniqueName('wk_check_user');
let closedPort = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
  await admin.connect();
  await admin.call('ACL', 'SETUSER', user, 'on', '>right-password', '+ping', '+info', '+select', '+hello', '+auth');
  closedPort = await freeClosedPort();
});

afterAll(async () => {
  await admin?.call('ACL', 'DELUSER', user).catch(() => undefined);
  admin?.disconnect();
  await t?.close();
});

describe('redis', () => {
  it('passes on PONG with addr or url, authenticates, and fails without leaking the password', async () => {
    const applied = await applyCanary(
      t,
      `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: redis-checks}
spec:
  redis:
    - name: addr
      addr: 127.0.0.1:6379
      db: 0
      test:
        expr: reply == 'PONG' && info.redis_version != '' && info.tcp_port == 6379
    - name: url with db
      url: redis://127.0.0.1:6379/3
    - name: acl user
      url: 127.0.0.1:6379
      username: {value: ${user}}
      password: {value: right-password}
      db: 2
    - name: wrong password
      addr: 127.0.0.1:6379
      username: ${user}
      password: {value: wrong-password-here}
    - name: password in url
      url: redis://${user}:wrong-url-secret@127.0.0.1:6379
    - name: closed
      addr: 127.0.0.1:${closedPort}
`,
    );
    expect(applied).toMatchObject({ ok: true, warnings: [] });
    const results = await runByName(t, 'redis-checks');
    expect(results.addr).toMatchObject({ pass: true });
    expect(results.addr?.message).toMatch(/^redis \d+\.\d+\.\d+ answered PONG$/);
    expect(results['url with db']).toMatchObject({ pass: true });
    expect(results['acl user']).toMatchObject({ pass: true });
    expect(results['wrong password']?.pass).toBe(false);
    expect(results['wrong password']?.message).toMatch(/WRONGPASS/);
    expect(results['password in url']?.pass).toBe(false);
    expect(results['password in url']?.message).toContain(`could not PING redis://${user}:***@127.0.0.1:6379`);
    expect(results.closed?.pass).toBe(false);
    expect(results.closed?.message).toContain(`could not PING 127.0.0.1:${closedPort}`);
    const stored = JSON.stringify(await t.db.pool.query("SELECT c.endpoint, s.message, s.error, s.details FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.type = 'redis'"));
    expect(stored).not.toContain('wrong-password-here');
    expect(stored).not.toContain('wrong-url-secret');
    expect(stored).not.toContain('right-password');
    expect(stored).toContain('127.0.0.1:6379 db 2');
  });

  it('needs an address', async () => {
    const applied = await applyCanary(t, `
apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: redis-invalid}
spec:
  redis:
    - name: nowhere
      db: -1
    - name: bad addr
      addr: localhost
`);
    expect(applied.errors).toEqual([
      'spec.redis[0].db: must be 0 or more',
      'spec.redis[0].url: is required (or addr: host:port)',
      'spec.redis[1].addr: must be host:port, e.g. redis.internal:6379',
    ]);
  });
});
