import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { close, listen } from '../testing/check-harness';

const run = promisify(execFile);

/** Runs git in a directory with a fixed author, so commits need no global configuration. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 'test@example.com', GIT_CONFIG_NOSYSTEM: '1' };
  const { stdout } = await run('git', args, { cwd, env });
  return stdout.trim();
}

/** A repository in a temporary folder: `files` committed on `branch`, one commit per call of `commit`. */
export async function makeRepository(branch = 'main'): Promise<{ dir: string; commit(files: Record<string, string>, message?: string): Promise<string>; remove(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-repo-'));
  await git(dir, 'init', '--quiet', '--initial-branch', branch);
  return {
    dir,
    async commit(files, message = 'change') {
      for (const [name, content] of Object.entries(files)) {
        await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
        await fs.writeFile(path.join(dir, name), content);
      }
      await git(dir, 'add', '--all');
      await git(dir, 'commit', '--quiet', '-m', message);
      return git(dir, 'rev-parse', 'HEAD');
    },
    remove: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

export interface GitHttpServer {
  /** Base URL; a repository folder `x` under the root is `${url}/x`. */
  url: string;
  /** The Authorization headers received, in order. */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/**
 * Git's smart HTTP protocol over `git http-backend` (the CGI program git ships), behind Basic
 * authentication when credentials are given: the repositories under `root`, read-only.
 */
export async function startGitHttpServer(root: string, credentials?: { username: string; password: string }): Promise<GitHttpServer> {
  const authorizations: Array<string | undefined> = [];
  const expected = credentials ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` : undefined;
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    if (expected && req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('unauthorized');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const child = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: typeof req.headers['git-protocol'] === 'string' ? req.headers['git-protocol'] : '',
        REMOTE_USER: credentials?.username ?? '',
        REMOTE_ADDR: '127.0.0.1',
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let headersSent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersSent) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
        else if (name) res.setHeader(name, value);
      }
      res.statusCode = status;
      headersSent = true;
      res.write(head.subarray(end + 4));
    });
    child.on('close', () => res.end());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, authorizations, close: () => close(server) };
}
