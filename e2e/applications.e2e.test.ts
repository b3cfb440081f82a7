import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * Applications (spec §2 /applications and /applications/{namespace}/{name}; docs/APPLICATIONS.md): an
 * application applied through the API over seeded config items and access rows, opened from the sidebar,
 * its report read, its range widened (an older login appears), and its PDF exported through Chromium.
 */
describe('applications', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = async <T extends Record<string, unknown>>(sql: string, values: unknown[] = []) => (await journey.server().pool.query<T>(sql, values)).rows;

  it('opens the report from the sidebar, widens its range, and exports it as a PDF', async () => {
    const page = journey.page();
    const item = async (type: string, name: string, health: string, labels: Record<string, string>) =>
      (await query<{ id: string }>('INSERT INTO config_items (type, name, health, labels, external_id) VALUES ($1, $2, $3, $4, ARRAY[$2]) RETURNING id', [type, name, health, JSON.stringify(labels)]))[0]!.id;
    await item('Kubernetes::Deployment', 'checkout-api', 'healthy', { app: 'checkout' });
    await item('Kubernetes::Deployment', 'checkout-worker', 'unhealthy', { app: 'checkout' });
    const sso = await item('Azure::EnterpriseApplication', 'Checkout SSO', 'healthy', {});
    const [alice] = await query<{ id: string }>("INSERT INTO external_users (name, email) VALUES ('Alice Adams', 'alice@example.com') RETURNING id");
    const [bob] = await query<{ id: string }>("INSERT INTO external_users (name, email) VALUES ('Bob Brown', 'bob@example.com') RETURNING id");
    const [owner] = await query<{ id: string }>("INSERT INTO external_roles (name) VALUES ('Owner') RETURNING id");
    await query('INSERT INTO config_access (config_id, external_user_id, external_role_id) VALUES ($1, $2, $3)', [sso, alice!.id, owner!.id]);
    await query("INSERT INTO config_access_logs (config_id, external_user_id, mfa, created_at) VALUES ($1, $2, true, now() - interval '2 days'), ($1, $3, false, now() - interval '60 days')", [
      sso, alice!.id, bob!.id,
    ]);

    const created = await page.request.post(url('/api/applications'), {
      data: {
        name: 'checkout',
        namespace: 'shop',
        spec: {
          type: 'Service',
          description: 'Takes orders',
          mapping: {
            environments: { Production: [{ types: ['Kubernetes::Deployment'], labelSelector: 'app=checkout', purpose: 'primary' }] },
            logins: [{ types: ['Azure::EnterpriseApplication'], name: 'Checkout SSO' }],
          },
        },
      },
    });
    expect(created.status(), await created.text()).toBe(201);

    await page.goto(url('/health'));
    await page.getByRole('complementary', { name: 'Main navigation' }).getByRole('link', { name: 'Applications' }).click();
    await page.waitForURL(url('/applications'));
    const card = page.getByRole('listitem', { name: 'checkout' });
    await card.getByText('Takes orders').waitFor();
    await card.getByRole('link', { name: 'checkout' }).click();
    await page.waitForURL(url('/applications/shop/checkout'));

    const production = page.getByRole('group', { name: 'Environment Production' });
    await production.getByRole('link', { name: 'checkout-api' }).waitFor();
    await production.getByRole('link', { name: 'checkout-worker' }).waitFor();
    const access = page.getByRole('table', { name: 'Who has access' });
    await access.getByText('Alice Adams').waitFor();
    await access.getByText('Owner').waitFor();
    const logins = page.getByRole('table', { name: 'Logins' });
    await logins.getByText('Alice Adams').waitFor();
    expect(await logins.getByText('Bob Brown').count()).toBe(0);

    // Spec §2: the range is the URL's; widening it brings Bob's older login in.
    await page.getByRole('button', { name: /^Time range:/ }).click();
    await page.getByRole('button', { name: 'Last 90 days' }).click();
    await page.waitForURL((current) => current.searchParams.get('range') === '90d');
    await page.getByRole('table', { name: 'Logins' }).getByText('Bob Brown').waitFor();

    const download = page.waitForEvent('download', { timeout: 90_000 });
    await page.getByRole('button', { name: 'Export PDF' }).click();
    await page.getByRole('button', { name: 'Rendering PDF…' }).waitFor();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^checkout-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/);
    const saved = await file.path();
    expect((await readFile(saved)).subarray(0, 4).toString()).toBe('%PDF');
  }, 180_000);

  it('says so when no application matches the search', async () => {
    const page = journey.page();
    await page.goto(url('/applications?q=no-such-application'));
    await page.getByText('No applications match the search').waitFor();
  });
});
