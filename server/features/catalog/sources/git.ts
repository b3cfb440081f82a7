import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { messageOf } from '../../../platform/errors';
import { envVarField, redactConnection, withoutSecrets } from '../../../platform/peers/credentials';
import { assertGitEgress } from '../../../platform/peers/git-checkout';
import type { RawResult, SourceType } from '../types';
import { globRegex, MAX_FILES, parseDocuments } from './files';

const DEFAULT_PATHS = ['**/*.yaml', '**/*.yml', '**/*.json'];
/** A file bigger than this in a repository is not configuration: reported and skipped. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const gitEntry = z.object({
  /** A local repository (a folder or a bare repository) or a URL git can clone (https://, ssh://, file://). */
  url: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  /** A branch, tag or commit; the repository's HEAD by default. */
  ref: z.string().trim().min(1).optional(),
  /** Globs over the repository's paths; YAML and JSON files by default. */
  paths: z.array(z.string().min(1)).optional(),
  ignore: z.array(z.string()).optional(),
  format: z.enum(['json', 'yaml', 'properties']).optional(),
  username: envVarField.optional(),
  password: envVarField.optional(),
  /** Seconds for a clone or fetch; 120 by default. */
  timeout: z.number().int().positive('must be a number of seconds').optional(),
});

type GitEntry = z.infer<typeof gitEntry>;

function git(args: string[], options: { cwd?: string; signal: AbortSignal; secrets: ReadonlyArray<string | undefined> }): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd: options.cwd, signal: options.signal, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_TERMINAL_PROMPT: '0', LANG: 'C' } },
      (error, stdout, stderr) => {
        if (error) {
          const reason = stderr.trim().split('\n').filter(Boolean).slice(-1)[0] ?? messageOf(error);
          reject(new Error(withoutSecrets(reason.replace(/^fatal: /, ''), options.secrets)));
        } else resolve(stdout);
      },
    );
  });
}

/** Is the url a folder on this machine (not something to clone)? */
function isLocal(url: string): boolean {
  return /^(\.{1,2}(\/|$)|\/|~\/)/.test(url);
}

/** The clone URL with the credentials in its user info (https only). */
function cloneUrl(entry: GitEntry): string {
  if (!entry.username && !entry.password) return entry.url;
  try {
    const url = new URL(entry.url);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return entry.url;
    url.username = encodeURIComponent(entry.username ?? 'git');
    url.password = encodeURIComponent(entry.password ?? '');
    return url.toString();
  } catch {
    return entry.url;
  }
}

/**
 * The repository to read: a local one as it is; a remote one as a bare mirror in the temporary folder,
 * cloned on the first run and fetched on the next ones.
 */
async function repository(entry: GitEntry, signal: AbortSignal, secrets: ReadonlyArray<string | undefined>): Promise<string> {
  if (isLocal(entry.url)) {
    const folder = entry.url.startsWith('~/') ? path.join(os.homedir(), entry.url.slice(2)) : path.resolve(entry.url);
    await fs.access(folder).catch(() => {
      throw new Error(`${entry.url}: no such folder`);
    });
    return folder;
  }
  // The egress policy judges the remote's host before git connects; `--` keeps a url from being read as an option.
  await assertGitEgress(entry.url);
  const cache = path.join(os.tmpdir(), 'watchkeeper-git', createHash('sha256').update(entry.url).digest('hex').slice(0, 24));
  const limit = AbortSignal.any([signal, AbortSignal.timeout((entry.timeout ?? 120) * 1000)]);
  const exists = await fs.access(path.join(cache, 'HEAD')).then(() => true, () => false);
  if (!exists) {
    await fs.mkdir(path.dirname(cache), { recursive: true });
    const partial = `${cache}.${process.pid}.${Date.now()}`;
    try {
      await git(['clone', '--bare', '--quiet', '--', cloneUrl(entry), partial], { signal: limit, secrets });
      await fs.rename(partial, cache).catch(async () => fs.rm(partial, { recursive: true, force: true }));
    } catch (error) {
      await fs.rm(partial, { recursive: true, force: true });
      throw error;
    }
  } else {
    await git(['fetch', '--quiet', '--prune', '--force', '--', cloneUrl(entry), '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { cwd: cache, signal: limit, secrets });
  }
  return cache;
}

/** Reads many blobs in one `git cat-file --batch`: the text of each `<commit>:<path>`, in order. */
function readBlobs(repo: string, commit: string, files: readonly string[], signal: AbortSignal): Promise<Array<Buffer | undefined>> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['cat-file', '--batch'], { cwd: repo, signal, stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C' } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`git cat-file exited with code ${code ?? 'none'}`));
      const all = Buffer.concat(chunks);
      const blobs: Array<Buffer | undefined> = [];
      let at = 0;
      for (let index = 0; index < files.length; index += 1) {
        const end = all.indexOf(0x0a, at);
        if (end < 0) break;
        const header = all.subarray(at, end).toString('utf8');
        at = end + 1;
        const match = /^\S+ (\S+) (\d+)$/.exec(header);
        if (!match) {
          blobs.push(undefined);
          continue;
        }
        const size = Number(match[2]);
        blobs.push(match[1] === 'blob' ? all.subarray(at, at + size) : undefined);
        at += size + 1;
      }
      resolve(blobs);
    });
    child.stdin.end(files.map((file) => `${commit}:${file}\n`).join(''));
  });
}

