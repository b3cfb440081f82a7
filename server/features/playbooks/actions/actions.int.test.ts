import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';
import { artifactBytes, findArtifact, listArtifacts } from '../../../platform/artifacts';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { initSecrets, secretStore } from '../../../platform/secrets';
import { connectionKind, secretKind } from '../../connections';
import type { ActionSpec } from '../spec';
import { actionExecutors } from './index';
import type { ActionContext, ActionExecutor, ActionOutcome } from './types';

/**
 * The four executors against real local peers: scripts and git on this machine, a node HTTP server,
 * the test's PostgreSQL, MariaDB on 127.0.0.1:3306 (skipped, saying why, when it is not there), and
 * webhooks. Each action owns a playbook_run_actions row, so its artifacts are stored as a run's are.
 */
const log = createLogger('silent');
let db: TestDatabase;
let scratch: string;
let peer: http.Server;
let base: string;
let runId: string;
const received: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }> = [];

function executor(type: 'exec' | 'http' | 'sql' | 'notification'): ActionExecutor {
  const found = actionExecutors[type];
  if (!found) throw new Error(`no executor for ${type}`);
  return found;
}

async function newActionId(name: string): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, type, retry_count)
     VALUES ($1, $2, (SELECT count(*) FROM playbook_run_actions WHERE playbook_run_id = $1), 'exec', 0) RETURNING id`,
    [runId, name],
  );
  return rows[0]?.id ?? '';
}

/** Runs one action as the runner would: a rendered spec, the playbook's env, its signal and work directory. */
async function run(action: Omit<ActionSpec, 'name'>, options: { env?: Record<string, string>; signal?: AbortSignal } = {}): Promise<ActionOutcome & { actionId: string }> {
  const spec: ActionSpec = { name: 'step', ...action };
  const type = spec.exec ? 'exec' : spec.http ? 'http' : spec.sql ? 'sql' : 'notification';
  const actionId = await newActionId(`${type}-${received.length}-${Math.random()}`);
  let dir: string | undefined;
  const ctx: ActionContext = {
    pool: db.pool,
    secrets: secretStore(db.pool),
    log,
    namespace: 'default',
    runId,
    actionId,
    spec,
    templateData: {},
    env: options.env ?? {},
    signal: options.signal ?? new AbortController().signal,
    workDir: async () => (dir ??= await fs.mkdtemp(path.join(scratch, 'work-'))),
  };
  const outcome = await executor(type)(ctx);
  return { ...outcome, actionId };
}

async function apply(text: string): Promise<void> {
  const results = await applyDocuments(db.pool, [connectionKind, secretKind], [{ file: 'test.yaml', text }], 'ConfigFile', log);
  expect(results.map((result) => result.errors)).toEqual(results.map(() => []));
}

const until = async (check: () => Promise<boolean> | boolean, millis: number): Promise<boolean> => {
  const deadline = Date.now() + millis;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
};

beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-actions-'));
  initSecrets(path.join(scratch, 'data'));
  db = await createTestDatabase();
  const playbook = await db.pool.query<{ id: string }>(`INSERT INTO playbooks (name, spec) VALUES ('actions', '{}') RETURNING id`);
  const runRow = await db.pool.query<{ id: string }>(`INSERT INTO playbook_runs (playbook_id, spec, status) VALUES ($1, '{}', 'running') RETURNING id`, [playbook.rows[0]?.id]);
  runId = runRow.rows[0]?.id ?? '';
  peer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = req.url ?? '';
      if (url.startsWith('/json')) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ ok: true, items: [1, 2] }));
      } else if (url.startsWith('/echo')) {
        res.setHeader('x-method', req.method ?? '');
        res.end(`${req.method} ${body}`);
      } else if (url.startsWith('/basic')) {
        const expected = `Basic ${Buffer.from('ann:s3cret-pass').toString('base64')}`;
        res.statusCode = req.headers.authorization === expected ? 200 : 401;
        res.end(res.statusCode === 200 ? 'welcome' : 'who are you');
      } else if (url.startsWith('/bearer')) {
        res.statusCode = req.headers.authorization === 'Bearer t0ken-value' ? 200 : 401;
        res.end();
      } else if (url.startsWith('/token')) {
        const client = `Basic ${Buffer.from('wk-client:client-s3cret').toString('base64')}`;
        const granted = req.headers.authorization === client && new URLSearchParams(body).get('grant_type') === 'client_credentials';
        res.statusCode = granted ? 200 : 401;
        res.setHeader('content-type', 'application/json');
        res.end(granted ? JSON.stringify({ access_token: 'oauth-t0ken', token_type: 'bearer', expires_in: 3600 }) : '{}');
      } else if (url.startsWith('/oauth')) {
        res.statusCode = req.headers.authorization === 'Bearer oauth-t0ken' ? 200 : 401;
        res.end();
      } else if (url.startsWith('/fail')) {
        res.statusCode = 500;
        res.end('boom');
      } else if (url.startsWith('/slow')) {
        // Never answers: the action's signal has to end the wait.
      } else {
        res.end('ok');
      }
    });
  });
  await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  await apply(`
