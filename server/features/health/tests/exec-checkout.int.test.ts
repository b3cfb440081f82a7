import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitTarget } from '../../../platform/peers/git-checkout';
import { closeHarness, outcome } from '../testing/check-harness';
import { git, makeRepository, startGitHttpServer, type GitHttpServer } from './git-server';

/**
 * exec `checkout` (duty's GitConnection): the script runs in a clone of a repository made here with the
 * git CLI, reached by path, file:// URL or git's smart HTTP (with Basic credentials).
 */
type Repository = Awaited<ReturnType<typeof makeRepository>>;
let repo: Repository;
let master: Repository;
let head = '';
let served = '';
let server: GitHttpServer;
const cleanup: string[] = [];

beforeAll(async () => {
  repo = await makeRepository('main');
  await repo.commit({ 'VERSION': '1\n', 'scripts/check.sh': 'echo "checked $(cat VERSION)"\n' }, 'first');
  head = await repo.commit({ 'VERSION': '2\n' }, 'second');
  await git(repo.dir, 'checkout', '--quiet', '-b', 'release');
  await repo.commit({ 'VERSION': 'release\n' }, 'release');
  await git(repo.dir, 'checkout', '--quiet', 'main');
  master = await makeRepository('master');
  await master.commit({ 'VERSION': 'master\n' });
  // The same repository over HTTP, behind Basic authentication.
  served = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-served-'));
  await git(served, 'clone', '--quiet', '--bare', repo.dir, path.join(served, 'app.git'));
  server = await startGitHttpServer(served, { username: 'ci', password: 's3cr3t-pw' });
});

afterAll(async () => {
  await server.close();
  await Promise.all([repo.remove(), master.remove(), fs.rm(served, { recursive: true, force: true }), ...cleanup.map((dir) => fs.rm(dir, { recursive: true, force: true }))]);
  await closeHarness();
});

