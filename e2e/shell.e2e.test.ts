import { describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/** The console's frame: sidebar, top bar and menus, preferences, and the error page for unknown routes. */
describe('shell', () => {
  // The first start of all: serve creates the embedded database itself, in an empty data directory.
  const journey = useJourney({ signIn: true, fresh: true });

  it('shows the shell on first start', async () => {
    const page = journey.page();
    await page.goto(journey.server().url);
    const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
    await sidebar.waitFor();
    await sidebar.getByText('Watchkeeper').waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.title()).toMatch(/ \| Watchkeeper$/);
    for (const name of ['Preferences', 'Docs', 'User menu']) await page.getByRole('button', { name }).waitFor();

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByText(/^frontend .+, backend (?!…).+$/).waitFor();
    const versionLine = await page.getByTestId('version-line').textContent();
    // Issue 38: each part's package version and the git commit it was built (frontend) or started (backend) from.
    const part = String.raw`\d+\.\d+\.\d+ \([0-9a-f]{7}(?:-dirty)?\)`;
    expect(versionLine).toMatch(new RegExp(`^frontend ${part}, backend ${part}$`));
    const backend = ((await (await fetch(`${journey.server().url}/api/version`)).json()) as { backend: string }).backend;
    expect(versionLine?.endsWith(`, backend ${backend}`)).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('keeps the sidebar collapsed across a reload', async () => {
    const page = journey.page();
    await page.goto(journey.server().url);
    const sidebar = page.getByRole('complementary', { name: 'Main navigation' });
    expect((await sidebar.boundingBox())?.width).toBe(224);
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Expand sidebar' }).waitFor();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(56);
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(224);
  });

  it('shows dates in the format chosen in the preferences menu', async () => {
    const page = journey.page();
    await journey
      .server()
      .pool.query(`INSERT INTO properties (name, value, updated_at) VALUES ('e2e.shell.flag', 'true', '2024-03-05T10:30:01.999Z')`);
    await page.goto(`${journey.server().url}/settings/feature-flags`);
    const row = page.getByRole('row', { name: /e2e\.shell\.flag/ });
    // Default format 'timestamp' (spec §9); the hour depends on the browser's time zone.
    await row.getByText(/^2024-03-0[45] \d{2}:\d{2}:01\.999$/).waitFor();

    await page.getByRole('button', { name: 'Preferences' }).click();
    await page.getByRole('radio', { name: /Full/ }).click();
    await page.keyboard.press('Escape');
    await row.getByText(/^Mar [45] \d{2}:\d{2}:01\.999$/).waitFor();

    // Session storage keeps the choice for the tab (spec §9).
    await page.reload();
    await page.getByRole('row', { name: /e2e\.shell\.flag/ }).getByText(/^Mar [45] \d{2}:\d{2}:01\.999$/).waitFor();
  });

  it('shows the error page for an unknown route', async () => {
    const page = journey.page();
    await page.goto(`${journey.server().url}/definitely/not/here`);
    await page.getByText('Page not found: /definitely/not/here').waitFor();
    expect(await page.title()).toBe('Page not found | Watchkeeper');
    await page.getByRole('complementary', { name: 'Main navigation' }).waitFor();
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/definitely'));
  });
});
