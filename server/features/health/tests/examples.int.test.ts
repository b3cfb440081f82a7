import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';
import { applyCanary, runByName } from './check-harness';

/** The example canaries apply without problems, and those aimed at this machine's services pass. */
const EXAMPLES = path.resolve(import.meta.dirname, '../../../../examples/canaries');
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('examples/canaries', () => {
  it('every example applies with no error and no warning', async () => {
    for (const file of (await fs.readdir(EXAMPLES)).filter((name) => name.endsWith('.yaml'))) {
      // A file may hold several canaries: each document applies on its own.
      for (const text of (await fs.readFile(path.join(EXAMPLES, file), 'utf8')).split(/^---$/m)) {
        const applied = await applyCanary(t, text);
        expect({ file, ...applied }).toEqual({ file, ok: true, warnings: [], errors: [] });
      }
    }
  });

  it('the local database checks pass against the local PostgreSQL, MariaDB and Redis', async () => {
    const results = await runByName(t, 'local-databases');
    expect(Object.keys(results).length).toBeGreaterThan(0);
    for (const [name, result] of Object.entries(results)) expect({ name, pass: result.pass, message: result.message }).toMatchObject({ name, pass: true });
  });

  it('the junit example reads the sample report it ships', async () => {
    expect(await runByName(t, 'smoke-tests')).toMatchObject({ 'smoke suite': { pass: true, message: '2 passed, 1 skipped in 2.4s' } });
  });
});
