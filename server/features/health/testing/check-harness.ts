import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { TestApp } from '../../../../test/app';
import { createLogger } from '../../../platform/logger';
import { applyDocuments } from '../../../platform/resources';
import { canaryKind } from '../canary-kind';
import { checkTypeOf } from '../registry';
import type { CheckResult } from '../results';
import { runCanary } from '../run-canary';
import { runCheck } from '../runner';
import { parseCanarySpec } from '../spec';
import type { CheckOutcome } from '../types';

/**
 * Helpers for the check-type tests: run one check as the engine does (with its test, display and timeout),
 * or the type alone to read its variables; validate a check as `apply` does; start peers on 127.0.0.1.
 */

// The network and file types never query the database; a pool that is never used opens no connection.
// Test files share this module when they share a worker (vitest `isolate: false`): closeHarness ends the
// pool and puts a new one in its place for the next file.
let idlePool = new pg.Pool({ max: 1 });
const log = createLogger('silent');

export type Item = Record<string, unknown>;

/** The type's own outcome (its `data` are the variables expressions see). */
export async function outcome(type: string, item: Item, env: Record<string, string> = {}): Promise<CheckOutcome> {
  const registered = checkTypeOf(type);
  if (!registered) throw new Error(`no check type ${type}`);
  const timeoutMs = registered.timeoutMs(item);
  return registered.run(item, {
    signal: AbortSignal.timeout(timeoutMs),
    timeoutMs,
    env,
    canary: { id: randomUUID(), name: 'test', namespace: 'default' },
    checkId: randomUUID(),
    pool: idlePool,
    log,
  });
}

/** The result the engine stores: the type's outcome, then test, display and transform. */
export async function result(type: string, item: Item, env: Record<string, string> = {}) {
  const ran = await runCheck(
    { id: randomUUID(), key: `${type}/${String(item.name)}`, type, name: String(item.name), namespace: 'default', description: null, icon: null, endpoint: null, labels: {}, spec: item },
    { id: randomUUID(), name: 'test', namespace: 'default', labels: {}, env },
    { pool: idlePool, log },
    new AbortController().signal,
  );
  return ran.result;
}

/** What `apply` says about one check: errors (`path: message`) and warnings. */
export function validate(type: string, item: Item): { errors: string[]; warnings: string[]; endpoint: string | undefined } {
  const parsed = parseCanarySpec({ [type]: [item] }, { namespace: 'default' });
  return { errors: parsed.errors.map((error) => `${error.path}: ${error.message}`), warnings: parsed.warnings, endpoint: parsed.checks[0]?.endpoint };
}

export async function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

export async function close(server: Server | undefined): Promise<void> {
  if (!server?.listening) return;
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const probe = createServer();
  const port = await listen(probe);
  await close(probe);
  return port;
}

const run = promisify(execFile);

export interface Certificate {
  cert: string;
  key: string;
}

/** A self-signed certificate for localhost and 127.0.0.1, valid for `days`, made with the system's openssl. */
export async function selfSigned(days: number, commonName = 'localhost'): Promise<Certificate> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'wk-cert-'));
  try {
    await run('openssl', [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', String(days),
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
      '-subj', `/CN=${commonName}/O=Watchkeeper tests`, '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ]);
    return { cert: await readFile(path.join(dir, 'cert.pem'), 'utf8'), key: await readFile(path.join(dir, 'key.pem'), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function closeHarness(): Promise<void> {
  const ended = idlePool;
  idlePool = new pg.Pool({ max: 1 });
  await ended.end();
}

/** Shared steps of the check-type tests: apply a canary-checker YAML, run it, read results by check name. */

/** A name no other test file (or an earlier run) uses, for databases, keys and canaries. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export async function applyCanary(t: TestApp, text: string): Promise<{ ok: boolean; warnings: string[]; errors: string[] }> {
  const [result] = await applyDocuments(t.db.pool, [canaryKind], [{ file: 'canary.yaml', text }], 'ConfigFile', createLogger('silent'));
  return { ok: result?.ok ?? false, warnings: result?.outcome?.warnings ?? [], errors: result?.errors ?? [] };
}

export async function canaryIdOf(t: TestApp, name: string): Promise<string> {
  const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM canaries WHERE name = $1 AND deleted_at IS NULL', [name]);
  const id = rows[0]?.id;
  if (!id) throw new Error(`no canary named ${name}`);
  return id;
}

/** Runs every check of a canary and answers each result by check name. */
export async function runByName(t: TestApp, canaryName: string): Promise<Record<string, CheckResult>> {
  const ran = await runCanary({ pool: t.db.pool, log: createLogger('silent') }, await canaryIdOf(t, canaryName), new AbortController().signal);
  return Object.fromEntries(ran.map((item) => [item.check.name, item.outcome.result]));
}