/**
 * `git`: configuration files from a repository at a ref (branch, tag or commit): the same parsing as the
 * file scraper (multi-document YAML, JSON, Kubernetes manifests), read from git objects without a checkout.
 */
export const gitSource: SourceType<GitEntry> = {
  key: 'git',
  label: 'Git',
  schema: gitEntry,
  async scrape(entry, ctx) {
    const secrets = [entry.password, entry.password ? encodeURIComponent(entry.password) : undefined];
    const repo = await repository(entry, ctx.signal, secrets);
    const ref = entry.ref ?? 'HEAD';
    let commit: string;
    try {
      commit = (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: repo, signal: ctx.signal, secrets })).trim();
    } catch {
      throw new Error(`${redactConnection(entry.url)}: no branch, tag or commit named ${ref}`);
    }
    const listing = await git(['ls-tree', '-r', '-z', '--long', commit], { cwd: repo, signal: ctx.signal, secrets });
    const include = (entry.paths ?? DEFAULT_PATHS).map((glob) => globRegex(glob.replace(/^\.?\//, '')));
    const exclude = (entry.ignore ?? []).map((glob) => globRegex(glob.replace(/^\.?\//, '')));
    const files: string[] = [];
    for (const line of listing.split('\0')) {
      // <mode> SP <type> SP <object> SP+ <size> TAB <path>
      const match = /^\d+ (\w+) \S+\s+(-|\d+)\t(.*)$/s.exec(line);
      if (!match || match[1] !== 'blob') continue;
      const file = match[3] ?? '';
      if (!include.some((pattern) => pattern.test(file)) || exclude.some((pattern) => pattern.test(file))) continue;
      if (Number(match[2]) > MAX_FILE_BYTES) {
        ctx.error(`${file}: bigger than 5 MB, skipped`);
        continue;
      }
      files.push(file);
    }
    if (files.length > MAX_FILES) throw new Error(`the paths match ${files.length} files, more than ${MAX_FILES}; narrow them`);
    if (files.length === 0) ctx.error(`no file at ${ref} matches ${(entry.paths ?? DEFAULT_PATHS).join(', ')}`);
    const blobs = await readBlobs(repo, commit, files, ctx.signal);
    const shownUrl = redactConnection(entry.url);
    const results: RawResult[] = [];
    files.forEach((file, index) => {
      const blob = blobs[index];
      if (!blob) return ctx.error(`${file}: could not be read at ${commit.slice(0, 12)}`);
      try {
        for (const config of parseDocuments(file, blob.toString('utf8'), entry.format)) results.push({ config, source: `${shownUrl}@${ref}:${file}` });
      } catch (error) {
        ctx.error(`${file}: ${messageOf(error)}`);
      }
    });
    return results;
  },
};
