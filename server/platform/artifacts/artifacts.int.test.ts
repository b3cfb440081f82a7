import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/db';
import { inTransaction } from '../jobs/db';
import { runSystemJobOnce } from '../jobs/testing';
import { artifactBytes, artifactRetentionJob, detectContentType, findArtifact, listArtifacts, MiB, prepareArtifacts, storeArtifacts } from '.';

/** The artifact store against a real database: sizes, limits, compression, expiry and retention. */
let db: TestDatabase;
const canaryId = '11111111-1111-4111-8111-111111111111';
const checkId = '22222222-2222-4222-8222-222222222222';
const retention = { name: 'check_statuses.retention_days', defaultValue: 30, min: 1, max: 3650 };

beforeAll(async () => {
  db = await createTestDatabase();
  await db.pool.query(`INSERT INTO canaries (id, name) VALUES ($1, 'artifacts')`, [canaryId]);
  await db.pool.query(`INSERT INTO checks (id, canary_id, key, type, name) VALUES ($1, $2, 'exec/a', 'exec', 'a')`, [checkId, canaryId]);
});

afterAll(async () => {
  await db?.drop();
});

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const store = (time: Date, artifacts: Parameters<typeof storeArtifacts>[2], expiresAt?: Date) =>
  inTransaction(db.pool, (client) => storeArtifacts(client, { checkId, checkTime: time }, artifacts, expiresAt ? { expiresAt } : {}));

