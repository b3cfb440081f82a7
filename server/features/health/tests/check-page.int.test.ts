import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/**
 * POST /api/health/checks (docs/HEALTH.md "The Health page's list"): the Health page's checks filtered,
 * tabbed, grouped, sorted and paged on the server, with the counts of tabs, groups and label values.
 */
let t: TestApp;
const MINUTE = 60_000;
const now = Date.now();

interface Seed {
  name: string;
  canary: 'alpha' | 'beta';
  labels: Record<string, string>;
  /** Outcomes of its results, oldest first, a minute apart; none: the check never ran. */
  results: boolean[];
  /** Each result's duration (ms). */
  duration: number;
}

// alpha (namespace prod): a00..a07; beta (namespace dev): b00..b04. team alternates, a03 and b01 fail.
const SEEDS: Seed[] = [
  ...Array.from({ length: 8 }, (_, i): Seed => ({ name: `a${String(i).padStart(2, '0')}`, canary: 'alpha', labels: { team: i % 2 === 0 ? 'red' : 'blue', critical: String(i < 2) }, results: i === 3 ? [true, false, false] : i === 7 ? [] : [true, true, true], duration: 100 + i * 10 })),
  ...Array.from({ length: 5 }, (_, i): Seed => ({ name: `b${String(i).padStart(2, '0')}`, canary: 'beta', labels: { team: 'green', ...(i < 2 ? { region: 'eu' } : {}) }, results: i === 1 ? [false, false] : [true, true], duration: 500 - i * 50 })),
];
const ids = new Map<string, string>();

beforeAll(async () => {
  t = await createTestApp();
  const canaries = new Map<string, string>();
  for (const [name, namespace] of [['alpha', 'prod'], ['beta', 'dev']] as const) {
    const { rows } = await t.db.pool.query<{ id: string }>(`INSERT INTO canaries (name, namespace) VALUES ($1, $2) RETURNING id`, [name, namespace]);
    canaries.set(name, rows[0]?.id ?? '');
  }
  for (const seed of SEEDS) {
    const last = seed.results.at(-1);
    const status = last === undefined ? null : last ? 'healthy' : 'unhealthy';
    const namespace = seed.canary === 'alpha' ? 'prod' : 'dev';
    const { rows } = await t.db.pool.query<{ id: string }>(
      `INSERT INTO checks (canary_id, key, type, name, namespace, labels, status, last_transition_time) VALUES ($1, $2, 'tcp', $3, $4, $5, $6, $7) RETURNING id`,
      [canaries.get(seed.canary), `tcp/${seed.name}`, seed.name, namespace, seed.labels, status, status === 'unhealthy' ? new Date(now - 2 * MINUTE) : null],
    );
    const id = rows[0]?.id ?? '';
    ids.set(seed.name, id);
    for (const [k, passed] of seed.results.entries()) {
      await t.db.pool.query('INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, $3, $4)', [id, new Date(now - (seed.results.length - k) * MINUTE), passed, seed.duration]);
    }
  }
});

afterAll(async () => {
  await t?.close();
});

interface Answer {
  checks: Array<{ id: string; name: string; status: string | null; latency: { p95: number | null }; uptime: { passed: number; failed: number }; recent_statuses?: { time: number[]; status: boolean[] } }>;
  total: number;
  page: number;
  pageSize: number;
  tabs: { all: number; values: Array<{ value: string; count: number }> };
  groups?: { total: number; items: Array<{ key: string; count: number; status: string; passing: number; latency: number | null }> };
  labels: Array<{ key: string; values: string[]; boolean: boolean }>;
  pivot?: {
    rows: string[];
    columns: string[];
    totalRows: number;
    totalColumns: number;
    cells: Array<{ row: number; column: number; count: number; status: string; passed: number; failed: number; latency: number | null; checks: Array<{ id: string; name: string; status: string | null }> }>;
  };
  source: string;
  message?: string;
}

