// Connections and secrets, measured (docs/CONNECTIONS.md). Targets from the issue:
//  - resolving a check's connection with two secret references (valueFrom.secretKeyRef for username and
//    password), cache warm: p95 ≤ 1 ms (cold first call and after an invalidation printed too, no target);
//  - `secrets rotate` over 10,000 stored secret values: ≤ 10 s, every value afterwards under the new key
//    and decrypting to what was stored.
// Run: npx tsx bench/connections.ts [warm resolutions, default 20000] [secret values, default 10000]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';

// The process keyring reads this the first time it is asked for (no module asks at import time): a key of
// our own, so the rotation keyring below can hold it as its old key without touching any key file.
const OLD_KEY = randomBytes(32).toString('base64');
process.env.WATCHKEEPER_SECRET_KEY = OLD_KEY;

import { features } from '../server/features';
import { createLogger } from '../server/platform/logger';
import { applyDocuments } from '../server/platform/resources';
import { Keyring, isEncrypted, processKeyring, secretStore } from '../server/platform/secrets';
import { keysInUse, rotateSecrets } from '../server/platform/secrets/rotate';
import { resolveSpecReferences } from '../server/platform/secrets/spec-references';
import { quantile, withEmbedded, type BenchDatabase } from './_db';

const RESOLUTIONS = Number(process.argv[2] ?? 20_000);
const VALUES = Number(process.argv[3] ?? 10_000);
const KEYS_PER_SECRET = 4;

interface Row {
  figure: string;
  value: string;
  target: string;
  verdict: 'PASS' | 'FAIL' | 'info';
}
const summary: Row[] = [];

const ms = (value: number) => `${value < 1 ? value.toFixed(3) : value.toFixed(2)} ms`;
const out = (line: string) => process.stdout.write(`${line}\n`);

const SETUP = `apiVersion: v1
kind: Secret
metadata: {name: bench-auth, namespace: default}
stringData: {user: bench-user, password: bench-password-0123456789}
---
apiVersion: mission-control.flanksource.com/v1
kind: Connection
metadata: {name: bench, namespace: default}
spec:
  http:
    url: https://bench.example.com/health
    username: {valueFrom: {secretKeyRef: {name: bench-auth, key: user}}}
    password: {valueFrom: {secretKeyRef: {name: bench-auth, key: password}}}
`;

/** An http check as a run sees it: a connection to fill in, and a header of its own. */
const CHECK = { name: 'bench-http', connection: 'connection://default/bench', headers: [{ name: 'X-Bench', value: 'connections' }] };

async function resolveOnce(pool: pg.Pool): Promise<number> {
  const started = performance.now();
  const { spec } = await resolveSpecReferences(secretStore(pool), CHECK, 'default');
  const took = performance.now() - started;
  const filled = spec as { username?: { value?: string }; password?: { value?: string } };
  if (filled.username?.value !== 'bench-user' || filled.password?.value !== 'bench-password-0123456789') throw new Error(`resolution gave ${JSON.stringify(spec)}`);
  return took;
}

async function resolution(pool: pg.Pool): Promise<void> {
  const kinds = features.flatMap((feature) => feature.kinds ?? []);
  const results = await applyDocuments(pool, kinds, [{ file: 'bench.yaml', text: SETUP }], 'ConfigFile', createLogger('warn'));
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) throw new Error(`setup not applied: ${failed.map((result) => `${result.kind} ${result.name}: ${result.errors.join('; ')}`).join(' | ')}`);

  const cold = await resolveOnce(pool);
  // Warm-up (JIT), then the measured runs: every one reads the connection and the secret from the cache.
  for (let i = 0; i < 1_000; i += 1) await resolveOnce(pool);
  const warm: number[] = [];
  const started = performance.now();
  for (let i = 0; i < RESOLUTIONS; i += 1) warm.push(await resolveOnce(pool));
  const total = performance.now() - started;
  warm.sort((a, b) => a - b);
  const afterInvalidation: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    secretStore(pool).invalidate();
    afterInvalidation.push(await resolveOnce(pool));
  }
  const firstAfter = afterInvalidation[0] as number;
  afterInvalidation.sort((a, b) => a - b);

  const [p50, p95, p99] = [0.5, 0.95, 0.99].map((q) => quantile(warm, q)) as [number, number, number];
  out(`resolving a check's connection (2 secretKeyRef values) — ${RESOLUTIONS.toLocaleString('en-US')} resolutions, cache warm`);
  out(`  warm   p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(p99)}  max ${ms(warm[warm.length - 1] as number)}  (${Math.round(RESOLUTIONS / (total / 1000)).toLocaleString('en-US')}/s, one at a time)`);
  out(`  cold   first call ${ms(cold)} (connection and secret read from the database, code paths not yet compiled)`);
  out(`  after invalidate(): first ${ms(firstAfter)}; over 50 invalidations p50 ${ms(quantile(afterInvalidation, 0.5))}, p95 ${ms(quantile(afterInvalidation, 0.95))}`);
  summary.push({ figure: 'resolve, cache warm, p95', value: ms(p95), target: '≤ 1 ms', verdict: p95 <= 1 ? 'PASS' : 'FAIL' });
  summary.push({ figure: 'resolve, cache warm, p50 / p99', value: `${ms(p50)} / ${ms(p99)}`, target: '', verdict: 'info' });
  summary.push({ figure: 'resolve, cold (first call)', value: ms(cold), target: '', verdict: 'info' });
  summary.push({ figure: 'resolve, after invalidate, p50', value: ms(quantile(afterInvalidation, 0.5)), target: '', verdict: 'info' });
}