describe('artifact store', () => {
  it('keeps name, size, content type and sha256, compressed in the database, and gives the bytes back', async () => {
    const time = new Date('2030-01-01T10:00:00.123Z');
    const log = Buffer.from('line\n'.repeat(10_000));
    const stored = await store(time, [
      { path: '/tmp/exec-results/run.log', content: log },
      { path: 'stdout', content: Buffer.from('to stdout'), contentType: 'text/plain; charset=utf-8' },
      { path: '/tmp/report.json', content: Buffer.from('{"ok":true}') },
    ]);
    expect(stored.notes).toEqual([]);
    expect(stored.artifacts.map((row) => [row.filename, row.size, row.stored_size, row.truncated, row.content_type, row.checksum])).toEqual([
      ['run.log', log.length, log.length, false, 'text/plain; charset=utf-8', sha256(log)],
      ['stdout', 9, 9, false, 'text/plain; charset=utf-8', sha256(Buffer.from('to stdout'))],
      ['report.json', 11, 11, false, 'application/json', sha256(Buffer.from('{"ok":true}'))],
    ]);
    const { rows } = await db.pool.query<{ bytes: number; encoding: string }>(`SELECT octet_length(content) AS bytes, content_encoding AS encoding FROM artifacts WHERE filename = 'run.log'`);
    expect(rows[0]?.encoding).toBe('gzip');
    expect(rows[0]?.bytes).toBeLessThan(log.length / 50);
    const listed = await listArtifacts(db.pool, { checkId, checkTime: time });
    expect(listed.map((row) => row.path)).toEqual(['/tmp/exec-results/run.log', 'stdout', '/tmp/report.json']);
    const found = await findArtifact(db.pool, listed[0]?.id ?? '');
    expect(found && (await artifactBytes(found)).equals(log)).toBe(true);
    expect(found && zlib.gunzipSync(found.content).equals(log)).toBe(true);
    // Another result of the same check has none.
    expect(await listArtifacts(db.pool, { checkId, checkTime: new Date('2030-01-01T10:00:00.124Z') })).toEqual([]);
  });

  it('keeps an artifact over 10 MiB truncated to its first 10 MiB, saying so', async () => {
    const time = new Date('2030-01-02T00:00:00Z');
    const big = Buffer.alloc(11 * MiB, 'a');
    const stored = await store(time, [{ path: '/var/log/big.log', content: big }]);
    expect(stored.notes).toEqual(['artifact /var/log/big.log (11.0 MiB) is kept truncated to its first 10.0 MiB']);
    expect(stored.artifacts[0]).toMatchObject({ size: 11 * MiB, stored_size: 10 * MiB, truncated: true, checksum: sha256(big.subarray(0, 10 * MiB)) });
    const found = await findArtifact(db.pool, stored.artifacts[0]?.id ?? '');
    expect(found && (await artifactBytes(found)).length).toBe(10 * MiB);
    // A producer that read only the first bytes says how big the file was.
    const told = await prepareArtifacts([{ path: '/x', content: Buffer.alloc(10), size: 50 }]);
    expect(told.items[0]).toMatchObject({ size: 50, storedSize: 10 });
    expect(told.notes).toEqual(['artifact /x (50 B) is kept truncated to its first 10 B']);
  });

  it('refuses what would take a run over 50 MiB or 100 artifacts, keeping the rest', async () => {
    const parts = Array.from({ length: 6 }, (_, index) => ({ path: `/data/part-${index + 1}`, content: Buffer.alloc(9 * MiB, index) }));
    const prepared = await prepareArtifacts(parts);
    expect(prepared.items.map((item) => item.filename)).toEqual(['part-1', 'part-2', 'part-3', 'part-4', 'part-5']);
    expect(prepared.notes).toEqual(["artifact /data/part-6 (9.0 MiB) was not kept: a run's artifacts may take at most 50.0 MiB"]);
    const many = await prepareArtifacts(Array.from({ length: 102 }, (_, index) => ({ path: `/f/${index}`, content: Buffer.from('x') })));
    expect(many.items).toHaveLength(100);
    expect(many.notes).toEqual(['artifact /f/100 was not kept: a run keeps at most 100 artifacts', 'artifact /f/101 was not kept: a run keeps at most 100 artifacts']);
  });

  it('serves nothing once an artifact expires or is deleted', async () => {
    const time = new Date('2030-01-03T00:00:00Z');
    const stored = await store(time, [{ path: 'a', content: Buffer.from('a') }, { path: 'b', content: Buffer.from('b') }], new Date(Date.now() + 60_000));
    const [a, b] = stored.artifacts;
    expect(await findArtifact(db.pool, a?.id ?? '')).toBeDefined();
    await db.pool.query(`UPDATE artifacts SET expires_at = now() - interval '1 second' WHERE id = $1`, [a?.id]);
    await db.pool.query('UPDATE artifacts SET deleted_at = now() WHERE id = $1', [b?.id]);
    expect(await findArtifact(db.pool, a?.id ?? '')).toBeUndefined();
    expect(await findArtifact(db.pool, b?.id ?? '')).toBeUndefined();
    expect(await listArtifacts(db.pool, { checkId, checkTime: time })).toEqual([]);
  });

  it('detects content types from the bytes, then the name', () => {
    expect(detectContentType('x.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(detectContentType('report.html', Buffer.from('<html></html>'))).toBe('text/html; charset=utf-8');
    expect(detectContentType('data', Buffer.from([0, 1, 2, 255]))).toBe('application/octet-stream');
    expect(detectContentType('notes', Buffer.from('héllo'))).toBe('text/plain; charset=utf-8');
    expect(detectContentType('out.json.gz', Buffer.from([0x1f, 0x8b, 8, 0]))).toBe('application/gzip');
  });
});

describe('ArtifactRetention', () => {
  it('deletes expired, deleted and too-old artifacts in batches, and keeps the rest', async () => {
    await db.pool.query('DELETE FROM artifacts');
    const now = Date.now();
    const day = 86_400_000;
    const add = async (count: number, checkTime: Date, expiresAt: Date | null) => {
      const stored = await store(checkTime, Array.from({ length: count }, (_, index) => ({ path: `f${index}`, content: Buffer.from(String(index)) })), expiresAt ?? undefined);
      return stored.artifacts.map((row) => row.id);
    };
    await add(100, new Date(now - 2 * day), new Date(now - 1000));
    await add(100, new Date(now - 2 * day + 1), new Date(now - 1000));
    await add(30, new Date(now - 40 * day), null);
    const deleted = await add(5, new Date(now - 3 * day), new Date(now + day));
    await db.pool.query('UPDATE artifacts SET deleted_at = now() WHERE id = ANY($1)', [deleted]);
    const kept = await add(7, new Date(now - 3 * day + 1), new Date(now + day));
    const run = await runSystemJobOnce(db.pool, db.url, artifactRetentionJob(retention, 100));
    expect(run).toMatchObject({ status: 'SUCCESS', success_count: 235, details: { summary: { deleted: 235, batches: 3, retention_days: 30 } } });
    expect((await db.pool.query<{ id: string }>('SELECT id FROM artifacts ORDER BY path')).rows.map((row) => row.id).sort()).toEqual([...kept].sort());
  });
});
