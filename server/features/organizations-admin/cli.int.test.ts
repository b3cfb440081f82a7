import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { startSmtpSink } from '../../../test/smtp-sink';
import { oidcEnv } from '../identity/oidc/testing/issuer';

/**
 * `watchkeeper org …` as installed (bin/watchkeeper.mjs: the built bundle, rebuilt first when older than the
 * sources), on a clone of the test database. Through tsx each start compiled the server's sources again:
 * about 7 s of CPU a command against 3 s for the bundle, and this file runs eleven.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin', 'watchkeeper.mjs');
let db: TestDatabase;

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'ignore' });
  db = await createTestDatabase();
}, 180_000);

afterAll(async () => {
  await db?.drop();
});

function org(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return orgWith({}, ...args);
}

function orgWith(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'org', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('watchkeeper org', () => {
  it('creates, lists, invites and sets the backend, naming what is wrong on the way', async () => {
    const created = await org('create', 'Team', 'Blue', '--backend', 'https://blue.example.com/');
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^created organization [0-9a-f-]{36} {2}Team Blue {2}0 member\(s\) {2}backend: https:\/\/blue\.example\.com \(proxied\)\n$/);

    // Each start of the command takes seconds on a busy machine: the refusals run side by side.
    const [duplicate, directWithout, badRole, unknown, badUrl] = await Promise.all([
      org('create', 'team blue'),
      org('create', 'Green', '--direct'),
      org('invite', 'Team Blue', 'bob@example.com', '--role', 'owner'),
      org('invite', 'Nobody', 'bob@example.com'),
      org('set-backend', 'Team Blue', 'ftp://x'),
    ]);
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toBe('watchkeeper: name: an organization named "team blue" exists already\n');
    expect(directWithout.status).toBe(1);
    expect(directWithout.stderr).toBe('watchkeeper: --direct: needs a backend_url: the browser calls the backend itself\n');
    expect(badRole.stderr).toContain('--role owner: use one of admin, editor');
    expect(unknown.stderr).toBe('watchkeeper: no organization is named or has the id "Nobody"\n');
    expect(badUrl.status).toBe(1);
    expect(badUrl.stderr).toBe('watchkeeper: URL: must be an http or https URL, not ftp\n');

    const invited = await org('invite', 'team blue', 'ada@example.com', '--role', 'editor');
    expect(invited.stdout).toBe('added ada@example.com to Team Blue as editor (a new account)\n');
    expect(invited.stderr).toContain('no invitation mail: that needs SMTP_URL and WATCHKEEPER_AUTH=oidc');
    const direct = await org('set-backend', 'Team Blue', 'http://127.0.0.1:4001', '--direct');
    expect(direct.stdout).toContain('backend: http://127.0.0.1:4001 (direct)');

    const listed = await org('list');
    expect(listed.stdout).toMatch(/Team Blue {2}1 member\(s\) {2}backend: http:\/\/127\.0\.0\.1:4001 \(direct\)/);
    const { rows } = await db.pool.query<{ backend_url: string; direct: boolean; role: string; email: string }>(
      `SELECT o.backend_url, o.direct, m.role, p.email FROM organizations o
         JOIN organization_members m ON m.organization_id = o.id JOIN people p ON p.id = m.person_id WHERE o.name = 'Team Blue'`,
    );
    expect(rows).toEqual([{ backend_url: 'http://127.0.0.1:4001', direct: true, role: 'editor', email: 'ada@example.com' }]);
  }, 400_000);

  it('mails the invitation when the console has a mail server and signs in through a provider', async () => {
    const smtp = await startSmtpSink();
    try {
      await org('create', 'Team Mail');
      const env = { ...oidcEnv({ url: 'https://id.example.com' }), SMTP_URL: smtp.url, PUBLIC_URL: 'https://console.example.com' };
      const invited = await orgWith(env, 'invite', 'Team Mail', 'grace@example.com');
      expect(invited.status, invited.stderr).toBe(0);
      expect(invited.stdout).toBe('added grace@example.com to Team Mail (a new account)\nmailed the invitation to grace@example.com (sign in at https://console.example.com/login)\n');
      const mail = await smtp.next('grace@example.com');
      expect(mail.raw).toContain('Subject: You are invited to Team Mail on Watchkeeper');
      expect(mail.raw.replace(/=\r?\n/g, '')).toContain('open https://console.example.com/login and sign in through id.example.com');
    } finally {
      await smtp.close();
    }
  }, 200_000);
});
