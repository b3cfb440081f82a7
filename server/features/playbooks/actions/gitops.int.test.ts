import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { initSecrets, secretStore } from '../../../platform/secrets';
import { connectionKind, secretKind } from '../../connections';
import type { ActionSpec } from '../spec';
import { gitops } from './gitops';
import type { ActionOutcome } from './types';

/**
 * The gitops action against bare repositories in a temporary directory and a node HTTP server on
 * 127.0.0.1 that answers pull requests as GitHub and Azure DevOps do. After each action the bare
 * repository is cloned again to read what was pushed.
 */
const log = createLogger('silent');
let db: TestDatabase;
let scratch: string;
let peer: http.Server;
let base: string;
const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

const identity = { GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...identity }, timeout: 20_000 }).trim();

async function run(block: Record<string, unknown>, signal?: AbortSignal): Promise<ActionOutcome> {
  const spec = { name: 'step', gitops: block } as unknown as ActionSpec;
  return gitops({
    pool: db.pool,
    secrets: secretStore(db.pool),
    log,
    namespace: 'default',
    runId: '00000000-0000-0000-0000-000000000000',
    actionId: '00000000-0000-0000-0000-000000000000',
    spec,
    templateData: {},
    env: {},
    signal: signal ?? AbortSignal.timeout(30_000),
    workDir: () => Promise.reject(new Error('gitops works in its own checkout')),
  });
}

/** A bare repository at `relative` (under scratch) whose main holds these files. */
async function bareRepository(relative: string, files: Record<string, string>): Promise<string> {
  const bare = path.join(scratch, relative);
  const work = await fs.mkdtemp(path.join(scratch, 'seed-'));
  await fs.mkdir(path.dirname(bare), { recursive: true });
  git(scratch, 'init', '--quiet', '--bare', bare);
  git(work, 'init', '--quiet', '-b', 'main');
  for (const [file, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(work, file)), { recursive: true });
    await fs.writeFile(path.join(work, file), content);
  }
  git(work, 'add', '--all');
  git(work, 'commit', '--quiet', '-m', 'seed');
  git(work, 'push', '--quiet', bare, 'main');
  return bare;
}

/** A fresh clone of the branch, to read what was pushed. */
async function cloned(bare: string, branch: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(scratch, 'read-'));
  git(scratch, 'clone', '--quiet', '--branch', branch, bare, dir);
  return dir;
}

const commit = { author: 'Playbook Bot', email: 'bot@example.com', message: 'chore: scale web to 3' };

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-gitops-'));
  initSecrets(path.join(scratch, 'data'));
  db = await createTestDatabase();
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = req.url ?? '';
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/pulls$/.test(url)) {
        const refused = req.headers.authorization !== 'Bearer ghp-t0ken';
        res.statusCode = refused ? 401 : 201;
        res.end(JSON.stringify(refused ? { message: 'Bad credentials' } : { number: 7, html_url: 'https://github.example/acme/app/pull/7' }));
      } else if (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/issues\/7\/labels$/.test(url)) {
        res.end('[]');
      } else if (req.method === 'POST' && url.startsWith('/org1/proj1/_apis/git/repositories/repo1/pullrequests?api-version=7.0')) {
        const ok = req.headers.authorization === `Basic ${Buffer.from(':azure-p4t').toString('base64')}`;
        res.statusCode = ok ? 201 : 401;
        res.end(JSON.stringify(ok ? { pullRequestId: 12, repository: { webUrl: 'https://dev.azure.example/org1/proj1/_git/repo1' } } : { message: 'no' }));
      } else {
        res.statusCode = 404;
        res.end('{"message":"Not Found"}');
      }
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  const results = await applyDocuments(db.pool, [connectionKind, secretKind], [{
    file: 'test.yaml',
    text: `
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: gh}
spec:
  github: {personalAccessToken: ghp-t0ken, url: "${base}"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: ado}
spec:
  azureDevops: {organization: org1, personalAccessToken: azure-p4t, url: "${base}"}
`,
  }], 'ConfigFile', log);
  expect(results.map((result) => result.errors)).toEqual(results.map(() => []));
});

afterAll(async () => {
  peer?.closeAllConnections();
  await new Promise<void>((resolve) => (peer ? peer.close(() => resolve()) : resolve()));
  await db?.drop();
  if (scratch) await fs.rm(scratch, { recursive: true, force: true });
});

