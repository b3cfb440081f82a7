import { createHash } from 'node:crypto';
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';
import type { Logger } from './logger';
import { codeOf, messageOf } from './errors';
import { applyDocuments, formatResult, readInputs, type DocumentResult, type ResourceKind } from './resources';

export interface ResourcesFolder {
  /** Applies every file whose content changed since the last scan; answers what was applied. */
  scan(): Promise<DocumentResult[]>;
  stop(): Promise<void>;
}

export interface ResourcesFolderOptions {
  pool: pg.Pool;
  kinds: ResourceKind[];
  log: Logger;
  /** A change seen by the file watcher is applied after this quiet time (editors write in several steps). */
  debounceMs?: number;
  /** A full rescan also runs this often, for file systems where watching misses events. */
  pollMs?: number;
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The watched resources folder (`serve --resources DIR`, docs/RESOURCES.md): on start every
 * `.yaml`, `.yml` and `.json` file below DIR is applied as `watchkeeper apply -f DIR` would (source
 * ConfigFile); afterwards a file that is added or changed is applied again, found by a file watcher and
 * by a periodic rescan. Unchanged files are not re-applied. A file that is removed keeps its resources
 * (they are deleted in the UI or the API), which is logged.
 */
export async function watchResourcesFolder(dir: string, options: ResourcesFolderOptions): Promise<ResourcesFolder> {
  const { pool, kinds, log } = options;
  const debounceMs = options.debounceMs ?? 500;
  const pollMs = options.pollMs ?? 30_000;
  let stat;
  try {
    stat = await fs.stat(dir);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
    await fs.mkdir(dir, { recursive: true });
    stat = await fs.stat(dir);
    log.info({ dir }, `Created the resources folder ${dir}`);
  }
  if (!stat.isDirectory()) throw new Error(`the resources folder ${dir} is not a directory`);

  const seen = new Map<string, string>();
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;

  const scanOnce = async (): Promise<DocumentResult[]> => {
    const inputs = await readInputs(dir, () => Promise.resolve(''));
    const present = new Set(inputs.map((input) => input.file));
    for (const file of [...seen.keys()]) {
      if (present.has(file)) continue;
      seen.delete(file);
      log.info({ file }, `${file} was removed from the resources folder; the resources it defined are kept`);
    }
    const changed = inputs.filter((input) => seen.get(input.file) !== hashOf(input.text));
    if (changed.length === 0) return [];
    const results = await applyDocuments(pool, kinds, changed, 'ConfigFile', log);
    for (const input of changed) seen.set(input.file, hashOf(input.text));
    for (const result of results) {
      if (result.ok) log.info({ file: result.file, kind: result.kind, name: result.name }, formatResult(result));
      else log.warn({ file: result.file, kind: result.kind, name: result.name }, formatResult(result));
    }
    return results;
  };

  /** Scans run one at a time, in order. */
  const scan = (): Promise<DocumentResult[]> => {
    const next = queue.then(() => (stopped ? [] : scanOnce()));
    queue = next.catch((error: unknown) => log.warn({ dir, err: messageOf(error) }, `The resources folder could not be read: ${messageOf(error)}`));
    return next;
  };

  const first = await scan();
  const applied = first.filter((result) => result.ok).length;
  log.info({ dir, applied, failed: first.length - applied }, `Resources folder ${dir}: ${applied} applied, ${first.length - applied} failed; watching for changes`);

  let timer: NodeJS.Timeout | undefined;
  const soon = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void rescan(), debounceMs);
  };
  // One watcher per directory rather than `recursive: true`: on Linux, Node 20's recursive watcher loses a
  // file that an editor replaces by renaming (sed -i, vim), while a directory watcher sees every entry.
  const watchers = new Map<string, fsSync.FSWatcher>();
  let warned = false;
  const syncWatchers = async () => {
    const dirs = new Set<string>();
    const walk = async (current: string) => {
      dirs.add(current);
      for (const entry of await fs.readdir(current, { withFileTypes: true }).catch(() => [])) {
        if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(path.join(current, entry.name));
      }
    };
    await walk(dir);
    for (const [watched, watcher] of watchers) {
      if (dirs.has(watched)) continue;
      watcher.close();
      watchers.delete(watched);
    }
    for (const current of dirs) {
      if (stopped || watchers.has(current)) continue;
      try {
        const watcher = fsSync.watch(current, soon);
        watcher.on('error', () => {
          watcher.close();
          watchers.delete(current);
        });
        watchers.set(current, watcher);
      } catch (error) {
        if (!warned) log.warn({ dir: current, err: messageOf(error) }, `${current} cannot be watched (${messageOf(error)}); it is rescanned every ${Math.round(pollMs / 1000)} s`);
        warned = true;
      }
    }
  };
  const rescan = () => scan().then(syncWatchers, () => undefined).catch(() => undefined);
  await syncWatchers();
  const poll = setInterval(() => void rescan(), pollMs);
  poll.unref();

  return {
    scan,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      await queue;
    },
  };
}
