import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDataDir } from '../../../../test/cli';
import { createTestDatabase, type TestDatabase } from '../../../../test/db';

// The command runs the built bundle when there is one: make sure it is the bundle of these sources.
beforeAll(() => {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'ensure-built.mjs')], { cwd: ROOT, stdio: 'ignore' });
}, 180_000);

let db: TestDatabase;
let dir = '';
beforeAll(async () => {
  db = await createTestDatabase();
  dir = await tempDataDir();
});
afterAll(async () => {
  await db?.drop();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

const keyIds = async (): Promise<string[]> => {
  const { rows } = await db.pool.query<{ kid: string }>("SELECT DISTINCT split_part(value #>> '{}', ':', 3) AS kid FROM secrets, jsonb_each(data)");
  return rows.map((row) => row.kid);
};

describe('watchkeeper secrets rotate', () => {
  it('makes the key file on first use, re-encrypts every value under a new key, and --retire drops the unused keys', async () => {
    const env = { DATABASE_URL: db.url, WATCHKEEPER_DATA: dir };
    const applied = runCli(['apply', '-f', '-'], env, 'apiVersion: v1\nkind: Secret\nmetadata: {name: s1}\nstringData: {a: one, b: two}\n');
    expect(applied.status, applied.stderr).toBe(0);
    const file = path.join(dir, 'secret.key');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const [first] = await keyIds();

    const rotated = runCli(['secrets', 'rotate'], env);
    expect(rotated.status, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(/^re-encrypted 2 secret value\(s\) under key [0-9a-f]{8} in \d+ ms\n$/);
    expect((await fs.readFile(file, 'utf8')).trim().split('\n')).toHaveLength(2);
    const [second] = await keyIds();
    expect(second).not.toBe(first);

    const retired = runCli(['secrets', 'rotate', '--retire'], env);
    expect(retired.status, retired.stderr).toBe(0);
    expect(retired.stdout).toContain('retired key(s) ');
    expect(retired.stdout).toContain(String(first));
    expect(retired.stdout).toContain(String(second));
    expect((await fs.readFile(file, 'utf8')).trim().split('\n')).toHaveLength(1);
    expect(await keyIds()).toHaveLength(1);
    expect(runCli(['secrets'], env)).toMatchObject({ status: 1, stderr: expect.stringContaining('secrets needs a subcommand: secrets rotate') });
  });
});
