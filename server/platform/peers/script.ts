import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { collectArtifacts, type ArtifactSpec, type CollectedArtifacts } from '../artifacts/collect';
import { EXEC_USER_ENV, execUserSetting } from '../config';
import { scriptWorkRoot } from './work-dir';

/** Output kept per stream by default: enough to read, bounded so a chatty script cannot fill memory or the database. */
export const MAX_SCRIPT_OUTPUT = 64 * 1024;

/** The shell the watchdog runs in (POSIX sh). */
const SH = '/bin/sh';
/**
 * Starts the script (its interpreter and arguments, "$@") as the leader of its process group, beside a
 * watchdog that waits on fd 3, a pipe whose other end only this process holds. When the script ends we
 * write "done" and the watchdog leaves; if this process dies instead (kill -9, a crash), the pipe closes
 * and the watchdog kills the whole group — so a script never outlives the instance that ran it, and a run
 * taken over by another instance is not still running here.
 */
const WATCHDOG = '( read -r line <&3; [ "$line" = done ] || kill -KILL 0 ) </dev/null >/dev/null 2>&1 & exec "$@" 3<&-';

/** PATH when the server has none. */
const SAFE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The unprivileged user scripts run as (WATCHKEEPER_EXEC_USER) when the console runs as root. */
export interface ScriptUser {
  name: string;
  uid: number;
  gid: number;
}

export class ScriptUserError extends Error {
  override name = 'ScriptUserError';
}

/** Users the embedded PostgreSQL runs as (server/platform/db/embedded.ts): they own its files, so scripts never run as them. */
const DATABASE_USERS = ['postgres', 'watchkeeper'];

interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
}

function passwdEntries(): PasswdEntry[] {
  let text = '';
  try {
    text = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return [];
  }
  const entries: PasswdEntry[] = [];
  for (const line of text.split('\n')) {
    const [name, , uid, gid] = line.split(':');
    if (name && uid !== undefined && gid !== undefined && /^\d+$/.test(uid) && /^\d+$/.test(gid)) entries.push({ name, uid: Number(uid), gid: Number(gid) });
  }
  return entries;
}

/** A user by name or uid: /etc/passwd, then `id` (users from LDAP or another NSS source). */
function lookUpUser(nameOrUid: string): PasswdEntry | undefined {
  const numeric = /^\d+$/.test(nameOrUid);
  const found = passwdEntries().find((entry) => (numeric ? entry.uid === Number(nameOrUid) : entry.name === nameOrUid));
  if (found) return found;
  try {
    const id = (flag: string) => execFileSync('id', [flag, nameOrUid], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    const uid = Number(id('-u'));
    const gid = Number(id('-g'));
    if (Number.isInteger(uid) && Number.isInteger(gid)) return { name: nameOrUid, uid, gid };
  } catch {
    // no such user
  }
  return numeric ? { name: nameOrUid, uid: Number(nameOrUid), gid: Number(nameOrUid) } : undefined;
}

const userCache = new Map<string, ScriptUser | ScriptUserError>();

function resolveScriptUser(name: string): ScriptUser | ScriptUserError {
  const entry = lookUpUser(name);
  if (!entry) {
    return new ScriptUserError(
      `scripts run as the unprivileged user "${name}" (${EXEC_USER_ENV}) because the console runs as root, and there is no such user: ` +
        `create it, or set ${EXEC_USER_ENV} to an existing unprivileged user (docs/OPERATIONS.md)`,
    );
  }
  if (entry.uid === 0) return new ScriptUserError(`${EXEC_USER_ENV}=${name} is root (uid 0): name an unprivileged user, or root itself to run scripts unconfined (unsafe)`);
  const database = passwdEntries().find((candidate) => DATABASE_USERS.includes(candidate.name) && candidate.uid === entry.uid);
  if (database) return new ScriptUserError(`${EXEC_USER_ENV}=${name} is the user the embedded PostgreSQL runs as ("${database.name}"), which owns the database's files: name another unprivileged user`);
  return { name, uid: entry.uid, gid: entry.gid };
}

/**
 * Who a script runs as: undefined when it runs as the console itself (the console is not root, or
 * WATCHKEEPER_EXEC_USER=root turns containment off). Throws ScriptUserError when the configured user
 * does not exist: a script is refused rather than run as root.
 */
export function scriptUser(env: NodeJS.ProcessEnv = process.env): ScriptUser | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const setting = execUserSetting(env);
  if (setting instanceof Error) throw new ScriptUserError(setting.message);
  if (setting === 'root') return undefined;
  let user = userCache.get(setting);
  if (!user) {
    user = resolveScriptUser(setting);
    // A user created later is found then: only a found one is kept.
    if (!(user instanceof ScriptUserError)) userCache.set(setting, user);
  }
  if (user instanceof ScriptUserError) throw user;
  return user;
}

