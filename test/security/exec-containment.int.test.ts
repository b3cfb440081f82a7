import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execSource } from '../../server/features/catalog/sources/exec';
import { outcome } from '../../server/features/health/testing/check-harness';
import { exec as execAction } from '../../server/features/playbooks/actions/exec';
import type { ActionContext } from '../../server/features/playbooks/actions/types';
import { secureDataDirSync } from '../../server/platform/data-dir';
import { createLogger } from '../../server/platform/logger';
import { runScript } from '../../server/platform/peers/script';

/**
 * Issue 35, finding 2: an exec check, a playbook exec action or an exec scraper ran as the server's own
 * user with its HOME, read the data directory (secret.key, postgres.json) and the server's environment
 * through /proc. Now every script runs through runScript, contained: a clean environment, and when the
 * console is root the unprivileged WATCHKEEPER_EXEC_USER (nobody), which cannot enter the 0700 data directory.
 */
const root = process.getuid?.() === 0;
const MARKER = 'wk-containment-marker-7f3a';
let data = '';
let key = '';

beforeAll(async () => {
  // A data directory as an older version left it: open to everyone, the key readable by all.
  data = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-containment-data-'));
  await fs.chmod(data, 0o755);
  key = path.join(data, 'secret.key');
  await fs.writeFile(key, `${MARKER}-key\n`, { mode: 0o644 });
  await fs.chmod(key, 0o644);
  await fs.writeFile(path.join(data, 'postgres.json'), JSON.stringify({ password: `${MARKER}-db` }), { mode: 0o644 });
  await fs.chmod(path.join(data, 'postgres.json'), 0o644);
  secureDataDirSync(data);
  process.env.WK_CONTAINMENT_MARKER = MARKER;
});

afterAll(async () => {
  delete process.env.WK_CONTAINMENT_MARKER;
  await fs.rm(data, { recursive: true, force: true });
});

/** What a hostile script tries: the server's environment (its own and through /proc), its HOME, the data directory. */
const probe = () =>
  [
    'echo "uid=$(id -u)"',
    'echo "home=$HOME"',
    'env',
    `cat /proc/${process.pid}/environ 2>/dev/null | tr "\\0" "\\n"`,
    `cat ${key} ${path.join(data, 'postgres.json')} 2>/dev/null`,
    `ls ${data} 2>/dev/null`,
    'true',
  ].join('\n');

function expectContained(stdout: string): void {
  expect(stdout).not.toContain(MARKER);
  expect(stdout).not.toMatch(/^DATABASE_URL=/m);
  expect(stdout).not.toContain(`home=${process.env.HOME ?? '/root'}\n`);
  expect(stdout).not.toContain('secret.key');
  if (root) expect(stdout).not.toMatch(/^uid=0$/m);
}

describe('exec scripts run contained (issue 35, finding 2)', () => {
  it('tightens the data directory to 0700 and its secret files to 0600', async () => {
    expect((await fs.stat(data)).mode & 0o777).toBe(0o700);
    expect((await fs.stat(key)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(data, 'postgres.json'))).mode & 0o777).toBe(0o600);
  });

  it('gives a script none of the server’s environment, HOME set to its own working directory', async () => {
    const ran = await runScript('echo "${WK_CONTAINMENT_MARKER:-unset} $HOME $TMPDIR"; pwd', { signal: AbortSignal.timeout(10_000), env: { GIVEN: 'yes' } });
    const [line, cwd] = ran.stdout.trim().split('\n');
    expect(line).toBe(`unset ${cwd} ${cwd}`);
    expect(cwd).not.toBe(process.env.HOME);
    expect((await runScript('echo $GIVEN', { signal: AbortSignal.timeout(10_000), env: { GIVEN: 'yes' } })).stdout).toBe('yes\n');
  });

  it.runIf(root)('runs as an unprivileged user when the console is root, who cannot read the server’s /proc environment or the data directory', async () => {
    const ran = await runScript(`id -u; cat /proc/${process.pid}/environ >/dev/null && echo environ-read; cat ${key} && echo key-read; ls ${data} && echo listed; exit 0`, { signal: AbortSignal.timeout(10_000) });
    const [uid] = ran.stdout.split('\n');
    expect(Number(uid)).not.toBe(0);
    expect(ran.stdout).not.toContain('environ-read');
    expect(ran.stdout).not.toContain('key-read');
    expect(ran.stdout).not.toContain('listed');
    expect(ran.stderr).toMatch(/Permission denied/);
  });

  it.runIf(root)('refuses to run a script when the configured user does not exist, rather than run it as root', async () => {
    const previous = process.env.WATCHKEEPER_EXEC_USER;
    process.env.WATCHKEEPER_EXEC_USER = 'wk-no-such-user';
    const flag = path.join(os.tmpdir(), `wk-containment-ran-${process.pid}`);
    try {
      const ran = await runScript(`touch ${flag}`, { signal: AbortSignal.timeout(10_000) });
      expect(ran.exitCode).toBeNull();
      expect(ran.error?.message).toMatch(/unprivileged user "wk-no-such-user" \(WATCHKEEPER_EXEC_USER\).*no such user/);
      await expect(fs.stat(flag)).rejects.toThrow();
    } finally {
      if (previous === undefined) delete process.env.WATCHKEEPER_EXEC_USER;
      else process.env.WATCHKEEPER_EXEC_USER = previous;
      await fs.rm(flag, { force: true });
    }
  });

  it('contains the exec check, and does not collect an artifact the script’s user may not read', async () => {
    const ran = await outcome('exec', { name: 'x', script: `${probe()}\nln -s ${key} leak.txt; echo mine > mine.txt`, artifacts: [{ path: 'leak.txt' }, { path: key }, { path: 'mine.txt' }] });
    expect(ran.pass).toBe(true);
    expectContained(String(ran.data?.stdout));
    const collected = (ran.artifacts ?? []).map((artifact) => [path.basename(artifact.path), Buffer.from(artifact.content).toString('utf8')]);
    expect(collected).toContainEqual(['mine.txt', 'mine\n']);
    expect(JSON.stringify(collected)).not.toContain(MARKER);
    if (root) expect(ran.error).toMatch(/was not collected: the user the script runs as may not read it/);
  });

  it('contains the playbook exec action', async () => {
    const ctx = {
      log: createLogger('silent'),
      namespace: 'default',
      runId: 'run',
      actionId: 'action',
      spec: { name: 'step', exec: { script: probe() } },
      templateData: {},
      env: { FROM_PLAYBOOK: 'given' },
      signal: AbortSignal.timeout(10_000),
      workDir: () => Promise.reject(new Error('the data directory is not a script’s')),
    } as unknown as ActionContext;
    const done = await execAction(ctx);
    expect(done.error).toBeUndefined();
    expect(String(done.result.stdout)).toContain('FROM_PLAYBOOK=given');
    expectContained(String(done.result.stdout));
  });

  it('contains the exec scraper', async () => {
    const ctx = { scraperId: 'scraper', namespace: 'default', signal: AbortSignal.timeout(10_000), log: createLogger('silent'), error: () => undefined };
    const [item] = await execSource.scrape({ script: `out=$( (${probe().replaceAll('\n', '; ')}) | base64 -w0); printf '{"out":"%s"}' "$out"` }, ctx);
    const printed = Buffer.from(String((item?.config as { out?: string }).out), 'base64').toString('utf8');
    expect(printed).toContain('SCRAPER_ID=scraper');
    expectContained(printed);
  });
});