describe('gitops', () => {
  it('patches YAML and JSON, writes and deletes files, commits, pushes the branch and opens a GitHub pull request', async () => {
    const bare = await bareRepository('acme/app.git', {
      'deploy/app.yaml': '# the web app\nkind: Deployment\nmetadata:\n  name: web # its name\nspec:\n  replicas: 1\n',
      'config.json': '{"level": "info", "keep": true}\n',
      'old.txt': 'remove me\n',
    });
    const outcome = await run({
      repo: { url: bare, connection: 'connection://default/gh', base: 'main', branch: 'wk/scale-web' },
      commit,
      pr: { title: 'Scale web to 3', tags: ['low'] },
      patches: [
        { path: 'deploy/app.yaml', yq: '.spec.replicas = 3 | .metadata.labels.app = "web"' },
        { path: 'config.json', yq: '.level = "debug"' },
      ],
      files: [
        { path: 'namespaces/team-a.yaml', content: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n' },
        { path: 'old.txt', content: '$delete' },
      ],
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ branch: 'wk/scale-web', base: 'main', changed: true, pr: { number: 7, url: 'https://github.example/acme/app/pull/7' } });

    const dir = await cloned(bare, 'wk/scale-web');
    expect(git(dir, 'rev-parse', 'HEAD')).toBe(outcome.result.commit);
    expect(git(dir, 'log', '-1', '--format=%s|%an|%ae')).toBe('chore: scale web to 3|Playbook Bot|bot@example.com');
    expect(await fs.readFile(path.join(dir, 'deploy/app.yaml'), 'utf8')).toBe(
      '# the web app\nkind: Deployment\nmetadata:\n  name: web # its name\n  labels:\n    app: web\nspec:\n  replicas: 3\n',
    );
    expect(JSON.parse(await fs.readFile(path.join(dir, 'config.json'), 'utf8'))).toEqual({ level: 'debug', keep: true });
    expect(await fs.readFile(path.join(dir, 'namespaces/team-a.yaml'), 'utf8')).toContain('name: team-a');
    await expect(fs.stat(path.join(dir, 'old.txt'))).rejects.toThrow();
    // main is untouched.
    expect(git(bare, 'log', '-1', '--format=%s', 'main')).toBe('seed');

    const pull = received.find((request) => request.url === '/repos/acme/app/pulls');
    expect(pull?.headers.authorization).toBe('Bearer ghp-t0ken');
    expect(JSON.parse(pull?.body ?? '{}')).toEqual({ title: 'Scale web to 3', head: 'wk/scale-web', base: 'main', body: 'chore: scale web to 3' });
    expect(JSON.parse(received.find((request) => request.url === '/repos/acme/app/issues/7/labels')?.body ?? '{}')).toEqual({ labels: ['low'] });
  });

  it('adds a commit on top of a branch that exists already; pushes nothing when nothing changed', async () => {
    const bare = await bareRepository('acme/again.git', { 'values.yaml': 'image: {tag: "1.0"}\n' });
    const first = await run({ repo: { url: bare, branch: 'bump' }, commit: { ...commit, message: 'first' }, patches: [{ path: 'values.yaml', yq: '.image.tag = "1.1"' }] });
    expect(first.error).toBeUndefined();
    const second = await run({ repo: { url: bare, branch: 'bump' }, commit: { ...commit, message: 'second' }, files: [{ path: 'NOTES.md', content: 'bumped\n' }] });
    expect(second.error).toBeUndefined();
    const dir = await cloned(bare, 'bump');
    expect(git(dir, 'log', '--format=%s')).toBe('second\nfirst\nseed');
    expect(await fs.readFile(path.join(dir, 'values.yaml'), 'utf8')).toBe('image: { tag: "1.1" }\n');
    const same = await run({ repo: { url: bare, branch: 'bump' }, commit, patches: [{ path: 'values.yaml', yq: '.image.tag = "1.1"' }] });
    expect(same.error).toBeUndefined();
    expect(same.result).toMatchObject({ changed: false, commit: git(bare, 'rev-parse', 'bump') });
  });

  it('opens an Azure DevOps pull request through an azure_devops connection', async () => {
    const bare = await bareRepository('org1/proj1/_git/repo1', { 'README.md': 'hello\n' });
    const outcome = await run({
      repo: { url: `file://${bare}`, connection: 'ado', branch: 'docs' },
      commit,
      pr: { title: 'Docs' },
      files: [{ path: 'README.md', content: 'hello, world\n' }],
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result.pr).toEqual({ number: 12, url: 'https://dev.azure.example/org1/proj1/_git/repo1/pullrequest/12' });
    const pull = received.find((request) => request.url.startsWith('/org1/proj1/_apis/git/repositories/repo1/pullrequests'));
    expect(JSON.parse(pull?.body ?? '{}')).toMatchObject({ sourceRefName: 'refs/heads/docs', targetRefName: 'refs/heads/main', title: 'Docs' });
    expect(await fs.readFile(path.join(await cloned(bare, 'docs'), 'README.md'), 'utf8')).toBe('hello, world\n');
  });

  it('refuses jq, yq it cannot apply, paths outside the repository and bad fields, pushing nothing', async () => {
    const bare = await bareRepository('acme/refused.git', { 'a.yaml': 'a: 1\n' });
    const repo = { url: bare, branch: 'nope' };
    expect((await run({ repo, commit, patches: [{ path: 'a.yaml', jq: '.a = 2' }] })).error).toBe('gitops.patches[0].jq: jq patches are not supported yet (write the change as a yq assignment)');
    expect((await run({ repo, commit, patches: [{ path: 'a.yaml', yq: 'select(.kind == "x") | .a = 2' }] })).error).toBe(
      'gitops.patches[0].yq: "select(.kind == \\"x\\")" is not supported: only assignments such as .spec.replicas = 3 or .metadata.labels.app = "web" are applied here',
    );
    expect((await run({ repo, commit, patches: [{ path: 'a.yaml', yq: '.a |= 2' }] })).error).toMatch(/^gitops\.patches\[0\]\.yq: "\.a \|= 2" is not supported/);
    expect((await run({ repo, commit, patches: [{ path: 'missing.yaml', yq: '.a = 2' }] })).error).toBe('gitops.patches[0].path: no such file in the repository');
    expect((await run({ repo, commit, files: [{ path: '../escape.txt', content: 'x' }] })).error).toBe('gitops.files[0].path: "../escape.txt" is not a file inside the repository');
    expect((await run({ repo, commit, files: [{ path: '.git/config', content: 'x' }] })).error).toBe('gitops.files[0].path: ".git/config" is not a file inside the repository');
    expect(git(bare, 'branch', '--list', 'nope')).toBe('');
    expect((await run({ repo: { branch: 'x' }, commit: { author: 'a' } })).error).toBe('gitops.repo.url: is required; gitops.commit.email: is required; gitops.commit.message: is required');
    expect((await run({ repo: { url: bare, branch: 'x' }, commit, pr: { title: 'x' } })).error).toMatch(/^gitops\.pr: a pull request is opened on GitHub and Azure DevOps only: /);
    expect((await run({ repo: { url: path.join(scratch, 'none.git') }, commit })).error).toMatch(/^clone failed: /);
  });

  it('says the push happened when the pull request is refused (API base from WATCHKEEPER_GITHUB_API_URL), without the token', async () => {
    const bare = await bareRepository('acme/refusing.git', { 'a.txt': 'a\n' });
    const before = process.env.WATCHKEEPER_GITHUB_API_URL;
    process.env.WATCHKEEPER_GITHUB_API_URL = base;
    try {
      const outcome = await run({ repo: { url: bare, branch: 'b1', type: 'github', password: 'wrong-t0ken' }, commit, pr: { title: 'x' }, files: [{ path: 'a.txt', content: 'b\n' }] });
      expect(outcome.error).toBe('pushed b1, but the pull request was not opened: GitHub refused the pull request for acme/refusing: HTTP 401 Unauthorized: Bad credentials');
      expect(outcome.result).toMatchObject({ branch: 'b1', changed: true });
      expect(git(bare, 'rev-parse', 'b1')).toBe(outcome.result.commit);
    } finally {
      if (before === undefined) delete process.env.WATCHKEEPER_GITHUB_API_URL;
      else process.env.WATCHKEEPER_GITHUB_API_URL = before;
    }
  });
});