describe('exec checkout', () => {
  it('clones main at depth 1 into a temporary directory, runs the script there and removes it', async () => {
    const ran = await outcome('exec', { name: 'x', script: 'cat VERSION; git rev-list --count HEAD; pwd; bash scripts/check.sh', checkout: { url: `file://${repo.dir}` } });
    expect(ran.pass).toBe(true);
    const [version, count, dir, checked] = String(ran.data.stdout).split('\n');
    expect([version, count, checked]).toEqual(['2', '1', 'checked 2']);
    expect(ran.data.results).toMatchObject({ extra: { git: repo.dir.replace(/^\/+/, ''), commit: head } });
    expect(ran.details).toMatchObject({ extra: { commit: head } });
    await expect(fs.stat(dir ?? '')).rejects.toThrow();
  });

  it('takes a branch, or ?ref= and ?depth= in the URL (which win), and a plain path', async () => {
    expect((await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url: `file://${repo.dir}`, branch: 'release' } })).data.stdout).toBe('release');
    const ref = await outcome('exec', { name: 'x', script: 'cat VERSION; git rev-list --count HEAD', checkout: { url: `file://${repo.dir}?ref=release&depth=2`, branch: 'main' } });
    expect(ref.data.stdout).toBe('release\n2');
    expect((await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url: repo.dir } })).data.stdout).toBe('2');
  });

  it('without a branch takes main, and the remote’s default branch when there is no main', async () => {
    const ran = await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url: `file://${master.dir}` } });
    expect(ran).toMatchObject({ pass: true, data: { stdout: 'master' } });
  });

  it('keeps a destination between runs and brings it up to date', async () => {
    const destination = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'wk-dest-')), 'checkout');
    cleanup.push(path.dirname(destination));
    // As root the script runs as WATCHKEEPER_EXEC_USER (nobody), which must be able to enter the destination's folder.
    await fs.chmod(path.dirname(destination), 0o755);
    const first = await outcome('exec', { name: 'x', script: 'cat VERSION; touch local-file', checkout: { url: `file://${repo.dir}`, destination } });
    expect(first.data.stdout).toBe('2');
    const third = await repo.commit({ VERSION: '3\n' }, 'third');
    const second = await outcome('exec', { name: 'x', script: 'cat VERSION; ls local-file; pwd', checkout: { url: `file://${repo.dir}`, destination } });
    expect(second.data.stdout).toBe(`3\nlocal-file\n${destination}`);
    expect(second.data.results).toMatchObject({ extra: { commit: third } });
    await git(repo.dir, 'reset', '--quiet', '--hard', head);
  });

  it('collects artifacts relative to the checkout', async () => {
    const ran = await outcome('exec', { name: 'x', script: 'mkdir -p out && cp VERSION out/version.txt', checkout: { url: `file://${repo.dir}` }, artifacts: [{ path: 'out/*.txt' }] });
    expect(ran.artifacts?.map((artifact) => [path.basename(artifact.path), artifact.content.toString()])).toEqual([['version.txt', '2\n']]);
  });

  it('clones over HTTP with username and password, sent only when the server asks', async () => {
    const url = `${server.url}/app.git`;
    const ran = await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url, username: 'ci', password: { value: 's3cr3t-pw' } } });
    expect(ran).toMatchObject({ pass: true, data: { stdout: '2' } });
    expect(server.authorizations).toContain(`Basic ${Buffer.from('ci:s3cr3t-pw').toString('base64')}`);
  });

  it('fails a run whose checkout fails, with git’s reason and never the password', async () => {
    const wrong = await outcome('exec', { name: 'x', script: 'echo never', checkout: { url: `${server.url}/app.git`, username: 'ci', password: 'wrong-password' } });
    expect(wrong).toMatchObject({ pass: false, message: expect.stringMatching(/^checkout failed: .*Authentication failed/) });
    expect(JSON.stringify(wrong)).not.toContain('wrong-password');
    expect(wrong.data.results).toMatchObject({ exitCode: -1 });
    const inUrl = await outcome('exec', { name: 'x', script: 'echo never', checkout: { url: `http://ci:other-secret@127.0.0.1:1/app.git` } });
    expect(inUrl).toMatchObject({ pass: false, message: expect.stringMatching(/^checkout failed: /) });
    expect(JSON.stringify(inUrl)).not.toContain('other-secret');
    const missing = await outcome('exec', { name: 'x', script: 'echo never', checkout: { url: `file://${repo.dir}`, branch: 'no-such-branch' } });
    expect(missing.message).toMatch(/checkout failed: .*no-such-branch/);
  });

  it('clones an ssh URL with the certificate as the key and the password as its passphrase', async () => {
    // A stand-in for ssh on PATH: it records the key and the passphrase ssh would be given, then runs the
    // remote command (git-upload-pack) locally, as sshd would.
    const bin = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-fake-ssh-'));
    cleanup.push(bin);
    const record = path.join(bin, 'record');
    const fake = ['#!/bin/sh', 'key=""', 'while [ $# -gt 1 ]; do', '  if [ "$1" = "-i" ]; then key="$2"; fi', '  shift', 'done',
      `{ cat "$key"; echo "passphrase=$("$SSH_ASKPASS")"; } > '${record}'`, 'exec sh -c "$1"', ''].join('\n');
    await fs.writeFile(path.join(bin, 'ssh'), fake, { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved ?? ''}`;
    try {
      const key = '-----BEGIN OPENSSH PRIVATE KEY-----\nnot-a-real-key\n-----END OPENSSH PRIVATE KEY-----';
      const ran = await outcome('exec', { name: 'x', script: 'cat VERSION', checkout: { url: `ssh://git@localhost${repo.dir}`, certificate: { value: key }, password: 'key-passphrase' } });
      expect(ran).toMatchObject({ pass: true, data: { stdout: '2' } });
      expect(await fs.readFile(record, 'utf8')).toBe(`${key}\npassphrase=key-passphrase\n`);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('reads URLs as duty does', () => {
    expect(gitTarget({ url: 'github.com/org/repo?ref=v1.2&depth=5' })).toEqual({ url: 'https://github.com/org/repo', branch: 'v1.2', depth: 5, ssh: false, git: 'github.com/org/repo' });
    expect(gitTarget({ url: 'ssh://git@example.com/org/repo.git', branch: 'dev' })).toMatchObject({ ssh: true, branch: 'dev', depth: 1, git: 'example.com/org/repo.git' });
    expect(gitTarget({ url: 'git@github.com:org/repo.git' })).toMatchObject({ ssh: true, git: 'github.com/org/repo.git' });
  });
});
