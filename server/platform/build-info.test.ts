import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatVersion } from '../../common/version';
import { gitCommit } from './build-info';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-build-info-'));
  dirs.push(dir);
  return dir;
}

function run(dir: string, args: string[]): string {
  const result = spawnSync('git', ['-C', dir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

describe('gitCommit (issue 38: the user menu shows the commit of what runs)', () => {
  it('reads the commit of a checkout, and whether tracked files differ from it', () => {
    const dir = tempDir();
    run(dir, ['init', '-q']);
    fs.writeFileSync(path.join(dir, 'package.json'), '{"version":"1.2.3"}\n');
    run(dir, ['add', 'package.json']);
    run(dir, ['commit', '-q', '-m', 'first']);
    const head = run(dir, ['rev-parse', 'HEAD']);
    expect(gitCommit(dir)).toEqual({ commit: head, dirty: false });

    // An untracked file is not a change of the commit's files; a tracked one is.
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    expect(gitCommit(dir)).toEqual({ commit: head, dirty: false });
    fs.writeFileSync(path.join(dir, 'package.json'), '{"version":"1.2.4"}\n');
    expect(gitCommit(dir)).toEqual({ commit: head, dirty: true });
    expect(formatVersion('1.2.3', gitCommit(dir))).toBe(`1.2.3 (${head.slice(0, 7)}-dirty)`);
  });

  it('answers nothing outside a checkout, even inside another project\'s repository', () => {
    const outer = tempDir();
    run(outer, ['init', '-q']);
    fs.writeFileSync(path.join(outer, 'a.txt'), 'a');
    run(outer, ['add', 'a.txt']);
    run(outer, ['commit', '-q', '-m', 'outer']);
    const installed = path.join(outer, 'node_modules', 'watchkeeper');
    fs.mkdirSync(installed, { recursive: true });
    expect(gitCommit(installed)).toBeUndefined();
    expect(gitCommit(tempDir())).toBeUndefined();
  });

  it('answers nothing for a checkout without commits', () => {
    const dir = tempDir();
    run(dir, ['init', '-q']);
    expect(gitCommit(dir)).toBeUndefined();
  });
});

describe('formatVersion', () => {
  it('writes the package version with the short commit, -dirty when tracked files differed', () => {
    const commit = '6b47328609a855e4261faf317734d2add8468ff6';
    expect(formatVersion('0.1.0', { commit, dirty: false })).toBe('0.1.0 (6b47328)');
    expect(formatVersion('0.1.0', { commit, dirty: true })).toBe('0.1.0 (6b47328-dirty)');
    expect(formatVersion('0.1.0')).toBe('0.1.0');
  });
});
