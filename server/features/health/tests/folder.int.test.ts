import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHarness, outcome, result, validate } from '../testing/check-harness';

/** The folder check against a temporary folder whose files have sizes and modification times set here. */
const HOUR = 3_600_000;
let root = '';

async function file(relative: string, size: number, ageMs: number) {
  const full = path.join(root, relative);
  await writeFile(full, 'x'.repeat(size));
  const when = new Date(Date.now() - ageMs);
  await utimes(full, when, when);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'wk-folder-'));
  await mkdir(path.join(root, 'sub'));
  await file('backup-1.tar', 100, 72 * HOUR);
  await file('backup-2.tar', 2000, 25 * HOUR);
  await file('backup-3.tar', 5000, 2 * HOUR);
  await file('notes.txt', 10, 240 * HOUR);
  await file('sub/deep.tar', 300, 5 * HOUR);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  await closeHarness();
});

const names = (files: unknown) => (Array.isArray(files) ? files.map((item: { path: string }) => item.path) : []);

describe('folder: fields', () => {
  it('validates durations, sizes, the regex and since, and warns about remote connections', () => {
    const checked = validate('folder', {
      name: 'f',
      path: root,
      maxAge: 'soon',
      minSize: '10 parsecs',
      filter: { regex: '([', since: 'yesterday', depth: 2 },
      sftpConnection: { host: 'x' },
    });
    expect(checked.errors).toEqual([
      'spec.folder[0].filter.regex: is not a valid regular expression',
      'spec.folder[0].filter.since: must be a date-time (2024-05-01T00:00:00Z) or now, now-6h, now-7d',
      'spec.folder[0].filter: Unrecognized key: "depth"',
      'spec.folder[0].maxAge: "soon" is not a duration (e.g. 30s, 15m, 2h, 7d)',
      'spec.folder[0].minSize: "10 parsecs" is not a size (e.g. 512, 10Ki, 10Mi, 1G)',
    ]);
    expect(checked.warnings).toEqual(['spec.folder[0].sftpConnection is not supported for folder checks; it is ignored']);
    expect(validate('folder', { name: 'f', path: root, maxSize: '10Mi', availableSize: '1G', totalSize: 1024, filter: { minSize: '1.5KiB', since: 'now-7d' } }).errors).toEqual([]);
  });

  it('refuses remote folders as invalid, naming the protocol', async () => {
    for (const [remote, protocol] of [['s3://bucket/backups', 's3'], ['gcs://bucket/backups', 'gcs'], ['smb://server/share', 'smb'], ['\\\\server\\share', 'smb'], ['sftp://host/var/backups', 'sftp']]) {
      expect(await outcome('folder', { name: 'r', path: remote })).toMatchObject({ pass: false, invalid: true, message: `${protocol}:// folders are not supported by this version: only local paths can be checked` });
    }
  });
});

