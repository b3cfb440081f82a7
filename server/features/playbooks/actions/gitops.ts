import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import YAML, { isDocument } from 'yaml';
import type { ResolvedConnection } from '../../../platform/connections/types';
import { isRecord, messageOf } from '../../../platform/errors';
import { withoutSecrets } from '../../../platform/peers/credentials';
import { gitCheckout, GitCheckoutError, gitTarget, type GitCheckout } from '../../../platform/peers/git-checkout';
import { azureDevopsBase } from './azure-devops';
import { githubApiBase } from './github';
import { gitopsActionSchema, type GitopsActionSpec } from './schemas';
import { actionConnection, blockOf, callApi, envValueOf, notRun, refused, stopReason, textAt } from './shared';
import type { ActionContext, ActionOutcome } from './types';

/** Output kept from a failing git command, for its message. */
const MAX_GIT_OUTPUT = 1024 * 1024;
/** A file's content that removes it (Mission Control's directive). */
const DELETE = '$delete';

class GitopsError extends Error {}

interface Credentials {
  username: string;
  password: string;
  certificate: string;
}

/** Where a pull request is opened: GitHub's {owner, repo} or Azure DevOps' {org, project, repo}, its API base and token. */
type PullTarget =
  | { host: 'github'; base: string; owner: string; repo: string; token: string }
  | { host: 'azure_devops'; base: string; org: string; project: string; repo: string; token: string };

/** The repository's path segments (`github.com/acme/app.git` → acme, app), from any URL form git takes. */
function segmentsOf(url: string): string[] {
  const git = URL.canParse(url) && url.startsWith('file:') ? new URL(url).pathname : gitTarget({ url }).git;
  return git.split('/').filter(Boolean).map((segment) => segment.replace(/\.git$/, ''));
}

function hostOf(spec: GitopsActionSpec, connection: ResolvedConnection | undefined): 'github' | 'azure_devops' | undefined {
  const named = (spec.repo.type ?? '').toLowerCase().replace(/[-_\s]/g, '');
  if (named === 'github') return 'github';
  if (named === 'azuredevops' || named === 'azure') return 'azure_devops';
  if (connection?.type === 'github' || connection?.type === 'azure_devops') return connection.type;
  const host = segmentsOf(spec.repo.url)[0]?.toLowerCase() ?? '';
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host === 'dev.azure.com' || host === 'ssh.dev.azure.com' || host.endsWith('.visualstudio.com')) return 'azure_devops';
  return undefined;
}

/**
 * Where the pull request goes, decided before anything is pushed. The API base: the connection's url (a
 * github or azure_devops connection), else WATCHKEEPER_GITHUB_API_URL / WATCHKEEPER_AZURE_DEVOPS_URL,
 * else api.github.com (or GitHub Enterprise's https://host/api/v3) and dev.azure.com.
 */
function pullTarget(spec: GitopsActionSpec, connection: ResolvedConnection | undefined, credentials: Credentials): PullTarget | string {
  const host = hostOf(spec, connection);
  const segments = segmentsOf(spec.repo.url);
  const connectionUrl = connection?.type === host ? connection?.url : undefined;
  if (host === 'github') {
    const [owner, repo] = segments.slice(-2);
    if (!owner || !repo || segments.length < 2) return `gitops.repo.url: ${spec.repo.url} does not name a GitHub owner and repository`;
    const site = segments[0]?.toLowerCase() ?? '';
    const enterprise = site.includes('.') && site !== 'github.com' && connection?.type !== 'github' ? `https://${site}/api/v3` : undefined;
    return { host, base: githubApiBase(connectionUrl ?? enterprise), owner, repo, token: credentials.password };
  }
  if (host === 'azure_devops') {
    const at = segments.indexOf('_git');
    const site = segments[0]?.toLowerCase() ?? '';
    let org: string | undefined;
    let project: string | undefined;
    let repo: string | undefined;
    if (segments[1] === 'v3') [org, project, repo] = segments.slice(2, 5); // git@ssh.dev.azure.com:v3/org/project/repo
    else if (at > 0) {
      repo = segments[at + 1];
      project = segments[at - 1];
      org = site.endsWith('.visualstudio.com') && at === 2 ? site.split('.')[0] : segments[at - 2];
    }
    if (!org || !project || !repo) return `gitops.repo.url: ${spec.repo.url} does not name an Azure DevOps organization, project and repository ({org}/{project}/_git/{repo})`;
    return { host, base: azureDevopsBase(connectionUrl), org, project, repo, token: credentials.password };
  }
  return `gitops.pr: a pull request is opened on GitHub and Azure DevOps only: ${spec.repo.url} is neither (set repo.type, or use a github or azure_devops connection)`;
}