const plainOf = (secret: number, key: number) => `value-${secret}-${key}-${'x'.repeat(24)}`;

async function rotation(pool: pg.Pool): Promise<void> {
  const secrets = Math.ceil(VALUES / KEYS_PER_SECRET);
  const keyring = processKeyring();
  const oldId = keyring.activeId;
  const names: string[] = [];
  const datas: string[] = [];
  let values = 0;
  for (let s = 0; s < secrets; s += 1) {
    const data: Record<string, string> = {};
    for (let k = 0; k < KEYS_PER_SECRET && values < VALUES; k += 1, values += 1) data[`key${k}`] = keyring.encrypt(plainOf(s, k));
    names.push(`bench-rotate-${String(s).padStart(5, '0')}`);
    datas.push(JSON.stringify(data));
  }
  const seeded = performance.now();
  await pool.query(`INSERT INTO secrets (kind, name, namespace, data, source) SELECT 'Secret', n, 'bench', d::jsonb, 'ConfigFile' FROM unnest($1::text[], $2::text[]) AS u(n, d)`, [names, datas]);
  out(`\nsecrets rotate over ${values.toLocaleString('en-US')} values (${secrets.toLocaleString('en-US')} Secrets of ${KEYS_PER_SECRET} keys, plus bench-auth; seeded in ${Math.round(performance.now() - seeded)} ms)`);

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-bench-rotate-'));
  const rotating = new Keyring([randomBytes(32), Buffer.from(OLD_KEY, 'base64')]);
  try {
    const started = performance.now();
    const result = await rotateSecrets(pool, dataDir, { keyring: rotating });
    const seconds = (performance.now() - started) / 1000;
    out(`  rotate: ${seconds.toFixed(2)} s — ${result.reencrypted.toLocaleString('en-US')} values re-encrypted from key ${oldId} to ${result.key}, ${result.remaining} under another key`);

    // Every stored value: under the new key, and decrypting with the rotation keyring to what was stored.
    const { rows } = await pool.query<{ name: string; namespace: string; data: Record<string, unknown> }>(`SELECT name, namespace, data FROM secrets WHERE kind = 'Secret' AND deleted_at IS NULL`);
    let checked = 0;
    const problems: string[] = [];
    for (const row of rows) {
      const index = row.namespace === 'bench' ? Number(row.name.slice('bench-rotate-'.length)) : undefined;
      for (const [key, value] of Object.entries(row.data)) {
        checked += 1;
        if (!isEncrypted(value)) problems.push(`${row.namespace}/${row.name} ${key}: not encrypted`);
        else if (Keyring.keyIdOf(value) !== rotating.activeId) problems.push(`${row.namespace}/${row.name} ${key}: under key ${Keyring.keyIdOf(value)}`);
        else {
          try {
            const plain = rotating.decrypt(value);
            if (index !== undefined && plain !== plainOf(index, Number(key.slice(3)))) problems.push(`${row.namespace}/${row.name} ${key}: decrypts to something else`);
          } catch (error) {
            problems.push(`${row.namespace}/${row.name} ${key}: ${(error as Error).message}`);
          }
        }
      }
    }
    const inUse = [...(await keysInUse(pool)).entries()].map(([id, n]) => `${id}: ${n}`).join(', ');
    const verified = problems.length === 0 && checked >= values;
    out(`  check: ${checked.toLocaleString('en-US')} stored values read back, ${problems.length} problems${problems.length > 0 ? ` (first: ${problems.slice(0, 3).join('; ')})` : ''}; keys in use: ${inUse}`);
    summary.push({ figure: `secrets rotate, ${values.toLocaleString('en-US')} values`, value: `${seconds.toFixed(2)} s`, target: '≤ 10 s', verdict: seconds <= 10 ? 'PASS' : 'FAIL' });
    summary.push({ figure: 'after rotate: all under new key, decrypt', value: `${(checked - problems.length).toLocaleString('en-US')} of ${checked.toLocaleString('en-US')} ok`, target: 'all', verdict: verified ? 'PASS' : 'FAIL' });
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function main(db: BenchDatabase): Promise<void> {
  out(`database: ${db.label}; Node ${process.version}`);
  await resolution(db.pool);
  await rotation(db.pool);
}

await withEmbedded('connections', main);

const width = Math.max(...summary.map((row) => row.figure.length));
const valueWidth = Math.max(...summary.map((row) => row.value.length));
out('\nsummary');
for (const row of summary) out(`  ${row.figure.padEnd(width)}  ${row.value.padStart(valueWidth)}  ${row.target.padEnd(7)} ${row.verdict}`);
process.exitCode = 0;
