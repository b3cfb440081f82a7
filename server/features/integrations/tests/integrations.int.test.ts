import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { CHART_REGISTRY_PROPERTY, loadChart, shippedChartNames } from '../charts';

let t: TestApp;
let peer: http.Server;
let peerUrl: string;
const requested: string[] = [];

const LIVE_SCHEMA = { type: 'object', properties: { liveOnly: { type: 'string', description: 'only in the registry' } }, required: ['liveOnly'] };

beforeAll(async () => {
  t = await createTestApp();
  // A chart registry on 127.0.0.1: /live/<chart>/… answers, /broken/… is a 500, /slow/… never answers in time.
  peer = http.createServer((req, res) => {
    const url = req.url ?? '';
    requested.push(url);
    if (url.startsWith('/slow/')) {
      setTimeout(() => res.end('too late'), 2_000).unref();
      return;
    }
    if (url.startsWith('/broken/')) {
      res.statusCode = 500;
      res.end('no');
      return;
    }
    if (url === '/live/mission-control-prometheus/Chart.yaml') {
      res.setHeader('content-type', 'application/yaml');
      res.end('apiVersion: v2\nname: mission-control-prometheus\nversion: 9.9.9\ndescription: from the live registry\n');
      return;
    }
    if (url === '/live/mission-control-prometheus/values.schema.json') {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(LIVE_SCHEMA));
      return;
    }
    res.statusCode = 404;
    res.end('not found');
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  peerUrl = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => peer?.close(resolve));
  await t?.close();
});

async function setRegistry(value: string | null) {
  await t.db.pool.query('DELETE FROM properties WHERE name = $1', [CHART_REGISTRY_PROPERTY]);
  if (value !== null) await t.db.pool.query('INSERT INTO properties (name, value) VALUES ($1, $2)', [CHART_REGISTRY_PROPERTY, value]);
}

interface Row {
  id: string;
  name: string;
  namespace: string;
  integration_type: string;
  type: string | null;
  source: string;
  agent_id: string;
  agent: { id: string; name: string };
  health: string;
  job_status: string | null;
  job_time_start: string | null;
  job_error_count: number | null;
  job_error: string | null;
  job_last_failed: string | null;
}

async function list(headers = t.adminHeaders, query = 'select=*&order=name.asc') {
  return t.app.inject({ method: 'GET', url: `/api/db/integrations_with_status?${query}`, headers });
}

