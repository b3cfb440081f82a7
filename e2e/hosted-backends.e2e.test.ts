import fs from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { addOrganization, startBackend } from '../server/features/hosted/testing/hosted';
import { freePort } from '../server/platform/db/embedded';
import { throughProviderPages, useOidcJourney } from './provider-pages';

/**
 * Hosted mode, an organization whose backend is not there yet (issue 25, spec §1): the person sees the
 * provisioning screen, which keeps asking; once a real `serve --auth trusted-front` answers on the
 * organization's backend URL, the console shows, its API requests proxied there.
 */

const { journey, oidc } = useOidcJourney();
let backend: Awaited<ReturnType<typeof startBackend>> | undefined;
afterAll(async () => {
  await backend?.stop().catch(() => undefined);
  if (backend) await fs.rm(backend.dataDir, { recursive: true, force: true });
});

describe('the provisioning screen', () => {
  it('shows while the organization’s backend is down, and the console once it answers', { timeout: 180_000 }, async () => {
    const front = journey.server();
    const port = await freePort();
    const organization = await addOrganization(front.pool, 'org_new', `http://127.0.0.1:${port}`);
    oidc.issuer.accounts.set('bea', { email: 'bea@example.com', email_verified: true, name: 'Bea Builder', organizations: [{ id: 'org_new', name: 'New Co' }] });

    const page = journey.page();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/organization-backend') asked.push(request.url());
    });
    await page.goto(`${front.url}/incidents`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('link', { name: /^Sign in with / }).click();
    await throughProviderPages(page, oidc.issuer.url, 'bea');
    await page.waitForURL((url) => url.pathname === '/incidents');
    await page.getByText('Please wait, instance provisioning in-progress ...', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'User menu' }).count()).toBe(0);
    // It keeps asking (every few seconds) while the backend is down.
    await expect.poll(() => asked.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

    backend = await startBackend(front.url, organization, port);
    await page.getByRole('button', { name: 'User menu' }).waitFor({ timeout: 30_000 });
    expect(await page.getByText('Please wait, instance provisioning in-progress ...').count()).toBe(0);
    // The API answers come from the organization's backend, which knows only bea (the front knows more people).
    const proxied = await page.request.get(`${front.url}/api/db/people?select=email`);
    expect(proxied.status()).toBe(200);
    expect(await proxied.json()).toEqual([{ email: 'bea@example.com' }]);
  });

  it('sends a direct organization’s requests from the browser to its backend, with the front’s token', { timeout: 120_000 }, async () => {
    const front = journey.server();
    const live = backend;
    if (!live) throw new Error('the previous test starts the backend');
    await front.pool.query("UPDATE organizations SET direct = true WHERE external_id = 'org_new'");
    const page = journey.page();
    const toBackend: { path: string; bearer: boolean }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === live.url) toBackend.push({ path: url.pathname, bearer: /^Bearer /.test(request.headers().authorization ?? '') });
    });
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|CORS/.test(message.text())) blocked.push(message.text());
    });
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    await page.goto(`${front.url}/incidents`);
    await page.getByRole('button', { name: 'User menu' }).waitFor();
    await expect.poll(() => toBackend.filter((request) => request.path.startsWith('/api/') && request.bearer).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    expect(toBackend.some((request) => request.path.startsWith('/api/auth/'))).toBe(false);
    expect(failed.filter((url) => url.startsWith(live.url))).toEqual([]);
    expect(blocked).toEqual([]);
  });
});
