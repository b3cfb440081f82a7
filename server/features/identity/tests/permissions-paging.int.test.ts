import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app';

/**
 * Issue 38 item 6. Spec §7 says /permissions and /permissions_summary are "paged; answers data and
 * totalEntries", and, for every database list call, that the console "asks for count=exact and reads the
 * total from the content-range header". So data and totalEntries are what the client makes of one answer —
 * the rows of a bare JSON list, and the total of its Content-Range — as upstream's console does
 * (flanksource-ui's resolvePostGrestRequestWithPagination). The answer itself is never an envelope: with or
 * without the header, a postgrest-js or PostgREST client reading a list keeps working.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  for (const description of ['p0', 'p1', 'p2']) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/db/permissions',
      headers: { ...t.adminHeaders, 'content-type': 'application/json' },
      payload: { action: 'read', object: 'canaries', subject: 'editor', subject_type: 'group', description },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
});
afterAll(async () => {
  await t?.close();
});

async function page(relation: string, query: string, headers: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url: `/api/db/${relation}?select=description&order=description${query}`, headers: { ...t.adminHeaders, ...headers } });
  const body: unknown = res.json();
  return { status: res.statusCode, range: res.headers['content-range'], body };
}

describe.each(['permissions_summary', 'permissions'])('/api/db/%s paged (spec §7)', (relation) => {
  it('answers the page as a bare list and the total (totalEntries) in Content-Range with Prefer: count=exact', async () => {
    const first = await page(relation, '&limit=2&offset=0', { prefer: 'count=exact' });
    expect(first).toEqual({ status: 206, range: '0-1/3', body: [{ description: 'p0' }, { description: 'p1' }] });
    const last = await page(relation, '&limit=2&offset=2', { prefer: 'count=exact' });
    expect(last).toEqual({ status: 206, range: '2-2/3', body: [{ description: 'p2' }] });
  });

  it('pages by a Range header as well', async () => {
    expect(await page(relation, '', { prefer: 'count=exact', range: '1-2', 'range-unit': 'items' })).toEqual({
      status: 206,
      range: '1-2/3',
      body: [{ description: 'p1' }, { description: 'p2' }],
    });
  });

  it('answers the whole list with its total as 200', async () => {
    expect(await page(relation, '', { prefer: 'count=exact' })).toEqual({ status: 200, range: '0-2/3', body: [{ description: 'p0' }, { description: 'p1' }, { description: 'p2' }] });
  });

  it('without the count, still a bare list, the total left open', async () => {
    expect(await page(relation, '&limit=2', {})).toEqual({ status: 200, range: '0-1/*', body: [{ description: 'p0' }, { description: 'p1' }] });
  });
});
