import fs from 'node:fs';
import path from 'node:path';

/** Files of the data directory that hold secrets or what the database says: readable by the console alone. */
export const PRIVATE_DATA_FILES = ['secret.key', 'postgres.json', 'postgres.log', 'serve.json'] as const;

/** Users the embedded PostgreSQL runs as when the console is root (server/platform/db/embedded.ts). */
const DATABASE_USERS = new Set(['postgres', 'watchkeeper']);

/** The primary groups of the embedded database's users: only they may pass through the data directory. */
function databaseGroups(): Set<number> {
  const groups = new Set<number>();
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [name, , , gid] = line.split(':');
      if (name && DATABASE_USERS.has(name) && gid && /^\d+$/.test(gid)) groups.add(Number(gid));
    }
  } catch {
    // no passwd file: no such group
  }
  return groups;
}

/**
 * Tightens an existing data directory: mode 0700 (0710 when its group is the embedded PostgreSQL's, which
 * must pass through to its cluster), and its secret files 0600, so no other user — scripts run as
 * WATCHKEEPER_EXEC_USER included — can list it or read `secret.key` and `postgres.json`. Links are left alone.
 */
export function secureDataDirSync(dir: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(dir);
  } catch {
    return;
  }
  if (!stat.isDirectory()) return;
  const traverse = (stat.mode & 0o010) !== 0 && databaseGroups().has(stat.gid) ? 0o010 : 0;
  if ((stat.mode & 0o777) !== (0o700 | traverse)) fs.chmodSync(dir, 0o700 | traverse);
  for (const name of PRIVATE_DATA_FILES) {
    const file = path.join(dir, name);
    try {
      const fileStat = fs.lstatSync(file);
      if (fileStat.isFile() && (fileStat.mode & 0o077) !== 0) fs.chmodSync(file, fileStat.mode & 0o700);
    } catch {
      // not there
    }
  }
}

/**
 * The data directory as the embedded PostgreSQL needs it when it runs as its own user: that user's group
 * may pass through (0710) to the cluster it owns, nobody else may enter.
 */
export function allowDatabaseThrough(dir: string, gid: number): void {
  const stat = fs.lstatSync(dir);
  if (stat.gid !== gid) fs.chownSync(dir, stat.uid, gid);
  fs.chmodSync(dir, 0o710);
  secureDataDirSync(dir);
}
