import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createTeeLogger } from '../../../platform/logger';
import { applyLogsDemo, DEMO_LOG_BACKEND, demoLogFile } from '../demo';

/** `serve --demo` (issue 38 item 12): the Logs page's default source has lines, the console's own. */
let t: TestApp;
let dir = '';

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-logs-demo-'));
  t = await createTestApp({ env: { WATCHKEEPER_LOG_ROOTS: dir } });
});

afterAll(async () => {
  await t?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('the logs demo', () => {
  it("adds a backend over the console's own log, whose lines a search answers newest first", async () => {
    const file = demoLogFile([dir]);
    expect(file).toBe(path.join(dir, 'watchkeeper-demo.log'));
    // What serve --demo does: its log goes to stdout and, from info up, to the file.
    const log = createTeeLogger('silent', file ?? '');
    log.debug('not copied: below info');
    log.info({ feature: 'health' }, 'Demo data: 3 demo canaries in the namespace "demo"');
    log.warn('a warning the console wrote');

    expect(await applyLogsDemo(t.context)).toContain(`demo/${DEMO_LOG_BACKEND}`);
    // Applied on every start: still one backend.
    await applyLogsDemo(t.context);
    const { rows } = await t.db.pool.query<{ name: string; source: string }>('SELECT name, source FROM logging_backends WHERE deleted_at IS NULL');
    expect(rows).toEqual([{ name: DEMO_LOG_BACKEND, source: 'Demo' }]);

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/logs',
      headers: { ...t.adminHeaders, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: DEMO_LOG_BACKEND, query: '', start: 'now-1h', limit: 100 }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ results: Array<{ message: string; level?: string; labels: Record<string, string> }>; total: number }>();
    expect(answer.results.map((line) => [line.level, line.message])).toEqual([
      ['warn', expect.stringContaining('a warning the console wrote')],
      ['info', expect.stringContaining('Demo data: 3 demo canaries')],
    ]);
    expect(answer.results[0]?.labels).toMatchObject({ app: 'watchkeeper' });
  });

  it('adds no backend when no log root is allowed', async () => {
    expect(demoLogFile([])).toBeUndefined();
    expect(await applyLogsDemo(t.context, [])).toContain('no log backend');
  });
});
