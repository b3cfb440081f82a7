import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inOrganization } from '../db/tenant';
import { gitCheckout, GitCheckoutError } from './git-checkout';
import { makeScriptDir, runScript } from './script';
import { organizationsWorkBase, organizationWorkDir } from './work-dir';

/**
 * Hosted mode (docs/SECURITY.md "Hosted mode"): scripts of an organization work in its own folder, and a
 * checkout's destination stays inside it; the console's own work is where it always was.
 */

const run = promisify(execFile);
const ACME = '0a7c6e2e-5a43-4e0b-9b1e-ac0e00000001';
const GLOBEX = '0a7c6e2e-5a43-4e0b-9b1e-910be0000002';
let tmp = '';
let repo = '';

beforeAll(async () => {
  // A TMPDIR of the test's own: the folders below are made fresh and can be tampered with safely.
  tmp = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'wk-work-dir-')));
  await fs.chmod(tmp, 0o755);
  vi.stubEnv('TMPDIR', tmp);
  repo = path.join(tmp, 'repo');
  await fs.mkdir(repo);
  const git = (...args: string[]) => run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
  await git('init', '--quiet', '--initial-branch', 'main');
  await fs.writeFile(path.join(repo, 'VERSION'), '7\n');
  await git('add', 'VERSION');
  await git('commit', '--quiet', '-m', 'first');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  if (tmp) await fs.rm(tmp, { recursive: true, force: true });
});

const signal = () => AbortSignal.timeout(30_000);

describe('per-organization work folders', () => {
  it('the console’s own scripts work in the temporary folder, as before', async () => {
    const dir = await makeScriptDir('wk-own-');
    expect(path.dirname(dir)).toBe(tmp);
    await fs.rm(dir, { recursive: true });
  });

  it('an organization’s scripts run in a fresh folder inside its own, which only the console writes and nobody lists', async () => {
    const ran = await inOrganization(ACME, () => runScript('pwd', { signal: signal() }));
    expect(ran.exitCode).toBe(0);
    const base = organizationsWorkBase();
    expect(path.dirname(base)).toBe(tmp);
    expect(ran.stdout.trim()).toMatch(new RegExp(`^${base}/${ACME}/wk-script-`));
    for (const dir of [base, path.join(base, ACME)]) {
      const stat = await fs.lstat(dir);
      expect(stat.isDirectory()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o711);
      expect(stat.uid).toBe(process.getuid?.());
    }
    // Removed after the run.
    expect(await fs.readdir(path.join(base, ACME))).toEqual([]);
  });

  it('keeps a checkout’s destination inside the organization’s folder, refusing an absolute path or one with ..', async () => {
    const shared = path.join(tmp, 'shared-checkout');
    for (const destination of [shared, '../other', 'repos/../../x', `../${GLOBEX}/repos/app`]) {
      const refused = inOrganization(ACME, () => gitCheckout({ url: repo, destination }, { signal: signal() }));
      await expect(refused).rejects.toThrow(GitCheckoutError);
      await expect(refused).rejects.toThrow(/in an organization a checkout is kept in the organization's own work folder: give a relative path without '\.\.'/);
    }
    await expect(fs.stat(shared)).rejects.toThrow();
    const kept = await inOrganization(ACME, () => gitCheckout({ url: repo, destination: 'repos/app' }, { signal: signal() }));
    expect(kept.dir).toBe(path.join(organizationsWorkBase(), ACME, 'repos', 'app'));
    expect((await fs.readFile(path.join(kept.dir, 'VERSION'), 'utf8')).trim()).toBe('7');
    // The same relative destination of another organization is another folder.
    const theirs = await inOrganization(GLOBEX, () => gitCheckout({ url: repo, destination: 'repos/app' }, { signal: signal() }));
    expect(theirs.dir).toBe(path.join(organizationsWorkBase(), GLOBEX, 'repos', 'app'));
    // A temporary checkout is made inside the organization's folder too.
    const temporary = await inOrganization(ACME, () => gitCheckout({ url: repo }, { signal: signal() }));
    expect(temporary.dir.startsWith(`${path.join(organizationsWorkBase(), ACME)}/wk-checkout-`)).toBe(true);
    await temporary.cleanup();
  });

  it('refuses a work folder it did not make itself (a link planted in its place), rather than use it', async () => {
    const planted = path.join(tmp, 'planted');
    await fs.mkdir(planted);
    const base = organizationsWorkBase();
    await fs.rm(base, { recursive: true, force: true });
    await fs.symlink(planted, base);
    await expect(organizationWorkDir(ACME)).rejects.toThrow(/is not this console's own folder/);
    await expect(inOrganization(ACME, () => makeScriptDir())).rejects.toThrow(/is not this console's own folder/);
    expect(await fs.readdir(planted)).toEqual([]);
    await fs.rm(base);
    // A folder others may write is refused too; the console's own is made again.
    await fs.mkdir(base, { mode: 0o777 });
    await fs.chmod(base, 0o777);
    await expect(organizationWorkDir(ACME)).rejects.toThrow(/writable by others/);
    await fs.rmdir(base);
    expect(await organizationWorkDir(ACME)).toBe(path.join(base, ACME));
  });
});
