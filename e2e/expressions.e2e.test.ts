import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useJourney } from './harness';

const specRow = z.object({ spec: z.record(z.string(), z.unknown()) });
const idRow = z.object({ id: z.string() });

/**
 * Expressions (docs/EXPRESSIONS.md) and canary-checker YAML in the canary editor's Code tab: a person writes a
 * check's display in CEL and its test as a Go template, sees a mistake named with its field and position
 * before saving, fixes it, saves, and reads the rendered message after Run Now; and one who brings a
 * secret reference sees it warned of, saves, and reads the secret named in the failed run.
 */
describe('expressions in a health check', () => {
  const journey = useJourney({ signIn: true });
  const url = (path: string) => `${journey.server().url}${path}`;
  const query = (sql: string, values: unknown[] = []) => journey.server().pool.query(sql, values);

  it('names a broken expression with its position in Code, saves the fixed one, and shows what it renders after Run Now', async () => {
    const page = journey.page();
    await page.goto(url('/settings/canaries'));
    await page.getByRole('link', { name: 'Add Health Check' }).click();
    await page.getByRole('region', { name: 'Choose the type of check' }).getByRole('button', { name: 'Exec', exact: true }).click();
    await page.waitForURL(/\/settings\/canaries\/new\?type=/);
    await page.getByLabel('Name', { exact: true }).fill('greeter');
    const card = page.getByRole('group', { name: 'Exec check 1' });
    await card.getByLabel('Check name').fill('hello');
    await card.getByLabel('Script', { exact: true }).fill(`echo '{"who": "world", "items": [3, 1, 2]}'`);

    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('world');
    await editor.click();
    await page.keyboard.press('Control+End');
    // A test in Go's template language and a display in CEL with Flanksource functions; the display lacks
    // its closing parenthesis.
    await page.keyboard.insertText(
      [
        '      test:',
        '        template: "{{ if eq .results.exitCode 0 }}true{{ else }}false{{ end }}"',
        '      display:',
        `        expr: "'hello ' + results.stdout.JSON().who.upperAscii() + ' ' + results.stdout.JSON().items.sort().toJSON("`,
      ].join('\n'),
    );
    const problems = page.getByRole('region', { name: 'Problems' });
    const problem = problems.getByText(/spec\.exec\[0\]\.display\.expr/).first();
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/at 1:\d+/);

    // Fixed where it stands: the closing parenthesis goes in before the closing quote.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.insertText(')');
    await problems.getByText(/spec\.exec\[0\]\.display\.expr/).first().waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((current) => current.pathname === '/settings/canaries');
    await page.getByText('Health Check created successfully').first().waitFor();
    const saved = specRow.parse((await query("SELECT spec FROM canaries WHERE name = 'greeter' AND deleted_at IS NULL")).rows[0]);
    expect(saved.spec.exec).toEqual([
      expect.objectContaining({
        name: 'hello',
        display: { expr: `'hello ' + results.stdout.JSON().who.upperAscii() + ' ' + results.stdout.JSON().items.sort().toJSON()` },
        test: { template: '{{ if eq .results.exitCode 0 }}true{{ else }}false{{ end }}' },
      }),
    ]);

    // Run Now from the check's detail: the message is what the display renders.
    const checkId = idRow.parse((await query("SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ca.name = 'greeter'")).rows[0]).id;
    await page.goto(url(`/health?checkId=${checkId}`));
    const drawer = page.getByRole('dialog', { name: /hello/ });
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    const result = drawer.getByRole('status', { name: 'Run result' });
    await result.waitFor();
    await expect.poll(() => result.textContent()).toMatch(/^Passed in .*: hello WORLD \[1,2,3\]$/);
  });

  it('reads a secret when the check runs: a missing one is named, and once it is added in Settings the run passes without showing it', async () => {
    const page = journey.page();
    await page.goto(url('/settings/canaries'));
    await page.getByRole('link', { name: 'Add Health Check' }).click();
    await page.getByRole('region', { name: 'Choose the type of check' }).getByRole('button', { name: 'Exec', exact: true }).click();
    await page.waitForURL(/\/settings\/canaries\/new\?type=/);
    await page.getByLabel('Name', { exact: true }).fill('from-secret');
    const card = page.getByRole('group', { name: 'Exec check 1' });
    await card.getByLabel('Check name').fill('uses token');
    await card.getByLabel('Script', { exact: true }).fill('echo "token is $TOKEN"');

    // The env entry is written as in a canary-checker file, from a Kubernetes secret: nothing to warn of.
    await page.getByRole('tab', { name: 'Code' }).click();
    const editor = page.locator('.cm-content');
    await expect.poll(() => editor.textContent()).toContain('token is');
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(['      env:', '        - name: TOKEN', '          valueFrom:', '            secretKeyRef: {name: api, key: token}'].join('\n'));
    await expect.poll(() => editor.textContent()).toContain('secretKeyRef');
    const problems = page.getByRole('region', { name: 'Problems' });
    expect(await problems.getByLabel('Error').count()).toBe(0);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((current) => current.pathname === '/settings/canaries');
    await page.getByText('Health Check created successfully').first().waitFor();
    const checkId = idRow.parse((await query("SELECT c.id FROM checks c JOIN canaries ca ON ca.id = c.canary_id WHERE ca.name = 'from-secret'")).rows[0]).id;
    await page.goto(url(`/health?checkId=${checkId}`));
    let drawer = page.getByRole('dialog', { name: /uses token/ });
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    let result = drawer.getByRole('status', { name: 'Run result' });
    await result.waitFor();
    await expect.poll(() => result.textContent()).toMatch(/^Failed in .*env\[0\]: valueFrom\.secretKeyRef \(name "api", key "token"\): secret "api" not found in namespace "default"/);

    // The person adds the secret in Settings → Secrets, then runs the check again.
    const token = 'tok-e2e-7731-value';
    await page.goto(url('/settings/secrets'));
    await page.getByRole('link', { name: 'Add Secret' }).click();
    await page.getByLabel('Name', { exact: true }).fill('api');
    await page.getByLabel('Key 1', { exact: true }).fill('token');
    await page.getByLabel('Value 1', { exact: true }).fill(token);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Secret created successfully').waitFor();
    await page.goto(url(`/health?checkId=${checkId}`));
    drawer = page.getByRole('dialog', { name: /uses token/ });
    await drawer.getByRole('button', { name: 'Run Now' }).click();
    result = drawer.getByRole('status', { name: 'Run result' });
    await result.waitFor();
    await expect.poll(() => result.textContent()).toMatch(/^Passed/);
    expect(await page.content()).not.toContain(token);
    const stored = await query('SELECT message, details::text FROM check_statuses WHERE check_id = $1', [checkId]);
    expect(JSON.stringify(stored.rows)).not.toContain(token);
  });
});
