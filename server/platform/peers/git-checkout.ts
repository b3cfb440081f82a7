import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertEgressResolved } from '../egress-connect';
import { handOver, scriptUser, type ScriptUser } from './script';
import { checkoutDestination, scriptWorkRoot } from './work-dir';

/** A repository to check out before a script runs: duty's GitConnection as exec `checkout` writes it. */
export interface GitCheckoutSpec {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  /** For ssh URLs: the private key (PEM / OpenSSH); `password` is then its passphrase. */
  certificate?: string | undefined;
  branch?: string | undefined;
  /** Commits fetched; 1 by default. */
  depth?: number | undefined;
  /** Where to check out (kept between runs, fetched again each time); a temporary directory by default. */
  destination?: string | undefined;
}

export interface GitCheckout {
  dir: string;
  /** The checked-out commit (duty's `extra.commit`). */
  commit: string;
  /** The URL without scheme, credentials or query (duty's `extra.git`). */
  git: string;
  branch: string | undefined;
  /** Removes a temporary checkout; a destination is kept. */
  cleanup(): Promise<void>;
}

export class GitCheckoutError extends Error {
  override name = 'GitCheckoutError';
}

/** Output kept from a failing git command, for its message. */
const MAX_GIT_OUTPUT = 1024 * 1024;

/** Runs in one process at a time per destination: git does not share a work tree between two commands. */
const destinationLocks = new Map<string, Promise<unknown>>();

async function withLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = destinationLocks.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  destinationLocks.set(key, settled);
  try {
    return await next;
  } finally {
    if (destinationLocks.get(key) === settled) destinationLocks.delete(key);
  }
}

interface Target {
  url: string;
  branch: string | undefined;
  depth: number;
  ssh: boolean;
  git: string;
}

/**
 * The URL as duty reads it: `?ref=` (branch) and `?depth=` in the query win over the fields and are taken
 * out; a URL without a scheme is https (`github.com/org/repo`). Ours as well: an absolute path is a local
 * repository.
 */
export function gitTarget(spec: Pick<GitCheckoutSpec, 'url' | 'branch' | 'depth'>): Target {
  let url = spec.url.trim();
  let branch = spec.branch?.trim() || undefined;
  let depth = spec.depth ?? 1;
  if (url.startsWith('/')) return { url, branch, depth, ssh: false, git: url.replace(/^\/+/, '') };
  const scpLike = /^[\w.-]+@[\w.-]+:(?!\/\/)/.test(url);
  if (scpLike) return { url, branch, depth, ssh: true, git: url.replace(/^[^@]+@/, '').replace(':', '/') };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) url = `https://${url}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GitCheckoutError(`checkout.url ${JSON.stringify(spec.url)} is not a URL or a path`);
  }
  const ref = parsed.searchParams.get('ref');
  if (ref) branch = ref;
  const depthParam = parsed.searchParams.get('depth');
  if (depthParam !== null) {
    if (!/^\d+$/.test(depthParam)) throw new GitCheckoutError(`checkout.url: depth=${depthParam} is not a whole number`);
    depth = Number(depthParam);
  }
  parsed.search = '';
  const git = `${parsed.host}${decodeURIComponent(parsed.pathname)}`.replace(/^\/+/, '');
  return { url: parsed.toString(), branch, depth, ssh: parsed.protocol === 'ssh:', git };
}

/** The host a git remote is reached at (`https://host/…`, `ssh://host/…`, `user@host:path`), or undefined for a local repository. */
export function gitRemoteHost(url: string): string | undefined {
  const text = url.trim();
  if (text === '' || text.startsWith('/') || /^file:/i.test(text)) return undefined;
  const scp = /^[\w.-]+@(\[[^\]]*\]|[\w.-]+):(?!\/\/)/.exec(text);
  if (scp) return scp[1]?.replace(/^\[|\]$/g, '');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  return URL.canParse(withScheme) ? new URL(withScheme).hostname.replace(/^\[|\]$/g, '') || undefined : undefined;
}

/**
 * The egress policy for git (a child process, which resolves the name itself): the remote's host and the
 * addresses it resolves to are judged before git connects (server/platform/egress-connect.ts).
 */
export async function assertGitEgress(url: string): Promise<void> {
  const host = gitRemoteHost(url);
  if (host) await assertEgressResolved(host);
}

