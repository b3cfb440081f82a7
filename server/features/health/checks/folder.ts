import { stat, statfs } from 'node:fs/promises';
import { z } from 'zod';
import { codeOf, messageOf } from '../../../platform/errors';
import { defineCheckType } from '../define';
import { durationSchema, formatDuration, formatSize, sizeSchema } from '../../../platform/units';
import { parseSince, scanFolder, type FolderFile, type FolderFilter } from './folder-scan';

/** Files kept with each result for people to read; the variables have them all. */
const DETAIL_FILES = 100;

const filterSchema = z.strictObject({
  minAge: durationSchema.optional(),
  maxAge: durationSchema.optional(),
  minSize: sizeSchema.optional(),
  maxSize: sizeSchema.optional(),
  regex: z
    .string()
    .refine((pattern) => {
      try {
        new RegExp(pattern);
        return true;
      } catch {
        return false;
      }
    }, 'is not a valid regular expression')
    .optional(),
  since: z
    .string()
    .refine((text) => parseSince(text) !== undefined, 'must be a date-time (2024-05-01T00:00:00Z) or now, now-6h, now-7d')
    .optional(),
});

const schema = z
  .object({
    path: z.string({ message: 'is required' }).trim().min(1, 'is required'),
    recursive: z.boolean().optional(),
    filter: filterSchema.optional(),
    minAge: durationSchema.optional(),
    maxAge: durationSchema.optional(),
    minCount: z.number().int().nonnegative().optional(),
    maxCount: z.number().int().nonnegative().optional(),
    minSize: sizeSchema.optional(),
    maxSize: sizeSchema.optional(),
    availableSize: sizeSchema.optional(),
    totalSize: sizeSchema.optional(),
  })
  .loose();

type FolderSpec = z.infer<typeof schema>;

/** The protocol of a remote path canary-checker reads through a connection (not supported here). */
function remoteProtocol(folder: string): string | undefined {
  if (folder.startsWith('\\\\')) return 'smb';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(folder)?.[1]?.toLowerCase();
  return scheme && scheme !== 'file' ? scheme : undefined;
}