/**
 * Gives a tree the console just made (a scratch directory, a fresh checkout) to the script's user. Links
 * are changed themselves, never followed; a file with other hard links is left alone (it may be another
 * file's name), and so is anything not owned by the console.
 */
export async function handOver(root: string, user: ScriptUser): Promise<void> {
  const self = process.getuid?.() ?? 0;
  const walk = async (entry: string): Promise<void> => {
    const stat = await fs.lstat(entry);
    if (stat.uid !== self) return;
    if (stat.isDirectory()) {
      for (const name of await fs.readdir(entry)) await walk(path.join(entry, name));
    } else if (stat.nlink > 1) {
      return;
    }
    await fs.lchown(entry, user.uid, user.gid);
  };
  await walk(root);
}

/**
 * A fresh working directory for a script, owned by the user it runs as: under TMPDIR, or in an
 * organization's scope (hosted mode) inside that organization's own work folder (work-dir.ts).
 */
export async function makeScriptDir(prefix = 'wk-script-'): Promise<string> {
  const dir = await fs.mkdtemp(path.join(await scriptWorkRoot(), prefix));
  const user = scriptUser();
  if (user) await fs.chown(dir, user.uid, user.gid);
  return dir;
}

/**
 * The paths (artifacts a script named) that the script's own user may read: artifacts are collected by
 * the console after the script ended, so a path outside what the script could read (the data directory,
 * another user's files, through a link or not) is dropped. All readable when scripts are not contained.
 */
