import fs from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDataDir } from './cli';
import { createTestDatabase, type TestDatabase } from './db';

/**
 * `watchkeeper secrets rotate` on an external database (DATABASE_URL: a clone of the test database, so the
 * second CI run takes it to the machine's server). The embedded-engine commands are in cli.int.test.ts.
 */

// The command runs the built bundle when there is one: make sure it is the bundle of these sources
// (scripts/ensure-built.mjs takes a lock, so two files asking at once build once).
beforeAll(() => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function dataDir(): Promise<string> {
  const dir = await tempDataDir();
  dirs.push(dir);
  return dir;
}

// Secrets in the database are encrypted with a key kept outside it (docs/CONNECTIONS.md): the key file
// is made on first use, and rotate puts a new key first and re-encrypts every value.
const keyIdsOf = async (db: TestDatabase): Promise<string[]> => {
  const { rows } = await db.pool.query<{ kid: string }>("SELECT DISTINCT split_part(value #>> '{}', ':', 3) AS kid FROM secrets, jsonb_each(data)");
  return rows.map((row) => row.kid);
};

describe('watchkeeper secrets rotate', () => {
  it('makes the key file on first use, re-encrypts every value under a new key, and --retire drops the unused keys', async () => {
    const db = await createTestDatabase();
    const dir = await dataDir();
    const env = { DATABASE_URL: db.url, WATCHKEEPER_DATA: dir };
    const applied = runCli(['apply', '-f', '-'], env, 'apiVersion: v1\nkind: Secret\nmetadata: {name: s1}\nstringData: {a: one, b: two}\n');
    expect(applied.status, applied.stderr).toBe(0);
    const file = path.join(dir, 'secret.key');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const [first] = await keyIdsOf(db);

    const rotated = runCli(['secrets', 'rotate'], env);
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(/^re-encrypted 2 secret value\(s\) under key [0-9a-f]{8} in \d+ ms\n$/);
    expect((await fs.readFile(file, 'utf8')).trim().split('\n')).toHaveLength(2);
    const [second] = await keyIdsOf(db);
    expect(second).not.toBe(first);

    const retired = runCli(['secrets', 'rotate', '--retire'], env);
    expect(retired.status, retired.stderr).toBe(0);
    expect(retired.stdout).toContain('retired key(s) ');
    expect(retired.stdout).toContain(String(first));
    expect(retired.stdout).toContain(String(second));
    expect((await fs.readFile(file, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(await keyIdsOf(db)).toHaveLength(1);
    expect(runCli(['secrets'], env)).toMatchObject({ status: 1, stderr: expect.stringContaining('secrets needs a subcommand: secrets rotate') });
    await db.drop();
  });
});
