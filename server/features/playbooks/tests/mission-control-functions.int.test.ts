import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { ROOT } from '../../../platform/paths';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';
import { createRunner } from '../index';
import type { PlaybookRunner } from '../runner';

/**
 * Mission Control's template functions in playbook actions, run: `getAction "name"` (also in a variable
 * declared over a pipeline) and `getLastAction`, and the notification Slack block helpers, through the
 * fixture tests/fixtures/compat/triage-and-route.yaml sending to a local webhook.
 */
const log = createLogger('silent');
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const FIXTURE = path.join(ROOT, 'server', 'features', 'playbooks', 'tests', 'fixtures', 'compat', 'triage-and-route.yaml');

let t: TestApp;
let runner: PlaybookRunner | undefined;
let peer: http.Server;
const received: Array<{ title: string; message: string }> = [];

async function apply(text: string) {
  return applyDocuments(t.db.pool, kinds, [{ file: 'test.yaml', text }], 'ConfigFile', log);
}

async function waitFor(id: string, statuses: string[], millis = 20_000): Promise<Record<string, unknown>> {
  const until = Date.now() + millis;
  for (;;) {
    const { rows } = await t.db.pool.query('SELECT * FROM playbook_runs WHERE id = $1', [id]);
    if (statuses.includes(rows[0]?.status)) return rows[0];
    if (Date.now() > until) throw new Error(`run ${id} is ${rows[0]?.status}, not ${statuses.join('|')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { title: string; message: string });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/hook`;
  const connection = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: dock-chat, namespace: harbour}
spec: {type: generic_webhook, url: "${url}"}
`);
  expect(connection.map((result) => result.errors)).toEqual([[]]);
  runner = createRunner(t.context, { pollMillis: 100, leaseMillis: 3_000 });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await new Promise<void>((resolve) => peer.close(() => resolve()));
  await t?.close();
});

describe('getAction, getLastAction and the Slack block helpers in playbook actions', () => {
  it('apply without a warning and run: the verdict is read back, routed by severity, and the blocks are JSON', async () => {
    const results = await apply(await readFile(FIXTURE, 'utf8'));
    expect(results.map((result) => ({ errors: result.errors, warnings: result.outcome?.warnings ?? [] }))).toEqual([{ errors: [], warnings: [] }]);
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM playbooks WHERE namespace = 'harbour' AND name = 'triage-and-route' AND deleted_at IS NULL");
    const started = await t.app.inject({ method: 'POST', url: '/api/playbook/run', headers: t.adminHeaders, payload: { id: rows[0]?.id } });
    expect(started.statusCode, started.body).toBe(201);
    const run = await waitFor(started.json().run_id, ['completed', 'failed']);
    const actions = (await t.db.pool.query('SELECT name, status, error FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index', [started.json().run_id])).rows;
    expect(run.status, JSON.stringify(actions)).toBe('completed');
    expect(actions.map((action) => [action.name, action.status])).toEqual([
      ['inspect', 'completed'],
      ['page the harbour master', 'skipped'],
      ['tell the dock channel', 'completed'],
      ['post blocks', 'completed'],
    ]);
    expect(received).toHaveLength(2);
    const [told, blocks] = received;
    expect(told?.title).toBe('Crane needs attention');
    expect(told?.message).toContain('*Severity:* high');
    expect(told?.message).toContain('*Crane:* north-3 (completed before this)');
    expect(told?.message).toContain('*Summary:* hoist motor overheating');
    expect(JSON.parse(blocks?.message ?? '')).toEqual({
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: '*north-3*: hoist motor overheating' } },
        { type: 'section', text: { type: 'plain_text', text: 'Inspected by the triage playbook' } },
        {
          type: 'actions',
          elements: [
            { type: 'button', text: { type: 'plain_text', text: 'Open crane', emoji: true }, url: 'https://harbour.example.com/cranes/north-3', action_id: 'Open crane', style: 'primary' },
            { type: 'button', text: { type: 'plain_text', text: 'Runbook', emoji: true }, url: 'https://harbour.example.com/runbooks/hoist', action_id: 'Runbook' },
          ],
        },
      ],
    });
  });

  it('a report action applies (checked as Mission Control checks it) and fails, saying why, when the run reaches it', async () => {
    const file = path.join(path.dirname(FIXTURE), 'berth-report.yaml');
    const [applied] = await apply(await readFile(file, 'utf8'));
    expect(applied?.errors).toEqual([]);
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM playbooks WHERE namespace = 'harbour' AND name = 'berth-report' AND deleted_at IS NULL");
    const started = await t.app.inject({ method: 'POST', url: '/api/playbook/run', headers: t.adminHeaders, payload: { id: rows[0]?.id } });
    expect(started.statusCode, started.body).toBe(201);
    expect((await waitFor(started.json().run_id, ['completed', 'failed'])).status).toBe('failed');
    const actions = (await t.db.pool.query('SELECT name, status, error FROM playbook_run_actions WHERE playbook_run_id = $1', [started.json().run_id])).rows;
    expect(actions).toEqual([{ name: 'Render report', status: 'failed', error: 'report actions are not run by this console: Mission Control renders them with its facet renderer (a TSX template to HTML or PDF), which this console does not have' }]);

    const [bad] = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: two-sources, namespace: harbour}
spec:
  actions:
    - name: report
      report: {view: harbour/berths, configsFromParams: true, file: {path: a.tsx, git: {url: "https://example.com/r.git", file: b.tsx}}}
`);
    expect(bad?.errors).toEqual([
      'spec.actions[0].report: view is mutually exclusive with configs, configsFromParams and file',
      'spec.actions[0].report: file needs exactly one of path or git',
    ]);
  });

  it('are the playbook\'s only: a health check or a notification rule names getAction in vain', async () => {
    const results = await apply(`
apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: reads-an-action, namespace: harbour}
spec:
  events: [check.failed]
  title: '{{(getAction "inspect").result}}'
  to: {email: dock@example.com}
`);
    expect(results[0]?.errors).toEqual([]);
    expect(results[0]?.outcome?.warnings).toEqual([expect.stringMatching(/^spec\.title ".*" at 1:4: function "getAction" not defined — the rule applies/)]);
  });
});
