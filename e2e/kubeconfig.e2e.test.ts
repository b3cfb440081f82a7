import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Download, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigFileName } from '../server/features/kube';
import { ADMIN, useJourney } from './harness';

interface Kubeconfig {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { user: { token: string } }[];
}

let dir = '';

/** A shell line as a person runs it, with HOME at the test's folder. */
function shell(line: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECACHEDIR: path.join(dir, 'cache') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end();
  });
}

/**
 * Runs `act` and answers the download it starts (on whichever page Chromium reports it: the new tab), the
 * tab opened, and the answer of /api/kubeconfig.
 */
async function downloadInNewTab(page: Page, act: () => Promise<void>): Promise<{ download: Download; response: Response; tab: Page }> {
  const context = page.context();
  let onDownload: (download: Download) => void = () => undefined;
  const downloaded = new Promise<Download>((resolve) => (onDownload = resolve));
  const watch = (target: Page) => target.on('download', onDownload);
  for (const open of context.pages()) watch(open);
  context.on('page', watch);
  const tab = context.waitForEvent('page');
  const response = context.waitForEvent('response', (answer) => new URL(answer.url()).pathname === '/api/kubeconfig');
  try {
    await act();
    const download = await Promise.race([downloaded, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no download within 30 s')), 30_000))]);
    return { download, response: await response, tab: await tab };
  } finally {
    context.off('page', watch);
    for (const open of context.pages()) open.off('download', onDownload);
  }
}

describe('Download kubeconfig', () => {
  const journey = useJourney({ signIn: true });
  const url = (route: string) => `${journey.server().url}${route}`;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wk-e2e-kubeconfig-'));
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('names the file from the backend host, kept to [A-Za-z0-9.-]', () => {
    expect(kubeconfigFileName('http://127.0.0.1:3000')).toBe('127.0.0.1-kubeconfig.yaml');
    expect(kubeconfigFileName('https://ops.example.com/watch')).toBe('ops.example.com-kubeconfig.yaml');
    expect(kubeconfigFileName('http://[::1]:3000')).toBe('1-kubeconfig.yaml');
    expect(kubeconfigFileName('not a url')).toBe('watchkeeper-kubeconfig.yaml');
  });

  it('opens /api/kubeconfig in a new tab, shows the three steps, and the command of step 2 lists canaries with kubectl', async () => {
    const page = journey.page();
    await page.goto(url('/health'));
    await page.getByRole('button', { name: 'User menu' }).click();
    const first = await downloadInNewTab(page, () => page.getByRole('menuitem', { name: 'Download kubeconfig' }).click());
    const file = '127.0.0.1-kubeconfig.yaml';
    expect(first.response.status()).toBe(200);
    expect(first.response.headers()['content-disposition']).toBe(`attachment; filename="${file}"`);
    expect(first.download.suggestedFilename()).toBe(file);

    const dialog = page.getByRole('dialog', { name: 'Download and install kubeconfig' });
    await dialog.waitFor();
    // Keyboard: the focus is inside the dialog, not left on the page under it.
    await page.waitForFunction(() => document.activeElement?.closest('[role="dialog"]') !== null);
    expect(await dialog.getByRole('listitem').getByRole('heading').allTextContents()).toEqual(['Download the file', 'Apply it with kubectl', 'Learn more']);
    await dialog.getByText(file, { exact: true }).waitFor();
    const command = (await dialog.getByTestId('kubeconfig-command').textContent()) ?? '';
    expect(command).toBe(`KUBECONFIG=~/Downloads/${file} kubectl get canaries -A`);

    // The file: this server's Kubernetes-style API over https on the same port (the console serves both),
    // with the CA it made in its data directory, and a new token of the signed-in admin.
    const downloaded = await fs.readFile(await first.download.path(), 'utf8');
    const config = parse(downloaded) as Kubeconfig;
    expect(config.clusters[0]?.cluster.server).toBe(url('/api/kubernetes').replace(/^http:/, 'https:'));
    expect(Buffer.from(String(config.clusters[0]?.cluster['certificate-authority-data']), 'base64').toString('utf8')).toContain('-----BEGIN CERTIFICATE-----');
    const token = config.users[0]?.user.token ?? '';
    const whoami = await fetch(url('/api/auth/whoami'), { headers: { authorization: `Bearer ${token}` } });
    expect(((await whoami.json()) as { user: { email: string } }).user.email).toBe(ADMIN.email);

    // Step 2 as a person runs it: the file in ~/Downloads as downloaded, the command pasted.
    await fs.mkdir(path.join(dir, 'Downloads'));
    await fs.writeFile(path.join(dir, 'Downloads', file), downloaded);
    const canary = 'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: e2e-kubeconfig\n  namespace: shop\nspec:\n  schedule: "@every 5m"\n  tcp:\n    - name: db\n      endpoint: 127.0.0.1:9\n';
    await fs.writeFile(path.join(dir, 'canary.yaml'), canary);
    const applied = await shell(`KUBECONFIG=~/Downloads/${file} kubectl --request-timeout=10s apply -f ~/canary.yaml`);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('canary.canaries.flanksource.com/e2e-kubeconfig created');
    const listed = await shell(command);
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^NAMESPACE\s+NAME/);
    expect(listed.stdout).toMatch(/\nshop\s+e2e-kubeconfig\s/);

    // Copy, Learn more and the help link (this server's docs/KUBECTL.md).
    await journey.browser().context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: journey.server().url });
    await dialog.getByRole('button', { name: 'Copy command' }).click();
    await page.getByText('Copied to clipboard').first().waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(command);
    const learn = dialog.getByRole('link', { name: 'Learn more' });
    expect(await learn.getAttribute('target')).toBe('_blank');
    const docs = await fetch(url((await learn.getAttribute('href')) ?? ''));
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('## Getting a kubeconfig');
    expect(await dialog.getByRole('link', { name: 'Help' }).getAttribute('href')).toBe(await learn.getAttribute('href'));

    // Step 1's own Download: another new tab, another file.
    const second = await downloadInNewTab(page, () => dialog.getByRole('link', { name: 'Download kubeconfig' }).click());
    expect(second.response.status()).toBe(200);
    expect(second.download.suggestedFilename()).toBe(file);
    const again = parse(await fs.readFile(await second.download.path(), 'utf8')) as Kubeconfig;
    expect(again.users[0]?.user.token).toMatch(/\S{20,}/);
    expect(again.users[0]?.user.token).not.toBe(token);
    await first.tab.close().catch(() => undefined);
    await second.tab.close().catch(() => undefined);

    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'User menu' }).waitFor();
  });
});
