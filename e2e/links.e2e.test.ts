import { mkdtempSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useJourney } from './harness';

/**
 * Issue 38: "Every link in the sidebar, tables and breadcrumbs leads to a page that shows what it names".
 * With demo data, the journey follows every sidebar link, the first links in each list page's table (one
 * per kind of target, a few per page) and the breadcrumbs of the pages it lands on. Each landing page must
 * name what the link said (its text in the page's main area) and show no dead end ("Not found", "No …
 * found") nor an internal string. Bounded: at most LINK_LIMIT links in all. Tables whose rows open a page
 * or a sheet on click (no link in them) are followed too: the first clickable row of each sidebar page must
 * lead to a page or a sheet that shows the row's name, with no dead end (at most ROW_LIMIT rows).
 */
const LINK_LIMIT = 45;
const TABLE_LINKS_PER_PAGE = 2;
/** Rows that open something when clicked (a table's clickable rows, not group rows): the first one of each sidebar page. */
const ROW_LIMIT = 30;
const CLICKABLE_ROW = 'main table tbody tr[tabindex="0"]:not([aria-expanded])';

interface Link {
  href: string;
  text: string;
  from: string;
}

/** Runs in the page: the first links of the main area's tables and of its breadcrumbs. */
function collect(): { table: Array<{ href: string; text: string }>; breadcrumbs: Array<{ href: string; text: string }> } {
  const read = (selector: string) =>
    Array.from(document.querySelectorAll<HTMLAnchorElement>(selector)).map((a) => ({
      href: a.getAttribute('href') ?? '',
      text: (a.innerText || a.getAttribute('aria-label') || a.getAttribute('title') || '').split('\n')[0]?.trim() ?? '',
    }));
  return { table: read('main table a[href^="/"]'), breadcrumbs: read('main nav[aria-label="Breadcrumb"] a[href^="/"]') };
}

/** Runs in the page: what the page says beside the sidebar (its heading and top bar, its main area, an open sheet). */
function mainText(): string {
  const heading = document.querySelector('h1')?.closest('header');
  // A detail opened over a list (a sheet, ?id=…) is a dialog beside the main area.
  const dialogs = Array.from(document.querySelectorAll<HTMLElement>('[role="dialog"]')).map((dialog) => dialog.innerText);
  return [heading?.innerText ?? '', (document.querySelector('main') ?? document.body).innerText, ...dialogs].join('\n');
}

const DEAD_ENDS = [
  /\bNot found\b/i,
  /\bNo [^\n.]{1,40} found\b/,
  /\bundefined\b/,
  /\bNaN\b/,
  /\[object Object\]/,
  /Internal Server Error|TypeError|ReferenceError|Cannot read properties|Unexpected token|Something went wrong|An error occurred/,
];

/**
 * What is wrong with a page reached from `at` that should show `name`: it does not show it, or it shows a
 * dead end or an internal string. `emptyListAllowed`: spec §2's empty generic list ('No resources found')
 * is a page, not a dead end, when the sidebar leads to it (a list with no rows in the demo).
 */
function landingProblems(text: string, name: string, at: string, emptyListAllowed: boolean): string[] {
  const problems = name && !normal(text).includes(normal(name)) ? [`${at}: the page does not show "${name}"`] : [];
  for (const pattern of DEAD_ENDS) {
    const hit = text.match(pattern)?.[0];
    if (hit && !(emptyListAllowed && hit === 'No resources found')) problems.push(`${at}: shows "${hit}"`);
  }
  return problems;
}

/** Runs in the page: the text that names a clickable row (its first cell with words in it). */
function rowName(row: HTMLElement): string {
  for (const cell of Array.from(row.querySelectorAll<HTMLElement>('td'))) {
    const text = (cell.innerText || '').split('\n')[0]?.trim() ?? '';
    if (/[A-Za-z]{2}/.test(text)) return text;
  }
  return '';
}

/** Runs in the page: whether a click changed the page (`before` its address) or opened a sheet or dialog. */
function opened(before: string): boolean {
  return window.location.href !== before || document.querySelector('[role="dialog"]') !== null;
}

/** A link's target by shape (ids and numbers replaced): one of each shape per page is enough. */
const shape = (href: string) => href.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id').replace(/\/\d+(?=\/|$|\?)/g, '/:n').replace(/\?.*$/, '');

async function settle(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 15_000 }).catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('main [aria-busy="true"], main [role="status"][aria-label^="Loading"], main .animate-pulse'), undefined, { timeout: 8000 })
    .catch(() => undefined);
  await page.waitForTimeout(150);
}

const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