function runGit(args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; signal: AbortSignal; user?: ScriptUser }): Promise<string> {
  const identity = options.user ? { uid: options.user.uid, gid: options.user.gid } : {};
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd: options.cwd, env: options.env, signal: options.signal, maxBuffer: MAX_GIT_OUTPUT, encoding: 'utf8', ...identity }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout.trim());
      const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('hint:') && !line.startsWith('warning:'));
      reject(new GitCheckoutError(options.signal.aborted ? 'stopped before the checkout finished' : lines.at(-1) ?? error.message));
    });
  });
}

/** Secrets go to git through its environment, never its arguments (which `ps` shows). */
async function credentials(spec: GitCheckoutSpec, target: Target, scratch: string): Promise<{ env: NodeJS.ProcessEnv; config: string[] }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: process.env.LANG ?? 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const config: string[] = ['-c', 'advice.detachedHead=false'];
  if (target.ssh && spec.certificate) {
    const key = path.join(scratch, 'key');
    await fs.writeFile(key, spec.certificate.endsWith('\n') ? spec.certificate : `${spec.certificate}\n`, { mode: 0o600 });
    const askpass = path.join(scratch, 'askpass');
    await fs.writeFile(askpass, '#!/bin/sh\nprintf "%s\\n" "$WATCHKEEPER_GIT_PASSWORD"\n', { mode: 0o700 });
    env.WATCHKEEPER_GIT_PASSWORD = spec.password ?? '';
    env.SSH_ASKPASS = askpass;
    env.SSH_ASKPASS_REQUIRE = 'force';
    env.DISPLAY = env.DISPLAY ?? ':0';
    // duty accepts any host key (InsecureIgnoreHostKey); so does this.
    env.GIT_SSH_COMMAND = `ssh -i '${key}' -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`;
  } else if (!target.ssh && (spec.username || spec.password)) {
    env.WATCHKEEPER_GIT_USERNAME = spec.username ?? '';
    env.WATCHKEEPER_GIT_PASSWORD = spec.password ?? '';
    // An empty helper first drops any helper of the server's own git configuration.
    config.push('-c', 'credential.helper=', '-c', 'credential.helper=!f() { test "$1" = get || exit 0; echo "username=$WATCHKEEPER_GIT_USERNAME"; echo "password=$WATCHKEEPER_GIT_PASSWORD"; }; f');
  }
  return { env, config };
}

async function isGitCheckout(dir: string): Promise<boolean> {
  return (await fs.stat(path.join(dir, '.git')).catch(() => undefined)) !== undefined;
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : undefined));
  return entries !== undefined && entries.length === 0;
}

/**
 * Clones the repository (depth 1 unless told, the branch given or `?ref=`; without one `main`, as duty,
 * then the remote's default branch when it has no `main`) into a temporary directory or the destination.
 * A destination that is a checkout already is fetched and reset to the branch instead.
 *
 * When scripts run as an unprivileged user (the console is root, WATCHKEEPER_EXEC_USER), the checkout is
 * theirs (unless `forScript: false`: gitops, where only the console's git works in it): a fresh clone is handed over to that user once git is done. A destination kept between runs
 * holds what an earlier script left, its `.git` included, so the console's git never runs in it: the
 * console fetches into a fresh relay repository of its own, hands that over, and the update of the
 * destination from the relay runs as the script's user.
 */