function localPath(folder: string): string {
  return folder.replace(/^file:\/\//i, '');
}

function pick(files: FolderFile[], better: (a: FolderFile, b: FolderFile) => boolean): FolderFile | null {
  return files.reduce<FolderFile | null>((best, file) => (best === null || better(file, best) ? file : best), null);
}

const age = (file: FolderFile) => Date.now() - Date.parse(file.modified);

/** canary-checker's folder tests, in its order; the first failure is the message. */
function problemOf(spec: FolderSpec, stats: ReturnType<typeof summarize>): string | undefined {
  const { count, newest, oldest, smallest, largest } = stats;
  if (spec.minCount !== undefined && count < spec.minCount) return `too few files: ${count} < ${spec.minCount}`;
  if (spec.maxCount !== undefined && count > spec.maxCount) return `too many files: ${count} > ${spec.maxCount}`;
  if (spec.availableSize !== undefined && stats.availableSize < spec.availableSize) return `available size too small: ${formatSize(stats.availableSize)} < ${formatSize(spec.availableSize)}`;
  if (spec.totalSize !== undefined && stats.totalSize < spec.totalSize) return `total size too small: ${formatSize(stats.totalSize)} < ${formatSize(spec.totalSize)}`;
  if (!newest || !oldest || !smallest || !largest) return undefined;
  if (spec.minAge !== undefined && age(newest) < spec.minAge) return `${newest.path} is too new: ${formatDuration(age(newest))} < ${formatDuration(spec.minAge)}`;
  if (spec.maxAge !== undefined && age(oldest) > spec.maxAge) return `${oldest.path} is too old: ${formatDuration(age(oldest))} > ${formatDuration(spec.maxAge)}`;
  if (spec.minSize !== undefined && smallest.size < spec.minSize) return `${smallest.path} is too small: ${formatSize(smallest.size)} < ${formatSize(spec.minSize)}`;
  if (spec.maxSize !== undefined && largest.size > spec.maxSize) return `${largest.path} is too large: ${formatSize(largest.size)} > ${formatSize(spec.maxSize)}`;
  return undefined;
}

function summarize(files: FolderFile[], space: { availableSize: number; totalSize: number }) {
  return {
    files,
    count: files.length,
    newest: pick(files, (a, b) => a.modified > b.modified),
    oldest: pick(files, (a, b) => a.modified < b.modified),
    smallest: pick(files, (a, b) => a.size < b.size),
    largest: pick(files, (a, b) => a.size > b.size),
    size: files.reduce((sum, file) => sum + file.size, 0),
    ...space,
  };
}

/**
 * `folder`: lists a local folder (recursive optional, through `filter`) and checks the count, the ages
 * (minAge: the newest file is at least that old; maxAge: the oldest is at most that old), the sizes of the
 * smallest and largest file and the filesystem's available and total size. Remote paths (s3://, gcs://,
 * smb://, sftp://) are invalid. Variables: path, exists, count, files, newest, oldest, smallest, largest,
 * size, availableSize, totalSize, and the same under `results` as in canary-checker.
 */
export const folderCheck = defineCheckType({
  type: 'folder',
  label: 'Folder',
  icon: 'folder',
  schema,
  endpoint: (spec) => spec.path,
  async run(spec, ctx) {
    const protocol = remoteProtocol(spec.path);
    if (protocol) {
      const message = `${protocol}:// folders are not supported by this version: only local paths can be checked`;
      return { pass: false, invalid: true, message, error: message, data: { path: spec.path } };
    }
    const folder = localPath(spec.path);
    const filter: FolderFilter = {
      ...(spec.filter?.minAge !== undefined ? { minAgeMs: spec.filter.minAge } : {}),
      ...(spec.filter?.maxAge !== undefined ? { maxAgeMs: spec.filter.maxAge } : {}),
      ...(spec.filter?.minSize !== undefined ? { minSize: spec.filter.minSize } : {}),
      ...(spec.filter?.maxSize !== undefined ? { maxSize: spec.filter.maxSize } : {}),
      ...(spec.filter?.regex ? { regex: new RegExp(spec.filter.regex) } : {}),
      ...(spec.filter?.since ? { since: parseSince(spec.filter.since) } : {}),
    };
    let exists = true;
    let files: FolderFile[] = [];
    let truncated = false;
    let space = { availableSize: 0, totalSize: 0 };
    try {
      const info = await stat(folder);
      if (!info.isDirectory()) return { pass: false, message: `${spec.path} is not a directory`, data: { path: spec.path } };
      ({ files, truncated } = await scanFolder(folder, spec.recursive ?? false, filter, ctx.signal));
      const fs = await statfs(folder);
      space = { availableSize: fs.bavail * fs.bsize, totalSize: fs.blocks * fs.bsize };
    } catch (error) {
      // As canary-checker: a folder that does not exist has no files (minCount catches it).
      if (codeOf(error) !== 'ENOENT') return { pass: false, message: `could not read ${spec.path}: ${messageOf(error)}`, error: messageOf(error), data: { path: spec.path } };
      exists = false;
    }
    const stats = summarize(files, space);
    const { files: _all, ...results } = stats;
    const data = { path: spec.path, exists, ...stats, results: stats };
    const details = {
      ...results,
      exists,
      files: files.slice(0, DETAIL_FILES),
      ...(files.length > DETAIL_FILES ? { more: `${files.length - DETAIL_FILES} more files` } : {}),
      ...(truncated ? { truncated: 'the folder has more entries than are read in one run; the rest were not looked at' } : {}),
    };
    const problem = problemOf(spec, stats);
    if (problem) return { pass: false, message: problem, data, details };
    const summary = !exists
      ? `${spec.path} does not exist: no files`
      : stats.newest
        ? `${stats.count} files, ${formatSize(stats.size)}, newest ${stats.newest.path} (${formatDuration(age(stats.newest))} old)`
        : 'no files';
    return { pass: true, message: summary, data, details };
  },
});