describe('links', () => {
  // The demo writes a copy of the console's log in the first log root: this journey's own folder.
  const logRoot = mkdtempSync(path.join(os.tmpdir(), 'wk-e2e-links-logs-'));
  const journey = useJourney({ signIn: true, env: { WATCHKEEPER_DEMO: 'true', WATCHKEEPER_LOG_ROOTS: logRoot } });
  const url = (to: string) => `${journey.server().url}${to}`;

  afterAll(async () => {
    await fs.rm(logRoot, { recursive: true, force: true });
  });

  it('opens /logs on the demo backend with lines the console wrote', async () => {
    const page = journey.page();
    await page.goto(url('/logs'));
    const table = page.getByRole('table', { name: 'Log lines' });
    await table.locator('tbody tr').first().waitFor({ timeout: 20_000 });
    await table.getByText('Demo data:', { exact: false }).first().waitFor();
    expect(await page.getByText('No log lines found').count()).toBe(0);
  });

  it('follows sidebar, table and breadcrumb links, and the first clickable row of each list, to pages that show what they name', async () => {
    const page = journey.page();
    // The demo scrapes its catalog and runs its checks just after start: wait for rows, or the tables are empty.
    await expect
      .poll(async () => ((await (await page.request.get(url('/api/db/config_items?select=id&limit=1'))).json()) as unknown[]).length, { timeout: 60_000, interval: 500 })
      .toBeGreaterThan(0);
    await page.goto(url('/settings/connections'));
    const nav = page.getByRole('navigation', { name: 'Areas' });
    await nav.getByRole('list', { name: 'Settings' }).waitFor();
    const sidebar: Link[] = await nav.locator('a[href^="/"]').evaluateAll((links) =>
      links.map((a) => ({ href: a.getAttribute('href') ?? '', text: ((a as HTMLElement).innerText || a.getAttribute('aria-label') || '').split('\n')[0]?.trim() ?? '', from: 'sidebar' })),
    );
    expect(sidebar.length).toBeGreaterThan(5);

    const queue: Link[] = [...sidebar];
    const seen = new Set<string>();
    const failures: string[] = [];
    let followed = 0;
    let reported = 0;
    const rowsClicked: string[] = [];
    while (queue.length > 0 && followed < LINK_LIMIT) {
      const link = queue.shift() as Link;
      if (seen.has(link.href)) continue;
      seen.add(link.href);
      followed += 1;
      const at = `${link.from} → "${link.text}" (${link.href})`;
      await page.goto(url(link.href));
      await settle(page);
      failures.push(...landingProblems(await page.evaluate(mainText), link.text, at, link.from === 'sidebar'));
      if (failures.length > reported) console.log(failures.slice(reported).join('\n'));
      reported = failures.length;
      const found = await page.evaluate(collect);
      const from = new URL(page.url()).pathname;
      // Links of list pages reached from the sidebar; breadcrumbs of every page.
      if (link.from === 'sidebar') {
        const shapes = new Set<string>();
        for (const next of found.table) {
          if (shapes.size >= TABLE_LINKS_PER_PAGE || seen.has(next.href) || shapes.has(shape(next.href))) continue;
          shapes.add(shape(next.href));
          queue.push({ ...next, from: `${from} table` });
        }
      }
      for (const next of found.breadcrumbs) if (!seen.has(next.href)) queue.push({ ...next, from: `${from} breadcrumb` });
      // A table whose rows open something on click: its first row (in the first group, when rows are grouped).
      const group = page.locator('main table tbody tr[aria-expanded="false"]').first();
      if (link.from === 'sidebar' && (await page.locator(CLICKABLE_ROW).count()) === 0 && (await group.count()) > 0) {
        await group.click();
        await page.locator(CLICKABLE_ROW).first().waitFor({ timeout: 5000 }).catch(() => undefined);
      }
      const row = page.locator(CLICKABLE_ROW).first();
      if (link.from === 'sidebar' && rowsClicked.length < ROW_LIMIT && (await row.count()) > 0) {
        const name = await row.evaluate(rowName);
        const before = page.url();
        const where = `${from} row "${name}"`;
        await row.click();
        const moved = await page.waitForFunction(opened, before, { timeout: 5000 }).then(
          () => true,
          () => false,
        );
        rowsClicked.push(`${from} → ${moved ? new URL(page.url()).pathname + new URL(page.url()).search : '(nothing)'}`);
        if (!moved) {
          failures.push(`${where}: the click opens nothing`);
        } else {
          await settle(page);
          failures.push(...landingProblems(await page.evaluate(mainText), name, `${where} (${page.url()})`, false));
        }
        if (failures.length > reported) console.log(failures.slice(reported).join('\n'));
        reported = failures.length;
      }
    }
    console.log(`links followed: ${followed}, left: ${queue.length}; beside the sidebar: ${[...seen].filter((href) => !sidebar.some((link) => link.href === href)).join(' ')}`);
    console.log(`rows clicked: ${rowsClicked.length}: ${rowsClicked.join('; ')}`);
    expect(rowsClicked.length).toBeGreaterThan(3);
    expect(failures).toEqual([]);
  }, 240_000);
});