describe('integrations_with_status', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const q = async (sql: string, params: unknown[] = []) => (await t.db.pool.query<{ id: string }>(sql, params)).rows[0]?.id ?? '';
    const agent = await q(`INSERT INTO agents (name) VALUES ('edge-1') RETURNING id`);
    ids.scraper = await q(`INSERT INTO config_scrapers (name, namespace, spec, source) VALUES ('int-files', 'ops', '{"file":[{"type":"File","paths":["a.json"]}]}', 'UI') RETURNING id`);
    ids.deleted = await q(`INSERT INTO config_scrapers (name, spec, deleted_at) VALUES ('int-gone', '{}', now()) RETURNING id`);
    ids.topology = await q(`INSERT INTO topologies (name, spec, source, agent_id) VALUES ('int-shop', '{"type":"Application"}', 'KubernetesCRD', $1) RETURNING id`, [agent]);
    ids.canary = await q(`INSERT INTO canaries (name, spec) VALUES ('int-web', '{}') RETURNING id`);
    ids.quiet = await q(`INSERT INTO canaries (name, spec) VALUES ('int-quiet', '{}') RETURNING id`);
    await t.db.pool.query(
      `INSERT INTO checks (canary_id, key, type, name, status) VALUES ($1, 'http/a', 'http', 'home', 'healthy'), ($1, 'dns/b', 'dns', 'resolver', 'unhealthy')`,
      [ids.canary],
    );
    ids.connection = await q(`INSERT INTO connections (name, namespace, type, url, password) VALUES ('int-slack', 'default', 'slack', 'https://secret.example', 'hunter2') RETURNING id`);
    ids.notification = await q(`INSERT INTO notifications (name, events, error, error_at) VALUES ('int-alerts', '{check.failed}', 'template failed', now()) RETURNING id`);
    ids.backend = await q(`INSERT INTO logging_backends (name) VALUES ('int-files-logs') RETURNING id`);
    // Runs: the scraper's older failure then its latest success; the topology's latest is a failure with its error.
    const job = `INSERT INTO job_history (name, resource_type, resource_id, resource_name, status, success_count, error_count, details, time_start, time_end)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9::timestamptz + interval '1 second')`;
    await t.db.pool.query(job, ['Scraper', 'config_scraper', ids.scraper, 'int-files', 'FAILED', 0, 1, '{"errors":["old"]}', '2024-01-01T00:00:00Z']);
    await t.db.pool.query(job, ['Scraper', 'config_scraper', ids.scraper, 'int-files', 'SUCCESS', 12, 0, '{}', '2024-01-02T00:00:00Z']);
    await t.db.pool.query(job, ['Scraper', 'config_scraper', ids.scraper, 'int-files', 'RUNNING', 0, 0, '{}', '2024-01-03T00:00:00Z']);
    await t.db.pool.query(job, ['Topology', 'topology', ids.topology, 'int-shop', 'FAILED', 0, 2, '{"errors":["lookup failed: no such config"]}', '2024-01-02T00:00:00Z']);
    await t.db.pool.query(job, ['Canary', 'canary', ids.quiet, 'int-quiet', 'WARNING', 1, 0, '{}', '2024-01-02T00:00:00Z']);
  });

  it('has one row per scraper, topology, canary, connection, notification and log backend, with health and last run', async () => {
    const response = await list();
    expect(response.statusCode).toBe(200);
    const rows = (response.json() as Row[]).filter((row) => row.name.startsWith('int-'));
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect([...byName.keys()].sort()).toEqual(['int-alerts', 'int-files', 'int-files-logs', 'int-quiet', 'int-shop', 'int-slack', 'int-web']);
    expect(byName.get('int-files')).toMatchObject({
      id: ids.scraper, integration_type: 'scrapers', namespace: 'ops', type: 'file', source: 'UI', health: 'healthy',
      job_status: 'SUCCESS', job_error_count: 0, job_error: null, agent: { name: 'local' },
    });
    expect(new Date(byName.get('int-files')?.job_time_start ?? '').toISOString()).toBe('2024-01-02T00:00:00.000Z');
    expect(new Date(byName.get('int-files')?.job_last_failed ?? '').toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(byName.get('int-shop')).toMatchObject({
      integration_type: 'topologies', type: 'Application', source: 'KubernetesCRD', health: 'unhealthy',
      job_status: 'FAILED', job_error_count: 2, job_error: 'lookup failed: no such config', agent: { name: 'edge-1' },
    });
    // A canary's health is its checks'; without checks, its last run's.
    expect(byName.get('int-web')).toMatchObject({ integration_type: 'canaries', type: 'dns,http', health: 'unhealthy', job_error: 'resolver' });
    expect(byName.get('int-quiet')).toMatchObject({ integration_type: 'canaries', health: 'warning', job_status: 'WARNING' });
    expect(byName.get('int-slack')).toMatchObject({ integration_type: 'connections', type: 'slack', health: 'unknown', job_status: null });
    expect(byName.get('int-alerts')).toMatchObject({ integration_type: 'notifications', health: 'unhealthy', job_error: 'template failed' });
    expect(byName.get('int-files-logs')).toMatchObject({ integration_type: 'logging_backends', health: 'unknown' });
    // Nothing secret of a connection is in the answer.
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('secret.example');
  });

  it('filters by type and counts, as PostgREST does', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/db/integrations_with_status?select=name,health&integration_type=eq.topologies&name=like.int-*',
      headers: { ...t.adminHeaders, prefer: 'count=exact' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([{ name: 'int-shop', health: 'unhealthy' }]);
    expect(response.headers['content-range']).toBe('0-0/1');
  });

  it('is read with the integrations object: viewers read it, nobody writes it, anonymous callers get 401', async () => {
    const viewer = await t.userWith(['viewer']);
    const seen = await list(viewer.headers);
    expect(seen.statusCode).toBe(200);
    // Connections are for admins (spec §6): a viewer reads the other integrations, not a connection's row.
    const names = (seen.json() as Row[]).map((row) => row.name).filter((name) => name.startsWith('int-')).sort();
    expect(names).toEqual(['int-alerts', 'int-files', 'int-files-logs', 'int-quiet', 'int-shop', 'int-web']);
    expect((await list({})).statusCode).toBe(401);
    const write = await t.app.inject({ method: 'DELETE', url: `/api/db/integrations_with_status?id=eq.${ids.scraper}`, headers: t.adminHeaders });
    expect(write.statusCode).toBeGreaterThanOrEqual(400);
    const { rows } = await t.db.pool.query('SELECT 1 FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL', [ids.scraper]);
    expect(rows).toHaveLength(1);
  });
});

