import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { features } from '../../server/features';
import { createIdentity } from '../../server/features/identity/identities';
import { createSession } from '../../server/features/identity/sessions';
import { startDnsServer, type DnsServer } from '../../server/features/health/tests/dns-server';
import { freePort } from '../../server/platform/db/embedded';
import { createLogger } from '../../server/platform/logger';
import { applyDocuments, formatResult, type DocumentResult } from '../../server/platform/resources';
import { ROOT, startServe, type ServeProcess } from '../cli';
import { createTestDatabase, type TestDatabase } from '../db';
import { startHttpbin } from '../peers/httpbin';
import { INTERNET_ZONE } from './internet-zone';

/**
 * canary-checker's own fixtures (DESIGN §8 peer suites), applied unchanged but for the hosts: httpbin,
 * Frankfurter, the OAuth2 demo server and example.com point at a local stand-in over HTTPS (its CA is
 * trusted the way an operator trusts one: NODE_EXTRA_CA_CERTS), and the public DNS servers at a local one
 * answering what the internet answers for the names asked. Every check runs in a real `watchkeeper serve`
 * through Run Now; a file named *_pass.yaml promises that each of its checks passes, *_fail.yaml that each
 * fails. Files that need the internet, a certificate from a public CA or a cloud account are skipped by
 * name, with the reason.
 */
const FIXTURES = path.resolve(ROOT, '..', 'shared', 'peers', 'canary-checker', 'minimal');
const present = existsSync(FIXTURES);

/** Files left out, each with why. */
const SKIPPED: Record<string, string> = {
  'icmp_fail.yaml': 'pings github.com on the internet (a loopback stand-in would answer and pass)',
  'exec_connection_aws_fail.yaml': 'needs an AWS account: connection://AWS/flanksource and the aws CLI',
};

/**
 * Files refused at apply for an invalid value (docs/RESOURCES.md: only an invalid value is refused), each
 * with the field: canary-checker never schedules the first three, and fails the last at every run.
 */
const REFUSED: Record<string, RegExp> = {
  'schedule_invalid.yaml': /spec\.schedule/,
  'tcp_invalid.yaml': /spec\.tcp\[0\]\.endpoint/,
  'metrics-multiple.yaml': /spec\.schedule/,
  'metrics-transformed.yaml': /spec\.schedule/,
};

/**
 * What canary-checker's own test environment holds for the fixtures that read secrets, config maps and
 * connections (its e2e setup creates them in the cluster): applied first, in the same formats.
 */
function environment(): string {
  const base = httpbin.httpsUrl.replace(/\/$/, '');
  return `
apiVersion: v1
kind: Secret
metadata: {name: httpbin-secret, namespace: default}
data: {username: ${Buffer.from('hello').toString('base64')}, password: ${Buffer.from('world').toString('base64')}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: basic-auth, namespace: default}
data: {username: hello, password: world}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: "200", namespace: HTTP}
spec: {http: {url: ${base}/status/200}}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: "500", namespace: HTTP}
spec: {http: {url: ${base}/status/500}}
`;
}

/** Files without a verdict in their name whose checks all pass (or fail) once that environment is there. */
const ASSERTED: Record<string, 'pass' | 'fail'> = {
  'http_auth_from_secret.yaml': 'pass',
  'http_auth_from_config_map.yaml': 'pass',
  'http_fail_connection.yaml': 'fail',
};

function verdictOf(file: string): 'pass' | 'fail' | undefined {
  if (ASSERTED[file]) return ASSERTED[file];
  if (file.endsWith('_pass.yaml')) return 'pass';
  if (file.endsWith('_fail.yaml')) return 'fail';
  return undefined;
}

let db: TestDatabase;
let serve: ServeProcess;
let httpbin: Awaited<ReturnType<typeof startHttpbin>>;
let dns: DnsServer;
let work = '';
let headers: Record<string, string> = {};

/** The fixture with its external hosts pointed at the local stand-ins, and nothing else changed. */
function localised(text: string): string {
  const host = new URL(httpbin.httpsUrl).host;
  return text
    .replace(/httpbin\.flanksource\.com|api\.frankfurter\.app|login-demo\.curity\.io|(?<![\w.-])example\.com/g, host)
    .replace(/^(\s*-?\s*server:\s*)(8\.8\.8\.8|1\.1\.1\.1)\s*$/gm, '$1127.0.0.1')
    .replace(/^(\s*port:\s*)53\s*$/gm, `$1${dns.port}`);
}

beforeAll(async () => {
  if (!present) return;
  db = await createTestDatabase();
  httpbin = await startHttpbin();
  dns = await startDnsServer(INTERNET_ZONE);
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-peers-'));
  const caFile = path.join(work, 'stand-in-ca.pem');
  await fs.writeFile(caFile, httpbin.ca);
  serve = await startServe({ DATABASE_URL: db.url, NODE_EXTRA_CA_CERTS: caFile, LOG_LEVEL: 'warn' }, await freePort());
  const { id } = await createIdentity(db.pool, { traits: { email: 'peers@example.com', name: { first: 'Peer', last: 'Suite' } }, roles: ['admin'], verified: true });
  const { token } = await createSession(db.pool, id, { method: 'password', aal: 'aal1' }, { ip: '127.0.0.1', userAgent: 'peer-suite' });
  headers = { 'x-session-token': token };
}, 180_000);