apiVersion: v1
kind: Secret
metadata: {name: api}
stringData: {token: t0ken-value, password: s3cret-pass}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: api}
spec:
  type: http
  url: ${base}/basic
  username: ann
  password: s3cret-pass
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: hook}
spec: {type: generic_webhook, url: "${base}/hook"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: broken-hook}
spec: {type: generic_webhook, url: "${base}/fail"}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: app-db}
spec: {type: postgres, url: "${db.url}"}
`);
});

afterAll(async () => {
  peer?.closeAllConnections();
  await new Promise<void>((resolve) => (peer ? peer.close(() => resolve()) : resolve()));
  await db?.drop();
  if (scratch) await fs.rm(scratch, { recursive: true, force: true });
});

describe('exec', () => {
  it('runs the script with the playbook env and a secret env, and returns its trimmed output and exit code', async () => {
    const outcome = await run(
      { exec: { script: 'echo "  $GREETING $TOKEN  "\necho careful >&2', env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } }] } },
      { env: { GREETING: 'hello' } },
    );
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ stdout: 'hello t0ken-value', stderr: 'careful', exitCode: 0 });
    expect(String(outcome.result.path)).toMatch(/\/(bash|sh)$/);
    expect(outcome.result.args).toEqual([outcome.result.path, '-c', 'echo "  $GREETING $TOKEN  "\necho careful >&2']);
  });

  it('fails with the exit code and the last line of stderr', async () => {
    const outcome = await run({ exec: { script: 'echo first >&2\necho "disk full" >&2\necho "" >&2\nexit 3' } });
    expect(outcome.error).toBe('exit code 3: disk full');
    expect(outcome.result).toMatchObject({ exitCode: 3, stdout: '' });
    expect((await run({ exec: { script: 'exit 4' } })).error).toBe('exit code 4');
  });

  it('does not run when a secret it needs is missing, and says which', async () => {
    const marker = path.join(scratch, 'should-not-exist');
    const outcome = await run({ exec: { script: `touch ${marker}`, env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] } });
    expect(outcome.error).toBe('exec.env.X: valueFrom.secretKeyRef (name "nope", key "k"): secret "nope" not found in namespace "default"');
    await expect(fs.stat(marker)).rejects.toThrow();
  });

  it('stores the artifacts it names against the action, readable afterwards', async () => {
    const outcome = await run({
      exec: { script: 'mkdir -p reports && printf "<ok/>" > reports/a.xml && echo done', artifacts: [{ path: 'reports/*.xml' }, { path: '/dev/stdout' }, { path: 'missing/*.txt' }] },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result.artifactsSkipped).toEqual(['missing/*.txt matched no file']);
    const stored = await listArtifacts(db.pool, { playbookRunActionId: outcome.actionId });
    expect(stored.map((artifact) => artifact.filename).sort()).toEqual(['a.xml', 'stdout']);
    const xml = stored.find((artifact) => artifact.filename === 'a.xml');
    const full = await findArtifact(db.pool, xml?.id ?? '');
    expect(full && (await artifactBytes(full)).toString('utf8')).toBe('<ok/>');
    const stdout = await findArtifact(db.pool, stored.find((artifact) => artifact.filename === 'stdout')?.id ?? '');
    expect(stdout && (await artifactBytes(stdout)).toString('utf8')).toBe('done');
  });

  it('on cancel stops the script and the processes it started (the whole group) within 5 s, with the reason', async () => {
    const controller = new AbortController();
    // As root the script runs as WATCHKEEPER_EXEC_USER (nobody): it writes its pid where that user may.
    const pids = await fs.mkdtemp(path.join(scratch, 'pids-'));
    await fs.chmod(scratch, 0o755);
    await fs.chmod(pids, 0o777);
    const pidFile = path.join(pids, `child-${Date.now()}.pid`);
    const started = run({ exec: { script: `sleep 60 &\necho $! > ${pidFile}\nwait` } }, { signal: controller.signal });
    expect(await until(async () => (await fs.readFile(pidFile, 'utf8').catch(() => '')).trim() !== '', 5_000)).toBe(true);
    const child = Number((await fs.readFile(pidFile, 'utf8')).trim());
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(alive(child)).toBe(true);
    const at = Date.now();
    controller.abort(new Error('cancelled by ann'));
    const outcome = await started;
    expect(Date.now() - at).toBeLessThan(5_000);
    expect(outcome.error).toBe('cancelled by ann');
    expect(await until(() => !alive(child), 5_000 - (Date.now() - at))).toBe(true);
  });

  it('checks out a git repository and runs the script in it', async () => {
    const remote = path.join(scratch, 'remote.git');
    const work = path.join(scratch, 'repo');
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com' } }).trim();
    await fs.mkdir(work);
    git(scratch, 'init', '--quiet', '--bare', remote);
    git(work, 'init', '--quiet', '-b', 'main');
    await fs.writeFile(path.join(work, 'hello.txt'), 'hi from git\n');
    git(work, 'add', 'hello.txt');
    git(work, 'commit', '--quiet', '-m', 'first');
    git(work, 'push', '--quiet', remote, 'main');
    const commit = git(work, 'rev-parse', 'HEAD');
    const outcome = await run({ exec: { script: 'cat hello.txt && git rev-parse HEAD', checkout: { url: remote } } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ stdout: `hi from git\n${commit}`, exitCode: 0, extra: { commit } });
    const missing = await run({ exec: { script: 'true', checkout: { url: path.join(scratch, 'no-such.git') } } });
    expect(missing.error).toMatch(/^checkout failed: /);
  });
});

describe('http', () => {
  it('GETs a JSON answer: code, headers, body and json', async () => {
    const outcome = await run({ http: { url: `${base}/json` } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ code: 200, body: '{"ok":true,"items":[1,2]}', json: { ok: true, items: [1, 2] } });
    expect((outcome.result.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(received.at(-1)?.method).toBe('GET');
  });

  it('POSTs a body (the default method with one) with headers, one read from a secret', async () => {
    const outcome = await run({
      http: { url: `${base}/echo`, body: '{"name":"ann"}', headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'X-Token', valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } }] },
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ code: 200, body: 'POST {"name":"ann"}' });
    const request = received.at(-1);
    expect(request).toMatchObject({ method: 'POST', body: '{"name":"ann"}' });
    expect(request?.headers['x-token']).toBe('t0ken-value');
    expect(request?.headers['content-type']).toBe('application/json');
    expect((await run({ http: { url: `${base}/echo`, method: 'put', body: 'x' } })).result.body).toBe('PUT x');
  });

  it('authenticates with basic auth (password from a secret) and a bearer token; a refusal names the URL without credentials', async () => {
    const ok = await run({ http: { url: `${base}/basic`, username: { value: 'ann' }, password: { valueFrom: { secretKeyRef: { name: 'api', key: 'password' } } } } });
    expect(ok.error).toBeUndefined();
    expect(ok.result).toMatchObject({ code: 200, body: 'welcome' });
    const bearer = await run({ http: { url: `${base}/bearer`, bearer: { valueFrom: { secretKeyRef: { name: 'api', key: 'token' } } } } });
    expect(bearer.result.code).toBe(200);
    const refused = await run({ http: { url: `http://ann:wrong-pass@127.0.0.1:${new URL(base).port}/basic` } });
    expect(refused.error).toBe(`HTTP 401 from ${base}/basic`);
    expect(refused.result).toMatchObject({ code: 401, body: 'who are you' });
  });

  it('gets an OAuth2 client-credentials token (client secret from a secret) and sends it', async () => {
    await apply('apiVersion: v1\nkind: Secret\nmetadata: {name: oauth}\nstringData: {secret: client-s3cret}\n');
    const oauth = { tokenURL: `${base}/token`, clientID: { value: 'wk-client' }, clientSecret: { valueFrom: { secretKeyRef: { name: 'oauth', key: 'secret' } } }, scope: ['read'] };
    const outcome = await run({ http: { url: `${base}/oauth`, oauth } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result.code).toBe(200);
    const token = received.find((request) => request.url === '/token');
    expect(new URLSearchParams(token?.body).get('scope')).toBe('read');
    expect((await run({ http: { url: `${base}/oauth`, oauth: { clientID: { value: 'x' } } } })).error).toBe('http.oauth.tokenURL is required');
  });

  it('fails on a 500 with the code and the URL, keeping the answer', async () => {
    const outcome = await run({ http: { url: `${base}/fail?x=1` } });
    expect(outcome.error).toBe(`HTTP 500 from ${base}/fail?x=1`);
    expect(outcome.result).toMatchObject({ code: 500, body: 'boom' });
  });

  it('reaches a stored connection by reference or by name, with its credentials', async () => {
    for (const connection of ['connection://default/api', 'api']) {
      const outcome = await run({ http: { connection } });
      expect(outcome.error, connection).toBeUndefined();
      expect(outcome.result).toMatchObject({ code: 200, body: 'welcome' });
    }
    expect((await run({ http: { connection: 'connection://default/none' } })).error).toBe('http.connection: connection "default/none" not found');
  });

  it('says why a request could not be made, without secrets; refuses NTLM; stops on cancel', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await run({ http: { url: `http://127.0.0.1:${port}/x`, username: { value: 'ann' }, password: { value: 'top-s3cret' } } });
    expect(refused.error).toMatch(new RegExp(`^GET http://127.0.0.1:${port}/x: .*ECONNREFUSED`));
    expect(refused.error).not.toContain('top-s3cret');
    expect((await run({ http: { url: `${base}/json`, ntlm: true } })).error).toBe('http.ntlm: NTLM is not supported (use username and password, digest, bearer or oauth)');
    expect((await run({ http: { url: 'ftp://example.com/x' } })).error).toBe('http.url "ftp://example.com/x" is not an http:// or https:// URL with a host');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the action timed out after 200ms')), 200);
    const at = Date.now();
    const slow = await run({ http: { url: `${base}/slow` } }, { signal: controller.signal });
    expect(slow.error).toBe(`GET ${base}/slow: the action timed out after 200ms`);
    expect(Date.now() - at).toBeLessThan(5_000);
  });
});

