import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureEmbedded, type EmbeddedHandle } from '../server/platform/db/embedded';
import { migrate } from '../server/platform/db/migrate';
import { createLogger } from '../server/platform/logger';

/**
 * Integration tests get a real PostgreSQL: TEST_DATABASE_URL (CI: the machine's server, in a database it
 * created) or an embedded engine in a temporary data directory. The database is migrated from empty,
 * then each test file clones it as a template (see test/db.ts) and drops its clone.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    templateUrl: string;
  }
}

let embedded: EmbeddedHandle | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const log = createLogger('warn');
  let templateUrl = process.env.TEST_DATABASE_URL;
  if (!templateUrl) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-test-pg-'));
    await fs.chmod(dataDir, 0o755);
    embedded = await ensureEmbedded({ dataDir, log });
    templateUrl = embedded.url;
  }
  const pool = new pg.Pool({ connectionString: templateUrl, max: 2 });
  try {
    await migrate(pool, log);
  } finally {
    await pool.end();
  }
  project.provide('templateUrl', templateUrl);
  return async () => {
    await dropClones(templateUrl);
    if (embedded) await embedded.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}

/** Drops clones a crashed test file left behind. */
async function dropClones(templateUrl: string): Promise<void> {
  const url = new URL(templateUrl);
  const base = url.pathname.slice(1);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${base}\\_t\\_%`]);
    for (const row of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(row.datname)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
