import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The commit a checkout is at, and whether its tracked files differ from it. */
export interface GitCommit {
  commit: string;
  dirty: boolean;
}

function git(root: string, args: string[]): { status: number | null; stdout: string } {
  // --no-optional-locks: reading must never take the index lock another git command in this tree may need.
  const result = spawnSync('git', ['--no-optional-locks', '-C', root, ...args], { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] });
  return { status: result.error ? null : result.status, stdout: typeof result.stdout === 'string' ? result.stdout : '' };
}

/**
 * The git commit of the checkout at `root` (the package root), or undefined when `root` is not one (an
 * installed package, where a parent folder's repository would be another project's) or git is missing.
 * Used by the server at start and by the web build (web/vite.config.ts), so each reports what it runs.
 */
export function gitCommit(root: string): GitCommit | undefined {
  if (!existsSync(path.join(root, '.git'))) return undefined;
  const head = git(root, ['rev-parse', '--verify', 'HEAD']);
  const commit = head.stdout.trim();
  if (head.status !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
  // Exit 1: tracked files differ from the commit (untracked files do not count, as in `git describe --dirty`).
  const diff = git(root, ['diff', '--quiet', 'HEAD', '--']);
  return { commit, dirty: diff.status === 1 };
}
