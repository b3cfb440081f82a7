import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logBackendKind } from '../../server/features/logs/backends';
import { openAllowed } from '../../server/features/logs/roots';
import { createLogger } from '../../server/platform/logger';
import { applyDocuments } from '../../server/platform/resources';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35 finding 5: a log backend could name any file on the server, and every viewer reads log
 * backends: `<data dir>/secret.key` and `<data dir>/postgres.json` came back through POST /api/logs.
 * Backends now read only under WATCHKEEPER_LOG_ROOTS (by default ./logs), never in the data directory,
 * refused at save and again at read (symlinks resolved).
 */

let t: TestApp;
let base = '';
let dataDir = '';
let root = '';
let outside = '';
let key = '';
const PASSWORD = 'embedded-superuser-password-4711';
const recent = () => new Date(Date.now() - 60_000).toISOString();

interface SearchAnswer {
  results: Array<{ message: string; source: string }>;
  truncated: string[];
}

async function save(name: string, paths: string[], headers = t.adminHeaders) {
  const res = await t.app.inject({ method: 'POST', url: '/api/logs/backends', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ name, spec: { files: [{ paths }] } }) });
  return { status: res.statusCode, body: res.body, json: res.json() as { details?: Array<{ path: string; message: string }> } };
}

/** A backend row as an older console saved it (no roots then): the read-time checks must hold on their own. */
async function storedRow(name: string, paths: string[]): Promise<void> {
  await t.db.pool.query('INSERT INTO logging_backends (name, spec) VALUES ($1, $2)', [name, JSON.stringify({ files: [{ paths }] })]);
}

async function search(name: string, headers: Record<string, string>, query = '') {
  const res = await t.app.inject({ method: 'POST', url: '/api/logs', headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify({ name, query, start: '30d' }) });
  return { status: res.statusCode, body: res.body, json: res.json() as SearchAnswer };
}

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wk-log-roots-')));
  dataDir = path.join(base, 'data');
  root = path.join(base, 'logs');
  outside = path.join(base, 'outside');
  for (const dir of [dataDir, root, path.join(root, 'app'), outside]) await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dataDir, 'postgres.json'), JSON.stringify({ user: 'postgres', password: PASSWORD }));
  await fs.writeFile(path.join(root, 'app', 'app.log'), `${recent()} ERROR checkout failed: payment refused\n${recent()} INFO checkout served\n`);
  await fs.writeFile(path.join(outside, 'passwd.log'), `${recent()} INFO root:x:0:0:outside-the-roots\n`);
  // Inside the root, links out: to the key, to the data directory, to a file outside the roots.
  await fs.symlink(path.join(dataDir, 'secret.key'), path.join(root, 'key.log'));
  await fs.symlink(path.join(dataDir, 'postgres.json'), path.join(root, 'app', 'db.log'));
  await fs.symlink(dataDir, path.join(root, 'data-link'));
  await fs.symlink(path.join(outside, 'passwd.log'), path.join(root, 'passwd.log'));
  t = await createTestApp({ env: { WATCHKEEPER_DATA: dataDir, WATCHKEEPER_LOG_ROOTS: root } });
  // The app made its key in the data directory (secret.key): the file an attacker wants.
  key = (await fs.readFile(path.join(dataDir, 'secret.key'), 'utf8')).trim();
  expect(key.length).toBeGreaterThan(10);
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (base) await fs.rm(base, { recursive: true, force: true });
});

/** Whether an answer holds anything of the key or the database password. */
function leaks(text: string): boolean {
  const lines = key.split('\n').map((line) => line.trim()).filter((line) => line.length > 8);
  return text.includes(PASSWORD) || lines.some((line) => text.includes(line));
}