export async function readableByScript(paths: readonly string[], cwd: string): Promise<Set<string>> {
  const user = scriptUser();
  if (!user || paths.length === 0) return new Set(paths);
  const readable = new Set<string>();
  // `test -r` as the user: the kernel's own answer, links and directory permissions included.
  const check = 'for f; do if [ -f "$f" ] && [ -r "$f" ]; then printf "%s\\0" "$f"; fi; done';
  const out = await new Promise<string>((resolve) => {
    const child = spawn(SH, ['-c', check, 'readable', ...paths], { cwd, uid: user.uid, gid: user.gid, env: { PATH: SAFE_PATH }, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', () => resolve(''));
    child.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  for (const item of out.split('\0')) if (item !== '') readable.add(item);
  return readable;
}

/** After the script itself exits, how long processes it left behind may keep its output open. */
const LINGER_MS = 2000;

export interface ScriptResult {
  stdout: string;
  stderr: string;
  /** null when the script was killed (its signal, a timeout) or could not start. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  /** Set when the script could not start or was stopped. */
  error?: Error;
  /** True when stdout was longer than the limit and was cut. */
  truncated: boolean;
  stderrTruncated: boolean;
  /** The interpreter run (resolved on PATH) and its arguments, the script last: duty's ExecDetails path and args. */
  path: string;
  args: string[];
}

export interface ScriptOptions {
  env?: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The working directory (its HOME and TMPDIR too); a fresh one, removed afterwards, by default. */
  cwd?: string;
  /** Bytes of stdout kept (MAX_SCRIPT_OUTPUT by default). */
  maxOutput?: number;
  /** Bytes of stderr kept (MAX_SCRIPT_OUTPUT by default). */
  maxError?: number;
}

export interface ScriptCommand {
  /** As written in the shebang (`python3`, `/bin/sh`), or bash (sh without bash). */
  interpreter: string;
  /** The interpreter's arguments, the script's text last. */
  args: string[];
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A command name found on PATH (as Go's exec.LookPath); a name with a slash is taken as written. */
export function resolveOnPath(name: string, pathVariable: string | undefined): string | undefined {
  if (name.includes('/')) return name;
  for (const dir of (pathVariable ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Interpreters whose inline-script flag duty adds even when the shebang gives other arguments. */
const INLINE_FLAGS: Readonly<Record<string, string>> = { python: '-c', python3: '-c', node: '-e', bun: '-e' };

/**
 * How a script runs, as duty's shell decides: a first line `#!interpreter args` (through `/usr/bin/env`
 * too) picks the interpreter; python gets `-c` and node and bun `-e` unless the shebang has them, any other
 * `-c` when the shebang gives no arguments. Without a shebang it is bash (sh where bash is missing). Lines
 * starting with `#!` are taken out of the text passed.
 */
export function scriptCommand(script: string, pathVariable: string | undefined): ScriptCommand {
  const lines = script.split('\n');
  const body = lines.filter((line) => !line.startsWith('#!')).join('\n');
  const first = lines[0] ?? '';
  if (first.startsWith('#!')) {
    let [interpreter = '', ...args] = first.slice(2).trim().split(/\s+/).filter(Boolean);
    if (path.basename(interpreter) === 'env' && args.length > 0) [interpreter = '', ...args] = args;
    const inline = INLINE_FLAGS[path.basename(interpreter)];
    if (inline !== undefined && !args.includes(inline)) args.push(inline);
    else if (inline === undefined && args.length === 0) args.push('-c');
    if (interpreter !== '') return { interpreter, args: [...args, body] };
  }
  return { interpreter: resolveOnPath('bash', pathVariable) ? 'bash' : 'sh', args: ['-c', body] };
}

/** Keeps the first `max` bytes of a stream and says whether there was more. */
class Capture {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    if (this.bytes >= this.max) {
      this.truncated = true;
      return;
    }
    const room = this.max - this.bytes;
    if (chunk.length > room) this.truncated = true;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.bytes += kept.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * The artifacts a script named (collectArtifacts), less the files its own user may not read: they are
 * read by the console after the script ended, so a path (or link) into the data directory or another
 * user's files is refused, with a note, rather than stored.
 */
export async function collectScriptArtifacts(specs: readonly ArtifactSpec[], run: { cwd: string; stdout: string; stderr: string }): Promise<CollectedArtifacts> {
  const collected = await collectArtifacts(specs, run);
  // Files carry their size; the captured /dev/stdout and /dev/stderr do not.
  const files = collected.artifacts.filter((artifact) => artifact.size !== undefined).map((artifact) => artifact.path);
  const readable = await readableByScript(files, run.cwd);
  const refused = new Set(files.filter((file) => !readable.has(file)));
  if (refused.size === 0) return collected;
  return {
    ...collected,
    artifacts: collected.artifacts.filter((artifact) => artifact.size === undefined || !refused.has(artifact.path)),
    notes: [...collected.notes, ...[...refused].map((file) => `artifact ${file} was not collected: the user the script runs as may not read it`)],
  };
}

/**
 * The environment a script starts with: never the server's own (its database URL, secret key, mail and
 * identity-provider settings), only PATH, HOME and TMPDIR (its working directory), the locale and time
 * zone, then what the spec gives it.
 */
export function scriptEnvironment(cwd: string, given: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH || SAFE_PATH, HOME: cwd, TMPDIR: cwd, LANG: process.env.LANG ?? 'C.UTF-8' };
  if (process.env.LC_ALL) env.LC_ALL = process.env.LC_ALL;
  if (process.env.TZ) env.TZ = process.env.TZ;
  for (const [name, value] of Object.entries(given ?? {})) if (value !== undefined) env[name] = value;
  return env;
}

/**
 * Runs a script (bash, or the interpreter of its shebang) in a working directory of the caller's choice
 * (a fresh one, removed afterwards, when none is given), with only the environment given (plus PATH, HOME,
 * TMPDIR, the locale and time zone), in a process group of its own: the signal stops the script and
 * everything it started. When the console runs as root the script runs as WATCHKEEPER_EXEC_USER (`nobody`
 * by default), which cannot read the data directory; a missing user refuses the run.
 */
export async function runScript(script: string, options: ScriptOptions): Promise<ScriptResult> {
  let user: ScriptUser | undefined;
  let userError: Error | undefined;
  try {
    user = scriptUser();
  } catch (error) {
    userError = error instanceof Error ? error : new Error(String(error));
  }
  const ownDir = options.cwd === undefined && !userError && !options.signal.aborted ? await makeScriptDir() : undefined;
  try {
    return await runIn(script, options, ownDir ?? options.cwd ?? os.tmpdir(), user, userError);
  } finally {
    if (ownDir) await fs.rm(ownDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function runIn(script: string, options: ScriptOptions, cwd: string, user: ScriptUser | undefined, userError: Error | undefined): Promise<ScriptResult> {
  const env = scriptEnvironment(cwd, options.env);
  const command = scriptCommand(script, env.PATH);
  const resolved = resolveOnPath(command.interpreter, env.PATH) ?? command.interpreter;
  const stdout = new Capture(options.maxOutput ?? MAX_SCRIPT_OUTPUT);
  const stderr = new Capture(options.maxError ?? MAX_SCRIPT_OUTPUT);
  const base = { path: resolved, args: [resolved, ...command.args] };
  const finish = (exitCode: number | null, signal: NodeJS.Signals | null, error?: Error): ScriptResult => ({
    stdout: stdout.text(),
    stderr: stderr.text(),
    exitCode,
    signal,
    truncated: stdout.truncated,
    stderrTruncated: stderr.truncated,
    ...base,
    ...(error ? { error } : {}),
  });
  if (userError) return Promise.resolve(finish(null, null, userError));
  if (options.signal.aborted) return Promise.resolve(finish(null, null, new Error('stopped before it started')));
  return new Promise((resolve) => {
    // With a watchdog (fd 3) when the interpreter exists; a missing one is spawned directly so it fails as ENOENT.
    const guarded = isExecutable(resolved) && isExecutable(SH);
    const identity = user ? { uid: user.uid, gid: user.gid } : {};
    const child = guarded
      ? spawn(SH, ['-c', WATCHDOG, 'watchkeeper-script', resolved, ...command.args], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'], cwd, ...identity })
      : spawn(resolved, command.args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], cwd, ...identity });
    const watchdog = guarded ? (child.stdio[3] as NodeJS.WritableStream & { destroy?: () => void; on: (event: string, listener: () => void) => void }) : undefined;
    // The pipe breaking is how the watchdog learns of our end; an error on it is expected then.
    watchdog?.on('error', () => undefined);
    let done = false;
    let linger: NodeJS.Timeout | undefined;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const onAbort = () => killGroup();
    const settle = (result: ScriptResult) => {
      if (done) return;
      done = true;
      clearTimeout(linger);
      options.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.once('error', (error: NodeJS.ErrnoException) => {
      const denied = user && (error.code === 'EACCES' || error.code === 'EPERM');
      settle(finish(null, null, denied ? new Error(`${error.message}: the user "${user.name}" scripts run as (${EXEC_USER_ENV}) cannot enter ${cwd} or run ${resolved}`) : error));
    });
    child.once('exit', (code, signal) => {
      // The script ended: its watchdog leaves without killing anything (what it left behind lingers as before).
      watchdog?.end('done\n');
      // Output is complete when its pipes close; a background process still holding them is stopped.
      linger = setTimeout(() => {
        killGroup();
        settle(finish(code, signal, options.signal.aborted ? new Error('the script was stopped') : undefined));
      }, LINGER_MS);
    });
    child.once('close', (code, signal) => settle(finish(code, signal, options.signal.aborted ? new Error('the script was stopped') : undefined)));
  });
}

/**
 * Go's strings.TrimSpace, which duty's shell applies to a script's stdout and stderr: Unicode White_Space
 * at both ends. Unlike String.prototype.trim it keeps U+FEFF (a byte-order mark) and trims U+0085 (NEL).
 */
export function trimSpace(text: string): string {
  return text.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}