/** The push credentials: the repo's own, else the connection's (a token connection pushes with its token as the password). */
async function credentialsOf(ctx: ActionContext, spec: GitopsActionSpec, connection: ResolvedConnection | undefined): Promise<Credentials> {
  const username = (await envValueOf(ctx, spec.repo.username, 'gitops.repo.username')) || connection?.username || '';
  const password = (await envValueOf(ctx, spec.repo.password, 'gitops.repo.password')) || connection?.password || '';
  // GitHub takes any user name with a token; Azure DevOps any non-empty one.
  const fallback = connection?.type === 'github' ? 'x-access-token' : password ? 'git' : '';
  return { username: username || fallback, password, certificate: connection?.certificate ?? '' };
}

/** Runs git in the checkout with the credentials in its environment (never its arguments), as git-checkout does. */
async function gitRunner(ctx: ActionContext, url: string, credentials: Credentials, scratch: string) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' };
  const config: string[] = [];
  if (gitTarget({ url }).ssh && credentials.certificate) {
    const key = path.join(scratch, 'key');
    await fs.writeFile(key, credentials.certificate.endsWith('\n') ? credentials.certificate : `${credentials.certificate}\n`, { mode: 0o600 });
    env.GIT_SSH_COMMAND = `ssh -i '${key}' -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`;
  } else if (credentials.username || credentials.password) {
    env.WATCHKEEPER_GIT_USERNAME = credentials.username;
    env.WATCHKEEPER_GIT_PASSWORD = credentials.password;
    config.push('-c', 'credential.helper=', '-c', 'credential.helper=!f() { test "$1" = get || exit 0; echo "username=$WATCHKEEPER_GIT_USERNAME"; echo "password=$WATCHKEEPER_GIT_PASSWORD"; }; f');
  }
  const secrets = [credentials.password, credentials.certificate];
  return (cwd: string, args: string[], extra: NodeJS.ProcessEnv = {}): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile('git', [...config, ...args], { cwd, env: { ...env, ...extra }, signal: ctx.signal, maxBuffer: MAX_GIT_OUTPUT, encoding: 'utf8' }, (error, stdout, stderr) => {
        if (!error) return resolve(stdout.trim());
        if (ctx.signal.aborted) return reject(new GitopsError(stopReason(ctx.signal)));
        const lines = stderr.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('hint:') && !line.startsWith('warning:'));
        const said = (lines.at(-1) ?? error.message).replace(/(\/\/[^/:@\s]*):[^@/\s]*@/g, '$1:***@');
        reject(new GitopsError(`git ${args[0]}: ${withoutSecrets(said, secrets)}`));
      });
    });
}

/** A path of the action inside the checkout; one that leaves it, or reaches into .git, is refused. */
function inside(dir: string, file: string, where: string): string {
  const full = path.resolve(dir, file.replace(/^\/+/, ''));
  const relative = path.relative(dir, full);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative) || relative.split(path.sep)[0] === '.git') {
    throw new GitopsError(`${where}: ${JSON.stringify(file)} is not a file inside the repository`);
  }
  return full;
}

type PathKey = string | number;
interface Assignment {
  keys: PathKey[];
  value: unknown;
}

