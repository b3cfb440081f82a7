import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/app';
import Fastify from 'fastify';
import { installErrorHandler } from '../app';
import { installJsonBodyParser } from './http/body';
import { route } from './http/route';
import { gitCommit } from './build-info';
import { ROOT, VERSION } from './paths';

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-web-'));
  await fs.mkdir(path.join(webDist, 'assets'));
  await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Watchkeeper</title><div id="root"></div>');
  await fs.writeFile(path.join(webDist, 'assets', 'index-abc123.js'), `console.log(${JSON.stringify('x'.repeat(4000))});`);
  t = await createTestApp({ webDist });
});

afterAll(async () => {
  await t?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

describe('platform HTTP', () => {
  it('answers /health with the database state', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves the Health page at /health to a browser and the state to everyone else', async () => {
    const browser = await t.app.inject({ method: 'GET', url: '/health?hidePassing=false', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(browser.statusCode).toBe(200);
    expect(browser.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.body).toContain('<div id="root">');
    for (const accept of [undefined, '*/*', 'application/json']) {
      const probe = await t.app.inject({ method: 'GET', url: '/health', headers: accept ? { accept } : {} });
      expect(probe.json()).toMatchObject({ status: 'ok' });
    }
  });

  it('gives every answer a request id, echoing a valid incoming one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
    const generated = await t.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('answers unknown API paths with the JSON error shape', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'GET /api/nothing-here does not exist' });
  });

  it('serves the SPA with history fallback and immutable hashed assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/settings/jobs?x=1' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    const missingAsset = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
  });

  it('serves the documentation of this version and the backend version', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/docs/OPERATIONS.md' });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(doc.body).toContain('# Operating Watchkeeper');
    const outside = await t.app.inject({ method: 'GET', url: '/docs/..%2Fpackage.json' });
    expect(outside.statusCode).toBe(400);
    // Issue 38: the package version and the git commit the server started from (this checkout's), not 0.1.0 alone.
    const version = (await t.app.inject({ method: 'GET', url: '/api/version' })).json() as { backend: string; version: string; commit: string | null; dirty: boolean };
    expect(version.version).toBe(VERSION);
    if (gitCommit(ROOT) === undefined) {
      expect(version).toEqual({ backend: VERSION, version: VERSION, commit: null, dirty: false });
    } else {
      expect(version.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(version.backend).toBe(`${VERSION} (${version.commit?.slice(0, 7)}${version.dirty ? '-dirty' : ''})`);
    }
  });

  it('exposes Prometheus metrics for requests, the pool and the event queue', async () => {
    await t.app.inject({ method: 'GET', url: '/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('watchkeeper_http_request_duration_seconds_bucket');
    expect(res.body).toMatch(/route="\/health"/);
    expect(res.body).toContain('watchkeeper_db_pool_connections{state="total"}');
    expect(res.body).toContain('# TYPE watchkeeper_event_queue_depth gauge');
    expect(res.body).toContain('# TYPE watchkeeper_job_runs_total counter');
  });
});

describe('route() validation and errors', () => {
  it('reports every issue of params, query and body at once', async () => {
    const app = Fastify({ bodyLimit: 1024 });
    installErrorHandler(app);
    installJsonBodyParser(app);
    route(app, {
      method: 'POST',
      url: '/things/:id',
      summary: 'Create a thing',
      access: 'public',
      params: z.object({ id: z.uuid() }),
      query: z.object({ dry: z.enum(['yes', 'no']).optional() }),
      body: z.object({ name: z.string().min(1, 'is required'), size: z.number().int().positive() }),
      handler: ({ params, body }) => ({ id: params.id, name: body.name }),
    });
    route(app, { method: 'GET', url: '/boom', summary: 'fails', access: 'public', handler: () => { throw new Error('SELECT secret FROM vault'); } });
    const res = await app.inject({ method: 'POST', url: '/things/nope?dry=maybe', payload: { size: -1 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('invalid_request');
    const paths = body.details.map((issue: { path: string }) => issue.path).sort();
    expect(paths).toEqual(['body.name', 'body.size', 'params.id', 'query.dry']);
    expect(body.message).toMatch(/^4 problems: /);

    const ok = await app.inject({ method: 'POST', url: '/things/6f1f2b9e-8a57-4a41-9f3a-3d2a0f6b6c11', payload: { name: 'a', size: 2 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ id: '6f1f2b9e-8a57-4a41-9f3a-3d2a0f6b6c11', name: 'a' });

    const big = await app.inject({ method: 'POST', url: '/things/6f1f2b9e-8a57-4a41-9f3a-3d2a0f6b6c11', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(2000), size: 1 }) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: 'payload_too_large', message: 'request body is larger than the limit of 1024 bytes' });

    const broken = await app.inject({ method: 'POST', url: '/things/6f1f2b9e-8a57-4a41-9f3a-3d2a0f6b6c11', headers: { 'content-type': 'application/json' }, payload: '{"name": ' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ error: 'invalid_request', message: 'body: the JSON body is not valid JSON' });

    // An empty JSON body is no body: a route that needs one names its required fields.
    const empty = await app.inject({ method: 'POST', url: '/things/6f1f2b9e-8a57-4a41-9f3a-3d2a0f6b6c11', headers: { 'content-type': 'application/json' }, payload: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.map((issue: { path: string }) => issue.path)).toEqual(['body']);

    const boom = await app.inject({ method: 'GET', url: '/boom' });
    expect(boom.statusCode).toBe(500);
    expect(boom.body).not.toContain('SELECT');
    expect(boom.json().error).toBe('internal_error');
    await app.close();
  });

  it('serves an OpenAPI document built from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'Watchkeeper API' } });
  });
});