afterAll(async () => {
  if (!present) return;
  await serve?.stop();
  await httpbin?.close();
  await dns?.close();
  await db?.drop();
  if (work) await fs.rm(work, { recursive: true, force: true });
});

interface CheckVerdict {
  file: string;
  check: string;
  expected: 'pass' | 'fail';
  status: string | null;
  message: string;
}

/** Runs every stored check of the canaries a file made (Run Now), then reads their statuses. */
async function runFile(file: string, results: DocumentResult[]): Promise<Array<{ name: string; status: string | null; message: string }>> {
  const ids = results.flatMap((result) => (result.ok && result.outcome ? [result.outcome.id] : []));
  const top = await db.pool.query<{ id: string }>('SELECT id FROM checks WHERE canary_id = ANY($1) AND deleted_at IS NULL AND transformed_from IS NULL AND type <> $2 ORDER BY key', [ids, 'webhook']);
  for (const row of top.rows) {
    const res = await fetch(`${serve.url}/api/canary/run/check/${row.id}`, { method: 'POST', headers });
    if (res.status !== 200) throw new Error(`${file}: Run Now answered ${res.status}: ${await res.text()}`);
  }
  const { rows } = await db.pool.query<{ name: string; status: string | null; message: string | null }>(
    `SELECT c.name, c.status, (SELECT s.message FROM check_statuses s WHERE s.check_id = c.id ORDER BY s.time DESC LIMIT 1) AS message
       FROM checks c WHERE c.canary_id = ANY($1) AND c.deleted_at IS NULL ORDER BY c.key`,
    [ids],
  );
  return rows.map((row) => ({ ...row, message: row.message ?? '' }));
}

describe('canary-checker fixtures (../shared/peers/canary-checker/minimal)', () => {
  it('apply unchanged, and each asserted check gives the verdict its file name promises', async () => {
    if (!present) {
      process.stdout.write(`canary-checker peer suite: ${FIXTURES} is not here; nothing to run\n`);
      return;
    }
    const kinds = features.flatMap((feature) => feature.kinds ?? []);
    const files = (await fs.readdir(FIXTURES)).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml').sort();
    const verdicts: CheckVerdict[] = [];
    const refusals: string[] = [];
    const report: string[] = [];
    const setup = await applyDocuments(db.pool, kinds, [{ file: 'environment.yaml', text: environment() }], 'ConfigFile', createLogger('silent'));
    expect(setup.filter((result) => !result.ok).map(formatResult)).toEqual([]);
    for (const file of files) {
      if (SKIPPED[file]) {
        report.push(`skipped ${file}: ${SKIPPED[file]}`);
        continue;
      }
      const text = localised(await fs.readFile(path.join(FIXTURES, file), 'utf8'));
      const results = await applyDocuments(db.pool, kinds, [{ file, text }], 'ConfigFile', createLogger('silent'));
      const refused = results.filter((result) => !result.ok);
      if (refused.length > 0) {
        const expected = REFUSED[file];
        const why = refused.map(formatResult).join('\n');
        if (!expected || !expected.test(why)) refusals.push(why);
        report.push(`refused ${file} (an invalid value):\n${why}`);
        continue;
      }
      for (const result of results) for (const warning of result.outcome?.warnings ?? []) report.push(`warning ${file}: ${warning}`);
      const expected = verdictOf(file);
      if (!expected) continue;
      for (const check of await runFile(file, results)) {
        verdicts.push({ file, check: check.name, expected, status: check.status, message: check.message });
      }
    }
    const good = verdicts.filter((v) => (v.expected === 'pass' ? v.status === 'healthy' : v.status === 'unhealthy'));
    const wrong = verdicts.filter((v) => !good.includes(v));
    const summary = `${good.length} of ${verdicts.length} asserted checks give the verdict their file name promises`;
    process.stdout.write(
      [
        `canary-checker peer suite: ${summary}`,
        ...wrong.map((v) => `  WRONG ${v.file} ${v.check}: expected ${v.expected}, got ${v.status ?? 'no result'}: ${v.message}`),
        ...report.map((line) => `  ${line.replace(/\n/g, '\n    ')}`),
        '',
      ].join('\n'),
    );
    await fs.mkdir(path.join(ROOT, '.tmp'), { recursive: true });
    await fs.writeFile(path.join(ROOT, '.tmp', 'peer-suite-canary-checker.txt'), `${summary}\n`);
    expect(refusals).toEqual([]);
    expect(wrong.map((v) => `${v.file} ${v.check}: ${v.message}`)).toEqual([]);
  }, 600_000);
});