/** Splits `a | b` at the pipes outside quotes (`|=` stays, and is refused as an assignment). */
function splitPipes(expression: string): string[] {
  const parts: string[] = [];
  let quote = '';
  let current = '';
  for (let index = 0; index < expression.length; index += 1) {
    const char = expression[index] ?? '';
    if (quote) {
      if (char === '\\') current += char + (expression[(index += 1)] ?? '');
      else {
        if (char === quote) quote = '';
        current += char;
      }
    } else if (char === '"' || char === "'") {
      quote = char;
      current += char;
    } else if ((char === '|' && expression[index + 1] !== '=') || char === '\n') {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

const PATH_SEGMENT = /^(?:\.([A-Za-z_][\w-]*)|\.?"((?:[^"\\]|\\.)*)"|\.?\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\.?\[\s*(\d+)\s*\])/;

/**
 * The yq this console applies: assignments `.path.to.key = value` (keys as `.name`, `."a.b"`, `["a.b"]`,
 * `[0]`; values as YAML/JSON literals), several joined by `|` or new lines. Anything else (select(), |=,
 * a value read from another path) is refused naming it.
 */
function parseYq(expression: string, where: string): Assignment[] {
  const unsupported = (part: string) => new GitopsError(`${where}: ${JSON.stringify(part)} is not supported: only assignments such as .spec.replicas = 3 or .metadata.labels.app = "web" are applied here`);
  return splitPipes(expression).map((part) => {
    let rest = part;
    const keys: PathKey[] = [];
    for (let match = PATH_SEGMENT.exec(rest); match; match = PATH_SEGMENT.exec(rest)) {
      const quoted = match[2] ?? match[3];
      keys.push(match[1] ?? (quoted !== undefined ? (JSON.parse(`"${quoted}"`) as string) : Number(match[4])));
      rest = rest.slice(match[0].length);
    }
    const assignment = /^\s*=(?!=)\s*([\s\S]+)$/.exec(rest);
    if (keys.length === 0 || !assignment) throw unsupported(part);
    const literal = (assignment[1] ?? '').trim();
    if (/^\./.test(literal) || /^[a-z_]+\s*\(/i.test(literal)) throw unsupported(part);
    let value: unknown;
    try {
      value = YAML.parse(literal);
    } catch {
      throw unsupported(part);
    }
    return { keys, value };
  });
}

/** Sets a path in plain JSON, making the objects on the way. */
function setJson(root: unknown, keys: PathKey[], value: unknown, where: string): unknown {
  if (keys.length === 0) return value;
  const [key, ...rest] = keys as [PathKey, ...PathKey[]];
  const container: unknown = root ?? (typeof key === 'number' ? [] : {});
  if (typeof key === 'number' ? !Array.isArray(container) : !isRecord(container)) throw new GitopsError(`${where}: cannot set ${String(key)} inside a ${typeof container} value`);
  const record = container as Record<PathKey, unknown>;
  record[key] = setJson(record[key], rest, value, where);
  return container;
}

/** Applies a patch's assignments to a YAML (every document, comments kept) or JSON file. */
async function applyPatch(file: string, yq: string, where: string): Promise<void> {
  const assignments = parseYq(yq, `${where}.yq`);
  const before = await fs.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new GitopsError(`${where}.path: ${error.code === 'ENOENT' ? 'no such file in the repository' : error.message}`);
  });
  if (/\.json$/i.test(file)) {
    let json: unknown;
    try {
      json = JSON.parse(before);
    } catch (error) {
      throw new GitopsError(`${where}.path: is not JSON: ${messageOf(error)}`);
    }
    for (const { keys, value } of assignments) json = setJson(json, keys, value, where);
    await fs.writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  const documents = YAML.parseAllDocuments(before);
  // An empty file is one empty document, so an assignment still lands.
  const list = documents.length > 0 ? documents : [YAML.parseDocument(before)];
  const out: string[] = [];
  for (const document of list) {
    if (!isDocument(document) || document.errors.length > 0) throw new GitopsError(`${where}.path: is not YAML: ${document.errors[0]?.message ?? 'unreadable'}`);
    for (const { keys, value } of assignments) {
      try {
        document.setIn(keys, document.createNode(value));
      } catch (error) {
        throw new GitopsError(`${where}: cannot set ${keys.join('.')}: ${messageOf(error)}`);
      }
    }
    out.push(document.toString());
  }
  await fs.writeFile(file, out.map((text, index) => (index > 0 && !text.startsWith('---') ? `---\n${text}` : text)).join(''));
}

/** Writes `files` and applies `patches` in the checkout; returns the paths touched. */
async function change(dir: string, spec: GitopsActionSpec): Promise<string[]> {
  const touched: string[] = [];
  for (const [index, patch] of (spec.patches ?? []).entries()) {
    const where = `gitops.patches[${index}]`;
    if (patch.jq !== undefined && patch.jq.trim() !== '') throw new GitopsError(`${where}.jq: jq patches are not supported yet (write the change as a yq assignment)`);
    if (!patch.yq?.trim()) throw new GitopsError(`${where}: give yq (an assignment such as .spec.replicas = 3)`);
    await applyPatch(inside(dir, patch.path, `${where}.path`), patch.yq, where);
    touched.push(patch.path);
  }
  for (const [index, item] of (spec.files ?? []).entries()) {
    const file = inside(dir, item.path, `gitops.files[${index}].path`);
    if (item.content.trim() === DELETE) await fs.rm(file, { recursive: true, force: true });
    else {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, item.content);
    }
    touched.push(item.path);
  }
  return touched;
}