describe('log backends read only under the configured roots', () => {
  it('refuses at save a backend naming <data dir>/secret.key, postgres.json or a file outside the roots, naming the path', async () => {
    const key = await save('key', [path.join(dataDir, 'secret.key')]);
    expect(key.status).toBe(400);
    expect(key.json.details).toEqual([{ path: 'body.spec.files[0].paths[0]', message: `${path.join(dataDir, 'secret.key')} is in the data directory, which log backends never read` }]);
    const mixed = await save('mixed', [path.join(root, '*.log'), '/etc/passwd', path.join(dataDir, '*.json'), `${root}/../data/secret.key`, path.join(base, '**', '*.log')]);
    expect(mixed.status).toBe(400);
    expect(mixed.json.details).toEqual([
      { path: 'body.spec.files[0].paths[1]', message: '/etc/passwd is outside the log roots this console allows (WATCHKEEPER_LOG_ROOTS)' },
      { path: 'body.spec.files[0].paths[2]', message: `${path.join(dataDir, '*.json')} is in the data directory, which log backends never read` },
      { path: 'body.spec.files[0].paths[3]', message: `${root}/../data/secret.key must not contain '..': name the files under a log root directly` },
      { path: 'body.spec.files[0].paths[4]', message: `${path.join(base, '**', '*.log')} is outside the log roots this console allows (WATCHKEEPER_LOG_ROOTS)` },
    ]);
    const { rows } = await t.db.pool.query("SELECT count(*)::int AS n FROM logging_backends WHERE name IN ('key', 'mixed')");
    expect(rows[0].n).toBe(0);
  });

  it('refuses the same through apply (files and the watched folder)', async () => {
    const text = `apiVersion: watchkeeper.dev/v1\nkind: LogBackend\nmetadata: {name: applied}\nspec:\n  files:\n    - path: [${JSON.stringify(path.join(dataDir, 'postgres.json'))}]\n`;
    const [result] = await applyDocuments(t.db.pool, [logBackendKind], [{ file: 'applied.yaml', text }], 'ConfigFile', createLogger('silent'));
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toContain(`spec.files[0].paths[0]: ${path.join(dataDir, 'postgres.json')} is in the data directory`);
  });

  it('searches a backend inside a root as before', async () => {
    expect((await save('app', [path.join(root, 'app', '*.log')])).status).toBe(201);
    const viewer = await t.userWith(['viewer']);
    const { status, json } = await search('app', viewer.headers, 'checkout');
    expect(status).toBe(200);
    expect(json.results.map((line) => line.message)).toEqual(['INFO checkout served', 'ERROR checkout failed: payment refused']);
    // app/db.log, a symlink to postgres.json, matches the glob's name but is not read.
    expect(leaks(JSON.stringify(json))).toBe(false);
    const named = await save('named-link', [path.join(root, 'app', 'db.log')]);
    expect(named.status).toBe(201);
    const linked = await search('named-link', viewer.headers);
    expect(linked.json.results).toEqual([]);
    expect(leaks(linked.body)).toBe(false);
    expect(linked.json.truncated).toEqual([`${path.join(root, 'app', 'db.log')}: not read (its real path is outside the log roots, or in the data directory)`]);
  });

  it('does not follow a symlink inside a root to a file outside it (or into the data directory)', async () => {
    // Saved: the paths are inside the root as written; what they point to is checked when read.
    expect((await save('links', [path.join(root, 'key.log'), path.join(root, 'passwd.log'), path.join(root, 'data-link', 'postgres.json'), path.join(root, '**')])).status).toBe(201);
    const viewer = await t.userWith(['viewer']);
    const { status, body, json } = await search('links', viewer.headers);
    expect(status).toBe(200);
    expect(leaks(body)).toBe(false);
    expect(body).not.toContain('outside-the-roots');
    expect(json.results.every((line) => line.source.startsWith(path.join(root, 'app')))).toBe(true);
    // The last check, on the opened descriptor itself (a symlink swapped in after the listing): refused.
    expect(await openAllowed(path.join(root, 'key.log'))).toBeUndefined();
    expect(await openAllowed(path.join(root, 'data-link', 'postgres.json'))).toBeUndefined();
    const handle = await openAllowed(path.join(root, 'app', 'app.log'));
    expect(handle).toBeDefined();
    await handle?.close();
  });

  it("a viewer's POST /api/logs never returns the key or the database password, even from a backend saved before the roots", async () => {
    await storedRow('old-key', [path.join(dataDir, 'secret.key'), path.join(dataDir, 'postgres.json'), `${root}/../data/*`, path.join(outside, '*.log')]);
    await storedRow('old-glob', [path.join(base, '**')]);
    const viewer = await t.userWith(['viewer']);
    for (const name of ['old-key', 'old-glob']) {
      const { status, body, json } = await search(name, viewer.headers);
      expect(status, name).toBe(200);
      expect(leaks(body), name).toBe(false);
      expect(body, name).not.toContain('outside-the-roots');
      expect(json.results, name).toEqual([]);
    }
  });

  it('never reads the data directory even when a root contains it', async () => {
    const wide = await createTestApp({ env: { WATCHKEEPER_DATA: dataDir, WATCHKEEPER_LOG_ROOTS: base } });
    try {
      const refused = await wide.app.inject({ method: 'POST', url: '/api/logs/backends', headers: { ...wide.adminHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'key', spec: { files: [{ paths: [path.join(dataDir, 'secret.key')] }] } }) });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('is in the data directory, which log backends never read');
      const saved = await wide.app.inject({ method: 'POST', url: '/api/logs/backends', headers: { ...wide.adminHeaders, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'everything', spec: { files: [{ paths: [path.join(base, '**')] }] } }) });
      expect(saved.statusCode).toBe(201);
      const viewer = await wide.userWith(['viewer']);
      const res = await wide.app.inject({ method: 'POST', url: '/api/logs', headers: { ...viewer.headers, 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'everything', start: '30d' }) });
      expect(res.statusCode).toBe(200);
      expect(leaks(res.body)).toBe(false);
      // What is under the root and outside the data directory is read.
      expect(res.body).toContain('checkout served');
      expect(res.body).toContain('outside-the-roots');
    } finally {
      await wide.close();
    }
  });
});
