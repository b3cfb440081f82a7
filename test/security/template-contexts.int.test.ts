import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../server/features/playbooks/index';
import type { PlaybookRunner } from '../../server/features/playbooks/runner';
import { finishedRun, type FinishedRun } from '../../server/features/playbooks/testing/runs';
import { createTestApp, type TestApp } from '../app';

/**
 * Issue 35, finding 7, the last fields: a template value in a sql action's `connection` url, a gitops
 * action's repo url, branch and paths, and an http action's JSON body was put there as it came. Now each
 * is placed for its context (server/features/playbooks/contextual/): percent-encoded in a URL (scheme and
 * host stay the author's), refused in a branch or path when it would be an option (`-…`), climb (`..`) or
 * hold a control character, and JSON-encoded in a JSON body.
 */

let t: TestApp;
let runner: PlaybookRunner | undefined;
let sink: Server;
let sinkUrl = '';
const bodies: string[] = [];
let scratch = '';
let remote = '';

const identity = { GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...identity }, timeout: 20_000 }).trim();

async function post(url: string, payload: unknown) {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: t.adminHeaders });
}

async function playbook(name: string, spec: Record<string, unknown>): Promise<string> {
  const response = await post('/api/playbooks', { name, spec });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function run(id: string, params: Record<string, unknown>, millis = 30_000): Promise<FinishedRun> {
  const response = await post('/api/playbook/run', { id, params });
  expect(response.statusCode, response.body).toBe(201);
  return finishedRun(t.db.pool, response.json().run_id, millis);
}

beforeAll(async () => {
  t = await createTestApp();
  runner = createRunner(t.context, { pollMillis: 200, leaseMillis: 3_000 });
  await runner.start();
  sink = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;
  // A bare repository the gitops action clones and pushes to.
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-tpl-git-'));
  remote = path.join(scratch, 'remote.git');
  const work = path.join(scratch, 'seed');
  await fs.mkdir(work);
  git(scratch, 'init', '--quiet', '--bare', remote);
  git(work, 'init', '--quiet', '-b', 'main');
  await fs.writeFile(path.join(work, 'README'), 'seed\n');
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '-m', 'seed');
  git(work, 'push', '--quiet', remote, 'main');
}, 60_000);

afterAll(async () => {
  await runner?.stop();
  if (sink) await new Promise((resolve) => sink.close(resolve));
  if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  await t?.close();
});

describe('a sql action connection url', () => {
  it('a value in the user info is encoded: it cannot name another host, port or database', async () => {
    const db = new URL(t.db.url);
    const password = db.password ? `:${db.password}` : '';
    const id = await playbook('sql-connection-value', {
      parameters: [{ name: 'user', label: 'User' }],
      actions: [{ name: 'q', sql: { connection: `postgres://{{.params.user}}${password}@${db.host}${db.pathname}`, query: 'SELECT 1 AS one' } }],
    });
    const plain = await run(id, { user: decodeURIComponent(db.username) });
    expect(plain.actions[0]?.error ?? null, JSON.stringify(plain.actions)).toBeNull();
    expect(plain.actions[0]?.result.rows).toEqual([{ one: 1 }]);
    // Raw, this value made the url postgres://postgres@127.0.0.9:1/x?@<host>/<db>: a connection to 127.0.0.9:1.
    const moved = await run(id, { user: 'postgres@127.0.0.9:1/x?' });
    expect(moved.status).toBe('failed');
    const error = moved.actions[0]?.error ?? '';
    expect(error).toContain('postgres@127.0.0.9:1/x?');
    expect(error).not.toMatch(/ECONNREFUSED|127\.0\.0\.9:1\b(?!\/x)/);
  });

  it('a value in a connection string that is not a URL is refused, naming the field', async () => {
    const id = await playbook('sql-connection-pairs', {
      parameters: [{ name: 'db', label: 'Database' }],
      actions: [{ name: 'q', sql: { connection: 'host=127.0.0.1 dbname={{.params.db}}', query: 'SELECT 1' } }],
    });
    const done = await run(id, { db: 'x host=169.254.169.254' });
    expect(done.status).toBe('failed');
    expect(done.actions[0]?.error).toMatch(/^q\.sql\.connection: the 1st template value is in a connection string that is not a URL/);
  });
});