async function page(body: Record<string, unknown>, headers: Record<string, string> = t.adminHeaders) {
  const res = await t.app.inject({ method: 'POST', url: '/api/health/checks', headers: { ...headers, 'content-type': 'application/json' }, payload: body });
  return { status: res.statusCode, json: res.json<Answer>() };
}

const names = (answer: Answer) => answer.checks.map((check) => check.name);

describe('the Health page list', () => {
  it('answers one page of checks sorted by name with the total and every tab, and each check its strip', async () => {
    const { status, json } = await page({ pageSize: 5, tabBy: 'namespace' });
    expect(status).toBe(200);
    expect(names(json)).toEqual(['a00', 'a01', 'a02', 'a03', 'a04']);
    expect(json.total).toBe(13);
    expect(json.tabs).toEqual({ all: 13, values: [{ value: 'dev', count: 5 }, { value: 'prod', count: 8 }] });
    const a03 = json.checks[3];
    expect(a03?.recent_statuses?.status).toEqual([false, false, true]);
    expect(a03?.uptime).toMatchObject({ passed: 1, failed: 2 });
    expect(json.source).toBe('raw');

    const next = await page({ pageSize: 5, page: 2 });
    expect(names(next.json)).toEqual(['b02', 'b03', 'b04']);
    expect(next.json.page).toBe(2);
  });

  it('sorts by each column, either way, missing values last', async () => {
    expect(names((await page({ sortBy: 'name', sortDesc: true, pageSize: 3 })).json)).toEqual(['b04', 'b03', 'b02']);
    // Problems first; a07 never ran: unknown last.
    const byHealth = names((await page({ sortBy: 'status' })).json);
    expect(byHealth.slice(0, 2)).toEqual(['a03', 'b01']);
    expect(byHealth.at(-1)).toBe('a07');
    const latency = (await page({ sortBy: 'latency', sortDesc: true })).json.checks;
    expect(latency.map((check) => check.name).slice(0, 2)).toEqual(['b00', 'b01']);
    expect(latency.at(-1)?.name).toBe('a07');
    const p95s = latency.flatMap((check) => (check.latency.p95 === null ? [] : [check.latency.p95]));
    expect(p95s).toEqual([...p95s].sort((a, b) => b - a));
    const uptime = names((await page({ sortBy: 'uptime' })).json);
    expect(uptime.slice(0, 2)).toEqual(['b01', 'a03']);
    expect(uptime.at(-1)).toBe('a07');
    expect(names((await page({ sortBy: 'last_transition_time', sortDesc: true, pageSize: 2 })).json)).toEqual(['a03', 'b01']);
  });

  it('filters by search, hide passing, labels and tab, and counts the tabs after the filters', async () => {
    expect(names((await page({ query: 'canary=beta' })).json)).toEqual(['b00', 'b01', 'b02', 'b03', 'b04']);
    const failing = (await page({ hidePassing: true })).json;
    expect(names(failing)).toEqual(['a03', 'a07', 'b01']);
    // Included values of one key are alternatives; an excluded value drops.
    const teams = (await page({ labels: [{ key: 'team', value: 'red', state: 1 }, { key: 'team', value: 'green', state: 1 }, { key: 'region', value: 'eu', state: -1 }] })).json;
    expect(names(teams)).toEqual(['a00', 'a02', 'a04', 'a06', 'b02', 'b03', 'b04']);
    expect(teams.tabs).toEqual({ all: 7, values: [{ value: 'dev', count: 3 }, { value: 'prod', count: 4 }] });
    // Label options stay those of every check the search matches, whatever the label filters.
    expect(teams.labels).toEqual([
      { key: 'critical', values: ['false', 'true'], boolean: true },
      { key: 'region', values: ['eu'], boolean: false },
      { key: 'team', values: ['blue', 'green', 'red'], boolean: false },
    ]);
    const tab = (await page({ tabBy: 'namespace', tab: 'dev', labels: [{ key: 'team', value: 'green', state: 1 }] })).json;
    expect(names(tab)).toEqual(['b00', 'b01', 'b02', 'b03', 'b04']);
    expect(tab.total).toBe(5);
    const byLabel = (await page({ tabBy: 'team', tab: 'blue' })).json;
    expect(names(byLabel)).toEqual(['a01', 'a03', 'a05', 'a07']);
    expect(byLabel.tabs.values).toEqual([{ value: 'blue', count: 4 }, { value: 'green', count: 5 }, { value: 'red', count: 4 }]);
  });

  it("groups on the server: a page of groups with their counts, then a group's own page of checks", async () => {
    const grouped = (await page({ groupBy: 'canary_name' })).json;
    expect(grouped.checks).toEqual([]);
    expect(grouped.total).toBe(13);
    expect(grouped.groups).toEqual({
      total: 2,
      items: [
        { key: 'alpha', count: 8, status: 'mixed', passing: 6, latency: expect.any(Number), last_transition_time: expect.any(String) },
        { key: 'beta', count: 5, status: 'mixed', passing: 4, latency: expect.any(Number), last_transition_time: expect.any(String) },
      ],
    });
    expect(names((await page({ groupBy: 'canary_name', sortDesc: true, pageSize: 1 })).json)).toEqual([]);
    expect((await page({ groupBy: 'canary_name', sortDesc: true, pageSize: 1 })).json.groups?.items.map((group) => group.key)).toEqual(['beta']);
    const beta = (await page({ groupBy: 'canary_name', group: 'beta', pageSize: 2, page: 1 })).json;
    expect(names(beta)).toEqual(['b02', 'b03']);
    expect(beta.total).toBe(5);
    expect(beta.groups).toBeUndefined();
    // A label as the group: checks without it fall in '(none)'.
    const regions = (await page({ groupBy: 'region' })).json.groups?.items;
    expect(regions).toEqual([expect.objectContaining({ key: '(none)', count: 11 }), expect.objectContaining({ key: 'eu', count: 2, status: 'mixed' })]);
    expect(names((await page({ groupBy: 'region', group: 'eu' })).json)).toEqual(['b00', 'b01']);
    // Ungrouped explicitly: checks.
    expect((await page({ groupBy: 'no-group', pageSize: 1 })).json.checks).toHaveLength(1);
  });

  it('lets a viewer read it, not a visitor who is signed out nor a person without a role', async () => {
    const viewer = await t.userWith(['viewer']);
    expect((await page({}, viewer.headers)).status).toBe(200);
    expect((await page({}, {})).status).toBe(401);
    const nobody = await t.userWith([]);
    expect((await page({}, nobody.headers)).status).toBe(403);
  });

  it('refuses a bad parameter with 400 naming it', async () => {
    for (const [body, field] of [
      [{ sortBy: 'colour' }, 'sortBy'],
      [{ pageSize: 0 }, 'pageSize'],
      [{ pageSize: 100_000 }, 'pageSize'],
      [{ page: -1 }, 'page'],
      [{ start: 'yesterday-ish' }, 'start'],
      [{ labels: [{ key: 'team', value: 'red', state: 2 }] }, 'labels'],
      [{ groupBy: '__proto__' }, 'groupBy'],
      [{ pivotBy: '__proto__' }, 'pivotBy'],
      [{ pivotBy: 'no-group' }, 'pivotBy'],
      [{ pivotLabel: 'team' }, 'pivotLabel'],
      [{ pivotBy: 'team', pivotLabel: '' }, 'pivotLabel'],
      [{ pivotCell: { row: 'a', column: 'b' } }, 'pivotCell'],
      [{ pivotBy: 'team', pivotCell: { row: 'a' } }, 'pivotCell'],
      [{ colour: 'blue' }, 'colour'],
    ] as const) {
      const { status, json } = await page(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(json.message, JSON.stringify(body)).toContain(field);
    }
  });
});

describe('the Health page pivot (docs/HEALTH.md "Pivot")', () => {
  /** The cells as `row/column` → the cell, for reading. */
  const cellsOf = (answer: Answer) => new Map((answer.pivot?.cells ?? []).map((cell) => [`${answer.pivot?.rows[cell.row]}/${answer.pivot?.columns[cell.column]}`, cell]));

  it('answers the grid of every filtered check, sorted, each cell summed up with its first checks', async () => {
    const { status, json } = await page({ pivotBy: 'canary_name', pivotLabel: 'team' });
    expect(status).toBe(200);
    expect(json.checks).toEqual([]);
    expect(json.total).toBe(13);
    expect(json.pivot).toMatchObject({ rows: ['alpha', 'beta'], columns: ['blue', 'green', 'red'], totalRows: 2, totalColumns: 3 });
    const cells = cellsOf(json);
    expect([...cells.keys()]).toEqual(['alpha/blue', 'alpha/red', 'beta/green']);
    expect(cells.get('alpha/blue')).toMatchObject({ count: 4, status: 'mixed', passed: 7, failed: 2 });
    expect(cells.get('alpha/blue')?.checks.map((check) => check.name)).toEqual(['a01', 'a03', 'a05', 'a07']);
    expect(cells.get('alpha/blue')?.checks[1]).toEqual({ id: ids.get('a03'), name: 'a03', status: 'unhealthy' });
    // The slowest p95 of the cell's checks, as the list gives each check's.
    const slowest = async (team: string) => (await page({ labels: [{ key: 'team', value: team, state: 1 }], sortBy: 'latency', sortDesc: true, pageSize: 1 })).json.checks[0]?.latency.p95;
    expect(cells.get('alpha/red')).toMatchObject({ count: 4, status: 'healthy', passed: 12, failed: 0, latency: await slowest('red') });
    expect(cells.get('beta/green')).toMatchObject({ count: 5, status: 'mixed', passed: 8, failed: 2, latency: await slowest('green') });
    // Without pivotLabel: one column; a label without a value falls in '(none)', last.
    const regions = (await page({ pivotBy: 'region' })).json.pivot;
    expect(regions).toMatchObject({ rows: ['eu', '(none)'], columns: ['All'] });
    expect(regions?.cells.map((cell) => cell.count)).toEqual([2, 11]);
  });

  it('is built from what the list would show: search, hide passing, labels and the tab', async () => {
    const failing = (await page({ pivotBy: 'canary_name', pivotLabel: 'team', hidePassing: true })).json;
    expect([...cellsOf(failing).entries()].map(([key, cell]) => [key, cell.checks.map((check) => check.name)])).toEqual([
      ['alpha/blue', ['a03', 'a07']],
      ['beta/green', ['b01']],
    ]);
    const red = (await page({ pivotBy: 'canary_name', labels: [{ key: 'team', value: 'red', state: 1 }] })).json;
    expect(red.pivot).toMatchObject({ rows: ['alpha'], columns: ['All'], cells: [{ count: 4 }] });
    const dev = (await page({ pivotBy: 'team', tabBy: 'namespace', tab: 'dev' })).json;
    expect(dev.pivot?.rows).toEqual(['green']);
    expect(dev.tabs.all).toBe(13);
    expect((await page({ pivotBy: 'type', query: 'canary=beta' })).json.pivot?.cells).toMatchObject([{ count: 5 }]);
  });

  it("pages one cell's checks in the list's order", async () => {
    const cell = (await page({ pivotBy: 'canary_name', pivotLabel: 'team', pivotCell: { row: 'beta', column: 'green' }, pageSize: 2, page: 1 })).json;
    expect(names(cell)).toEqual(['b02', 'b03']);
    expect(cell.total).toBe(5);
    expect(cell.pivot).toBeUndefined();
    const none = (await page({ pivotBy: 'region', pivotCell: { row: '(none)', column: 'All' }, sortBy: 'name', sortDesc: true, pageSize: 3 })).json;
    expect(names(none)).toEqual(['b04', 'b03', 'b02']);
    expect(none.total).toBe(11);
  });
});