/** Opens the pull request: {number, url}, or why not. */
async function openPullRequest(ctx: ActionContext, target: PullTarget, pr: NonNullable<GitopsActionSpec['pr']>, branch: string, base: string, description: string): Promise<{ number: number; url: string; labels?: string } | string> {
  const secrets = [target.token, Buffer.from(`:${target.token}`).toString('base64')];
  if (target.host === 'github') {
    const repo = `${target.base}/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
    const auth = { headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }, ...(target.token ? { bearerToken: target.token } : {}), secrets };
    const answer = await callApi(ctx, { method: 'POST', url: `${repo}/pulls`, json: { title: pr.title, head: branch, base, body: description }, ...auth });
    if ('error' in answer) return answer.error;
    const number = isRecord(answer.json) ? answer.json.number : undefined;
    if (answer.status >= 300 || typeof number !== 'number') return `GitHub refused the pull request for ${target.owner}/${target.repo}: ${refused(answer, secrets)}`;
    const url = textAt(answer.json, 'html_url') ?? '';
    if (!pr.tags?.length) return { number, url };
    const labelled = await callApi(ctx, { method: 'POST', url: `${repo}/issues/${number}/labels`, json: { labels: pr.tags }, ...auth });
    const labels = 'error' in labelled ? labelled.error : labelled.status >= 300 ? refused(labelled, secrets) : undefined;
    return { number, url, ...(labels ? { labels: `not labelled: ${labels}` } : {}) };
  }
  const project = `${target.base}/${encodeURIComponent(target.org)}/${encodeURIComponent(target.project)}`;
  const answer = await callApi(ctx, {
    method: 'POST',
    url: `${project}/_apis/git/repositories/${encodeURIComponent(target.repo)}/pullrequests?api-version=7.0`,
    json: { sourceRefName: `refs/heads/${branch}`, targetRefName: `refs/heads/${base}`, title: pr.title, description, ...(pr.tags?.length ? { labels: pr.tags.map((name) => ({ name })) } : {}) },
    basicAuth: { username: '', password: target.token },
    secrets,
  });
  if ('error' in answer) return answer.error;
  const number = isRecord(answer.json) ? answer.json.pullRequestId : undefined;
  if (answer.status >= 300 || typeof number !== 'number') return `Azure DevOps refused the pull request for ${target.org}/${target.project}/${target.repo}: ${refused(answer, secrets)}`;
  const web = textAt(answer.json, 'repository', 'webUrl') ?? `${project}/_git/${encodeURIComponent(target.repo)}`;
  return { number, url: `${web}/pullrequest/${number}` };
}

/**
 * `gitops` (Mission Control's GitOpsAction): clones `repo.url` at `repo.base` (main, else the remote's
 * default branch) with the credentials of the repo or its `connection`, checks out `repo.branch` (the
 * remote's when it exists, unless `force`), applies `patches` (yq assignments) then `files` (`$delete`
 * removes one), commits as `commit.author <commit.email>` and pushes; with `pr`, opens a pull request
 * on GitHub or Azure DevOps. Result: {branch, base, commit, changed, files, pr: {number, url}}.
 */
export async function gitops(ctx: ActionContext): Promise<ActionOutcome> {
  const read = blockOf(ctx, 'gitops', gitopsActionSchema);
  if ('error' in read) return { result: {}, error: read.error };
  const spec = read.block;
  let connection: ResolvedConnection | undefined;
  let credentials: Credentials;
  try {
    connection = spec.repo.connection ? await actionConnection(ctx, spec.repo.connection, 'gitops.repo.connection') : undefined;
    credentials = await credentialsOf(ctx, spec, connection);
  } catch (error) {
    return notRun(error);
  }
  const target = spec.pr ? pullTarget(spec, connection, credentials) : undefined;
  if (typeof target === 'string') return { result: {}, error: target };
  let checkout: GitCheckout | undefined;
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-gitops-auth-'));
  try {
    checkout = await gitCheckout({ url: spec.repo.url, username: credentials.username, password: credentials.password, certificate: credentials.certificate, branch: spec.repo.base, depth: 1 }, { signal: ctx.signal, forScript: false });
    const dir = checkout.dir;
    const base = checkout.branch ?? spec.repo.base ?? 'main';
    const branch = spec.repo.branch?.trim() || base;
    const git = await gitRunner(ctx, spec.repo.url, credentials, scratch);
    const exists = branch !== base && (await git(dir, ['ls-remote', '--heads', 'origin', `refs/heads/${branch}`])) !== '';
    if (exists && spec.repo.skipExisting) return { result: { branch, base, commit: checkout.commit, skipped: true } };
    if (exists && !spec.repo.force) {
      await git(dir, ['fetch', '--quiet', '--depth', '1', 'origin', `+refs/heads/${branch}:refs/remotes/origin/${branch}`]);
      await git(dir, ['checkout', '--quiet', '-B', branch, `origin/${branch}`]);
    } else await git(dir, ['checkout', '--quiet', '-B', branch]);
    const files = await change(dir, spec);
    await git(dir, ['add', '--all']);
    const changed = (await git(dir, ['status', '--porcelain'])) !== '';
    if (!changed) return { result: { branch, base, commit: await git(dir, ['rev-parse', 'HEAD']), changed: false, files } };
    const who = { GIT_AUTHOR_NAME: spec.commit.author, GIT_AUTHOR_EMAIL: spec.commit.email, GIT_COMMITTER_NAME: spec.commit.author, GIT_COMMITTER_EMAIL: spec.commit.email };
    await git(dir, ['commit', '--quiet', '--no-verify', '-m', spec.commit.message], who);
    const commit = await git(dir, ['rev-parse', 'HEAD']);
    await git(dir, ['push', '--quiet', ...(spec.repo.force ? ['--force'] : []), 'origin', `HEAD:refs/heads/${branch}`]);
    const result: Record<string, unknown> = { branch, base, commit, changed: true, files };
    if (!target || !spec.pr) return { result };
    if (branch === base) return { result, error: `gitops.pr: the change was pushed to ${base} itself: give repo.branch for a pull request` };
    const pr = await openPullRequest(ctx, target, spec.pr, branch, base, spec.commit.message);
    if (typeof pr === 'string') return { result, error: `pushed ${branch}, but the pull request was not opened: ${pr}` };
    return { result: { ...result, pr } };
  } catch (error) {
    if (ctx.signal.aborted) return { result: {}, error: stopReason(ctx.signal) };
    if (error instanceof GitCheckoutError) return { result: {}, error: `clone failed: ${error.message}` };
    if (error instanceof GitopsError) return { result: {}, error: error.message };
    return { result: {}, error: withoutSecrets(messageOf(error), [credentials.password]) };
  } finally {
    await checkout?.cleanup();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