/** MariaDB on the machine, or why not. */
async function mariadbReachable(): Promise<string | undefined> {
  try {
    const connection = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test', connectTimeout: 2_000 });
    await connection.end();
    return undefined;
  } catch (error) {
    return `MariaDB is not reachable at 127.0.0.1:3306 as root, database test (${error instanceof Error ? error.message : String(error)})`;
  }
}
const mariadbMissing = await mariadbReachable();
if (mariadbMissing) console.warn(`skipping the MariaDB sql action test: ${mariadbMissing}`);

describe('sql', () => {
  it('queries PostgreSQL by url: rows and count, capped at 1000 rows', async () => {
    const one = await run({ sql: { url: db.url, query: "SELECT 1 AS n, 'a' AS s, now() > '2000-01-01' AS recent" } });
    expect(one.error).toBeUndefined();
    expect(one.result).toEqual({ rows: [{ n: 1, s: 'a', recent: true }], count: 1 });
    const many = await run({ sql: { url: db.url, driver: 'postgresql', query: 'SELECT g FROM generate_series(1, 1500) g' } });
    expect(many.result.count).toBe(1500);
    expect(many.result.truncated).toBe(true);
    expect((many.result.rows as unknown[]).length).toBe(1000);
  });

  it('queries through a stored connection (its type is the driver) and names a failed query', async () => {
    const outcome = await run({ sql: { connection: 'connection://default/app-db', query: 'SELECT count(*) AS n FROM playbooks' } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ rows: [{ n: 1 }], count: 1 });
    const bad = await run({ sql: { connection: 'app-db', query: 'SELECT * FROM no_such_table' } });
    expect(bad.error).toBe('the query failed: relation "no_such_table" does not exist');
  });

  it('refuses SQL Server and unknown drivers, and stops a long query on cancel', async () => {
    expect((await run({ sql: { url: 'sqlserver://db:1433?database=app', driver: 'sqlserver', query: 'SELECT 1' } })).error).toBe('driver sqlserver is not supported on this console (postgres and mysql are)');
    expect((await run({ sql: { url: 'sqlserver://db:1433?database=app', query: 'SELECT 1' } })).error).toBe('driver sqlserver is not supported on this console (postgres and mysql are)');
    expect((await run({ sql: { url: db.url, driver: 'oracle', query: 'SELECT 1' } })).error).toBe('driver "oracle" is not one of postgres, mysql or sqlserver');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const at = Date.now();
    const slow = await run({ sql: { url: db.url, query: 'SELECT pg_sleep(30)' } }, { signal: controller.signal });
    expect(slow.error).toBe('cancelled');
    expect(Date.now() - at).toBeLessThan(5_000);
  });

  it.skipIf(mariadbMissing !== undefined)(`queries MariaDB (mysql driver)${mariadbMissing ? ` — skipped: ${mariadbMissing}` : ''}`, async () => {
    const outcome = await run({ sql: { url: 'mysql://root@127.0.0.1:3306/test', query: 'SELECT 2 AS n, DATABASE() AS db' } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toEqual({ rows: [{ n: 2, db: 'test' }], count: 1 });
    const dsn = await run({ sql: { url: '$(username):$(password)@tcp(127.0.0.1:3306)/test', driver: 'mysql', username: { value: 'root' }, password: { value: '' }, query: 'SELECT 3 AS n' } });
    expect(dsn.result).toEqual({ rows: [{ n: 3 }], count: 1 });
    const bad = await run({ sql: { url: 'mysql://root@127.0.0.1:3306/test', query: 'SELECT * FROM no_such_table_here' } });
    expect(bad.error).toMatch(/^the query failed: .*no_such_table_here/);
  });
});

describe('notification', () => {
  it('sends through a generic_webhook connection: title and message arrive', async () => {
    const outcome = await run({ notification: { connection: 'connection://default/hook', title: 'Restarted pod', message: 'The **pod** was restarted' } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ channel: 'generic_webhook', status: 200 });
    const request = received.at(-1);
    expect(request?.url).toBe('/hook');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({ title: 'Restarted pod', message: 'The **pod** was restarted' });
  });

  it('sends through a shoutrrr generic+http URL, with its keys and a header', async () => {
    const outcome = await run({ notification: { url: `generic+http://127.0.0.1:${new URL(base).port}/shout?titlekey=subject&@X-Source=wk`, title: 'Hello', message: 'from a playbook' } });
    expect(outcome.error).toBeUndefined();
    expect(outcome.result).toMatchObject({ channel: 'generic_webhook', status: 200 });
    const request = received.at(-1);
    expect(request?.url).toBe('/shout');
    expect(request?.headers['x-source']).toBe('wk');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({ subject: 'Hello', message: 'from a playbook' });
  });

  it('fails when the channel refuses, the connection is missing or the URL is not a service', async () => {
    const refused = await run({ notification: { connection: 'broken-hook', title: 'x', message: 'y' } });
    expect(refused.error).toMatch(/\(HTTP 500\)/);
    expect(refused.result).toMatchObject({ channel: 'generic_webhook', status: 500 });
    expect((await run({ notification: { connection: 'connection://default/none', title: 'x' } })).error).toBe('notification.connection: connection "default/none" not found');
    expect((await run({ notification: { url: 'nothing://here', title: 'x' } })).error).toMatch(/^notification\.url: /);
  });
});