describe('GET /api/integrations/charts/{name}', () => {
  it('lists the shipped charts, each with a Chart.yaml and a values schema', async () => {
    const names = await shippedChartNames();
    expect(names).toEqual(expect.arrayContaining(['mission-control-aws', 'mission-control-azure', 'mission-control-prometheus', 'mission-control-flux', 'mission-control-kubernetes', 'mission-control-agent']));
    const response = await t.app.inject({ method: 'GET', url: '/api/integrations/charts', headers: t.adminHeaders });
    expect(response.statusCode).toBe(200);
    const charts = response.json() as Array<{ name: string; version: string }>;
    expect(charts.map((chart) => chart.name)).toEqual(names);
    for (const chart of charts) expect(chart.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('answers the shipped chart when no registry is set', async () => {
    await setRegistry(null);
    const response = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-prometheus', headers: t.adminHeaders });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { source: string; chart: { name: string }; schema: { required: string[]; properties: Record<string, unknown> }; repository: { url: string }; note?: string };
    expect(body.source).toBe('shipped');
    expect(body.chart.name).toBe('mission-control-prometheus');
    expect(body.schema.required).toEqual(['prometheusURL', 'topologyName']);
    expect(body.repository.url).toBe('https://flanksource.github.io/charts');
    expect(body.note).toBeUndefined();
  });

  it('fetches Chart.yaml and values.schema.json live from the registry the property names', async () => {
    await setRegistry(`${peerUrl}/live/`);
    requested.length = 0;
    const response = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-prometheus', headers: t.adminHeaders });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ source: 'registry', registry: `${peerUrl}/live`, chart: { version: '9.9.9', description: 'from the live registry' }, schema: LIVE_SCHEMA });
    expect(requested.sort()).toEqual(['/live/mission-control-prometheus/Chart.yaml', '/live/mission-control-prometheus/values.schema.json']);
  });

  it('falls back to the shipped chart, with a note, when the registry fails', async () => {
    await setRegistry(`${peerUrl}/broken`);
    const response = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-flux', headers: t.adminHeaders });
    expect(response.statusCode).toBe(200);
    const body = response.json() as { source: string; note: string };
    expect(body.source).toBe('shipped');
    expect(body.note).toContain('HTTP 500');
    // A chart neither has: 404 naming the registry's failure.
    const missing = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/no-such-chart', headers: t.adminHeaders });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'not_found', message: expect.stringContaining('no-such-chart') });
    await setRegistry('ftp://example.invalid');
    const notHttp = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-flux', headers: t.adminHeaders });
    expect(notHttp.json()).toMatchObject({ source: 'shipped', note: expect.stringContaining('http or https') });
  });

  it('gives up on a slow registry at the timeout and answers the shipped chart', async () => {
    await setRegistry(`${peerUrl}/slow`);
    const started = Date.now();
    const { chart } = await loadChart(t.db.pool, 'mission-control-aws', 300);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(chart?.source).toBe('shipped');
    expect(chart?.note).toContain('did not answer within 0.3 s');
    await setRegistry(null);
  });

  it('refuses a bad name with 400 naming the field, and needs a signed-in reader', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/..%2Fetc', headers: t.adminHeaders });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('params.name') });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/integrations/charts/mission-control-aws' });
    expect(anonymous.statusCode).toBe(401);
  });
});