describe('folder: a local folder', () => {
  it('lists the files with canary-checker variables (top level and under results)', async () => {
    const ran = await outcome('folder', { name: 'f', path: root });
    expect(ran).toMatchObject({ pass: true, data: { exists: true, count: 4, size: 7110, newest: { name: 'backup-3.tar', size: 5000 }, oldest: { name: 'notes.txt' }, smallest: { name: 'notes.txt', size: 10 }, largest: { name: 'backup-3.tar' } } });
    expect(names(ran.data.files)).toEqual(['backup-1.tar', 'backup-2.tar', 'backup-3.tar', 'notes.txt']);
    expect(ran.data.files).toContainEqual({ name: 'notes.txt', path: 'notes.txt', size: 10, mode: expect.stringMatching(/^-rw/), modified: expect.any(String), is_dir: false });
    expect(ran.message).toBe('4 files, 6.9KiB, newest backup-3.tar (2h old)');
    expect(ran.data.availableSize).toBeGreaterThan(0);
    expect(ran.data.totalSize).toBeGreaterThanOrEqual(Number(ran.data.availableSize));
    expect(await result('folder', { name: 'f', path: root, test: { expr: "results.files.size() == 4 && results.newest.name == 'backup-3.tar' && files.exists(f, f.name == 'notes.txt' && f.size == 10) && size == 7110" } })).toMatchObject({ pass: true });
  });

  it('walks sub-folders when recursive', async () => {
    const ran = await outcome('folder', { name: 'f', path: root, recursive: true });
    expect(names(ran.data.files)).toEqual(['backup-1.tar', 'backup-2.tar', 'backup-3.tar', 'notes.txt', 'sub/deep.tar']);
    expect(ran.data.count).toBe(5);
  });

  it('filters by regex, age, size and since', async () => {
    const filtered = async (filter: Record<string, unknown>) => names((await outcome('folder', { name: 'f', path: root, recursive: true, filter })).data.files);
    expect(await filtered({ regex: '\\.tar$' })).toEqual(['backup-1.tar', 'backup-2.tar', 'backup-3.tar', 'sub/deep.tar']);
    expect(await filtered({ minAge: '1d' })).toEqual(['backup-1.tar', 'backup-2.tar', 'notes.txt']);
    expect(await filtered({ maxAge: '6h' })).toEqual(['backup-3.tar', 'sub/deep.tar']);
    expect(await filtered({ minSize: '1Ki' })).toEqual(['backup-2.tar', 'backup-3.tar']);
    expect(await filtered({ maxSize: '100' })).toEqual(['backup-1.tar', 'notes.txt']);
    expect(await filtered({ since: 'now-26h' })).toEqual(['backup-2.tar', 'backup-3.tar', 'sub/deep.tar']);
    expect(await filtered({ since: new Date(Date.now() - 3 * HOUR).toISOString(), regex: '^backup' })).toEqual(['backup-3.tar']);
  });

  it('checks minCount and maxCount', async () => {
    expect(await outcome('folder', { name: 'f', path: root, minCount: 4, maxCount: 4 })).toMatchObject({ pass: true });
    expect(await outcome('folder', { name: 'f', path: root, minCount: 5 })).toMatchObject({ pass: false, message: 'too few files: 4 < 5' });
    expect(await outcome('folder', { name: 'f', path: root, filter: { regex: '\\.tar$' }, maxCount: 2 })).toMatchObject({ pass: false, message: 'too many files: 3 > 2' });
  });

  it('checks minAge against the newest file and maxAge against the oldest', async () => {
    expect(await outcome('folder', { name: 'f', path: root, minAge: '1h', maxAge: '30d' })).toMatchObject({ pass: true });
    expect(await outcome('folder', { name: 'f', path: root, minAge: '3h' })).toMatchObject({ pass: false, message: 'backup-3.tar is too new: 2h < 3h' });
    expect(await outcome('folder', { name: 'f', path: root, maxAge: '7d' })).toMatchObject({ pass: false, message: 'notes.txt is too old: 10d > 7d' });
    // A fresh backup exists: filter on age, then count.
    expect(await outcome('folder', { name: 'f', path: root, filter: { maxAge: '1d', regex: '^backup' }, minCount: 1 })).toMatchObject({ pass: true });
  });

  it('checks minSize against the smallest file and maxSize against the largest', async () => {
    expect(await outcome('folder', { name: 'f', path: root, minSize: 10, maxSize: '5Ki' })).toMatchObject({ pass: true });
    expect(await outcome('folder', { name: 'f', path: root, minSize: '20' })).toMatchObject({ pass: false, message: 'notes.txt is too small: 10B < 20B' });
    expect(await outcome('folder', { name: 'f', path: root, maxSize: '4Ki' })).toMatchObject({ pass: false, message: 'backup-3.tar is too large: 4.9KiB > 4KiB' });
  });

  it("checks the filesystem's available and total size", async () => {
    expect(await outcome('folder', { name: 'f', path: root, availableSize: '1', totalSize: '1Ki' })).toMatchObject({ pass: true });
    expect(await outcome('folder', { name: 'f', path: root, availableSize: '1000P' })).toMatchObject({ pass: false, message: expect.stringMatching(/^available size too small: .+ < 1000PiB$/) });
    expect(await outcome('folder', { name: 'f', path: root, totalSize: '1000P' })).toMatchObject({ pass: false, message: expect.stringMatching(/^total size too small: .+ < 1000PiB$/) });
  });

  it('treats a missing folder as empty (as canary-checker) and a file as an error', async () => {
    const missing = path.join(root, 'nope');
    expect(await outcome('folder', { name: 'f', path: missing, maxAge: '1h' })).toMatchObject({ pass: true, message: `${missing} does not exist: no files`, data: { exists: false, count: 0, newest: null } });
    expect(await outcome('folder', { name: 'f', path: missing, minCount: 1 })).toMatchObject({ pass: false, message: 'too few files: 0 < 1' });
    const notFolder = path.join(root, 'notes.txt');
    expect(await outcome('folder', { name: 'f', path: notFolder })).toMatchObject({ pass: false, message: `${notFolder} is not a directory` });
    expect(await outcome('folder', { name: 'f', path: `file://${root}`, minCount: 4 })).toMatchObject({ pass: true });
  });
});
