import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { features } from '../../index';

/**
 * A process may build one app after another, each on its own database (the integration tests share a
 * worker's modules across files): a view's table under /api/db is described from the app's own pool, and
 * an app that closed leaves nothing behind that a later app would ask (an ended pool: a 500).
 */
const kinds = features.flatMap((feature) => feature.kinds ?? []);
const VIEW = `
apiVersion: mission-control.flanksource.com/v1
kind: View
metadata: {name: seen}
spec:
  columns:
    - {name: name, type: string, primaryKey: true}
  queries:
    pods: {configs: {types: [Kubernetes::Pod]}}
`;

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.close().catch(() => undefined);
});

async function appWithView(): Promise<TestApp> {
  const t = await createTestApp();
  apps.push(t);
  const [applied] = await applyDocuments(t.db.pool, kinds, [{ file: 'view.yaml', text: VIEW }], 'ConfigFile', createLogger('silent'));
  expect(applied, JSON.stringify(applied)).toMatchObject({ ok: true });
  return t;
}

describe('apps one after another in one process', () => {
  it('serves a view table from the app that is open, after an earlier app closed', async () => {
    const first = await appWithView();
    expect((await first.app.inject({ method: 'GET', url: '/api/db/view_default_seen?select=name', headers: first.adminHeaders })).statusCode).toBe(200);
    await first.close();
    apps.splice(apps.indexOf(first), 1);

    const second = await appWithView();
    const res = await second.app.inject({ method: 'GET', url: '/api/db/view_default_seen?select=name', headers: second.adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([]);
  });
});