export async function gitCheckout(spec: GitCheckoutSpec, options: { signal: AbortSignal; forScript?: boolean }): Promise<GitCheckout> {
  const target = gitTarget(spec);
  let user: ScriptUser | undefined;
  // A checkout only the console's own git works in (gitops) stays the console's: git refuses a repository another user owns.
  if (options.forScript !== false) {
    try {
      user = scriptUser();
    } catch (error) {
      throw new GitCheckoutError(error instanceof Error ? error.message : String(error));
    }
  }
  const temporary = spec.destination === undefined || spec.destination.trim() === '';
  // In an organization's scope (hosted mode) both stay inside the organization's own work folder (work-dir.ts).
  let destination: string | undefined;
  let workRoot: string | undefined;
  try {
    destination = temporary ? undefined : await checkoutDestination(spec.destination ?? '');
    workRoot = temporary ? await scriptWorkRoot() : undefined;
  } catch (error) {
    throw new GitCheckoutError(error instanceof Error ? error.message : String(error));
  }
  const scratch = workRoot !== undefined ? await fs.mkdtemp(path.join(workRoot, 'wk-checkout-')) : undefined;
  const dir = scratch ? path.join(scratch, 'checkout') : (destination ?? '');
  // Keys and passwords live only while git runs, outside the checkout the script can read.
  const secrets = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-git-auth-'));
  const removeScratch = () => (scratch ? fs.rm(scratch, { recursive: true, force: true }) : Promise.resolve());
  try {
    await assertGitEgress(target.url);
    const { env, config } = await credentials(spec, target, secrets);
    const git = (args: string[], cwd?: string) => runGit([...config, ...args], { env, signal: options.signal, ...(cwd ? { cwd } : {}) });
    const depth = target.depth > 0 ? ['--depth', String(target.depth)] : [];
    const clone = (branch: string | undefined) =>
      git(['clone', '--quiet', '--no-local', '--single-branch', '--no-tags', ...depth, ...(branch ? ['--branch', branch] : []), '--', target.url, dir]);
    const fresh = async (): Promise<string | undefined> => {
      if (target.branch) {
        await clone(target.branch);
        return target.branch;
      }
      try {
        await clone('main');
        return 'main';
      } catch (error) {
        if (!(error instanceof GitCheckoutError) || !/remote branch main not found/i.test(error.message)) throw error;
        await fs.rm(dir, { recursive: true, force: true });
        await clone(undefined);
        return (await git(['rev-parse', '--abbrev-ref', 'HEAD'], dir)) || undefined;
      }
    };
    const work = async (): Promise<{ branch: string | undefined; commit: string }> => {
      if (!temporary && (await isGitCheckout(dir))) {
        if (user) return { branch: target.branch, commit: await updateAs(user, dir, target, depth, git, options.signal) };
        await git(['remote', 'set-url', 'origin', target.url], dir);
        await git(['fetch', '--quiet', '--force', '--no-tags', ...depth, 'origin', target.branch ?? 'HEAD'], dir);
        await git(['checkout', '--quiet', '--force', '--detach', 'FETCH_HEAD'], dir);
        return { branch: target.branch, commit: await git(['rev-parse', 'HEAD'], dir) };
      }
      if (!temporary && !(await isEmptyOrMissing(dir))) throw new GitCheckoutError(`checkout.destination ${dir} is not empty and not a git checkout`);
      const branch = await fresh();
      const commit = await git(['rev-parse', 'HEAD'], dir);
      // The clone is the console's own until now: the script's user gets all of it (the scratch folder too).
      if (user) await handOver(scratch ?? dir, user);
      return { branch, commit };
    };
    const { branch, commit } = temporary ? await work() : await withLock(dir, work);
    return { dir, commit, git: target.git, branch, cleanup: removeScratch };
  } catch (error) {
    await removeScratch();
    const message = error instanceof Error ? error.message : String(error);
    throw new GitCheckoutError(redact(message, spec));
  } finally {
    await fs.rm(secrets, { recursive: true, force: true });
  }
}

/**
 * Brings a destination the script's user owns up to date without the console's git running in it (its
 * `.git/config` and hooks are the script's to change): the console fetches into a relay repository of its
 * own, gives it to the user, and the user's git fetches from the relay and checks out. Answers the commit.
 */
async function updateAs(
  user: ScriptUser,
  dir: string,
  target: Target,
  depth: string[],
  git: (args: string[], cwd?: string) => Promise<string>,
  signal: AbortSignal,
): Promise<string> {
  // A checkout the console made before scripts ran as this user is the console's own: hand it over first.
  if ((await fs.lstat(dir)).uid === (process.getuid?.() ?? 0)) await handOver(dir, user);
  const relay = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-git-relay-'));
  try {
    await git(['init', '--quiet', '--bare', relay]);
    await git(['fetch', '--quiet', '--force', '--no-tags', ...depth, target.url, target.branch ?? 'HEAD'], relay);
    await git(['update-ref', 'refs/heads/relay', 'FETCH_HEAD'], relay);
    await handOver(relay, user);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: relay, LANG: process.env.LANG ?? 'C.UTF-8', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
    const asUser = (args: string[]) => runGit(['-c', 'advice.detachedHead=false', ...args], { env, signal, cwd: dir, user });
    await asUser(['remote', 'set-url', 'origin', target.url]);
    await asUser(['fetch', '--quiet', '--force', '--no-tags', ...depth, `file://${relay}`, 'refs/heads/relay']);
    await asUser(['checkout', '--quiet', '--force', '--detach', 'FETCH_HEAD']);
    return await asUser(['rev-parse', 'HEAD']);
  } finally {
    await fs.rm(relay, { recursive: true, force: true });
  }
}

/** Messages never carry a password, whether git printed it or not. */
function redact(message: string, spec: GitCheckoutSpec): string {
  let shown = message.replace(/(\/\/[^/:@\s]*):[^@/\s]*@/g, '$1:***@');
  if (spec.password) shown = shown.replaceAll(spec.password, '***');
  return shown;
}