describe('a gitops action repo url, branch and paths', () => {
  const spec = (overrides: Record<string, unknown> = {}) => ({
    parameters: [{ name: 'name', label: 'Name' }, { name: 'repo', label: 'Repository' }],
    actions: [{
      name: 'bump',
      gitops: {
        repo: { url: `${scratch}/{{.params.repo}}`, base: 'main', branch: 'bump/{{.params.name}}' },
        commit: { author: 'Bot', email: 'bot@example.com', message: 'bump {{.params.name}}' },
        files: [{ path: 'apps/{{.params.name}}.yaml', content: 'replicas: 3\n' }],
        ...overrides,
      },
    }],
  });
  const branches = () => git(remote, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n').filter(Boolean).sort();

  it('ordinary values push the branch and file the author wrote', async () => {
    const id = await playbook('gitops-ordinary', spec());
    const done = await run(id, { name: 'web-1.2', repo: 'remote.git' });
    expect(done.actions[0]?.error ?? null, JSON.stringify(done.actions)).toBeNull();
    expect(branches()).toEqual(['bump/web-1.2', 'main']);
    expect(git(remote, 'show', 'bump/web-1.2:apps/web-1.2.yaml')).toBe('replicas: 3');
  });

  it('a value that is an option, climbs or holds a line end is refused before git runs', async () => {
    const id = await playbook('gitops-values', spec());
    for (const [name, repo, message] of [
      ['x', '../remote.git', /bump\.gitops\.repo\.url: the 1st template value makes the URL path segment "\.\."/],
      ['x', '--upload-pack=touch', /bump\.gitops\.repo\.url: the 1st template value starts a path component with "-"/],
      ['--orphan', 'remote.git', /bump\.gitops\.repo\.branch: the 1st template value starts a branch name with "-", which git would read as an option/],
      ['a..b', 'remote.git', /bump\.gitops\.repo\.branch: the 1st template value holds "\.\."/],
      ['web\nx', 'remote.git', /bump\.gitops\.repo\.branch: the 1st template value holds a control character/],
    ] as const) {
      const done = await run(id, { name, repo });
      expect(done.status, `${name} ${repo}`).toBe('failed');
      expect(done.actions[0]?.error, `${name} ${repo}`).toMatch(message);
    }
    const paths = await playbook('gitops-paths', spec({ repo: { url: remote, base: 'main', branch: 'paths' } }));
    const climbed = await run(paths, { name: '../../outside' });
    expect(climbed.actions[0]?.error).toMatch(/bump\.gitops\.files\[0\]\.path: the 1st template value makes the path component "\.\."/);
    expect(branches()).toEqual(['bump/web-1.2', 'main']);
  });

  it('a value in an https remote is encoded for its path and cannot change the host', async () => {
    const id = await playbook('gitops-https', spec({ repo: { url: 'https://{{.params.repo}}/org/app.git', base: 'main', branch: 'x' } }));
    const done = await run(id, { name: 'x', repo: 'evil.example/x?' });
    expect(done.actions[0]?.error).toMatch(/bump\.gitops\.repo\.url: the 1st template value is in the URL's host and is not a host name/);
  });
});

describe('an http action JSON body', () => {
  it('a value inside a string stays one string value; elsewhere it is one JSON value or a string', async () => {
    const id = await playbook('json-body', {
      parameters: [{ name: 'name', label: 'Name' }, { name: 'n', label: 'N' }],
      actions: [{
        name: 'send',
        http: { url: `${sinkUrl}/items`, method: 'POST', headers: [{ name: 'Content-Type', value: 'application/json' }], body: '{"name": "{{.params.name}}", "replicas": {{.params.n}}}' },
      }],
    });
    bodies.length = 0;
    const done = await run(id, { name: 'a", "admin": true', n: '1, "admin": true' });
    expect(done.actions[0]?.error ?? null, JSON.stringify(done.actions)).toBeNull();
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ name: 'a", "admin": true', replicas: '1, "admin": true' });
    bodies.length = 0;
    await run(id, { name: 'web', n: '3' });
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ name: 'web', replicas: 3 });
  });
});
