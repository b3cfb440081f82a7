import { PostgrestClient } from '@supabase/postgrest-js';
import { describe, expect, it, vi } from 'vitest';
import { parseCatalogFilters } from './filters';
import { buildConfigsQuery, summaryBody, type ListQuery } from './query';

function listQuery(query: string, showDeleted = false): ListQuery {
  const { view: _view, groupBy: _groupBy, showDeleted: _deleted, ...rest } = parseCatalogFilters(new URLSearchParams(query));
  return { ...rest, showDeleted };
}

async function requestOf(query: string, showDeleted = false) {
  const fetch = vi.fn<typeof globalThis.fetch>(async () => new Response('[]', { status: 200, headers: { 'content-range': '*/0' } }));
  const client = new PostgrestClient('http://db.test', { fetch });
  await buildConfigsQuery(client, listQuery(query, showDeleted));
  const [input, init] = fetch.mock.calls[0] ?? [];
  const url = new URL(String(input));
  return { params: [...url.searchParams.entries()], path: url.pathname, headers: new Headers(init?.headers) };
}

describe('buildConfigsQuery', () => {
  it('asks configs for one page with an exact count, sorted by name then id', async () => {
    const { params, path, headers } = await requestOf('type=Kubernetes::Pod&pageIndex=2&pageSize=25');
    expect(path).toBe('/configs');
    expect(headers.get('prefer')).toContain('count=exact');
    expect(params).toEqual([
      ['select', 'id,name,type,status,health,tags,labels,changes,analysis,agent_id,created_at,updated_at,deleted_at'],
      ['type', 'eq.Kubernetes::Pod'],
      ['order', 'name.asc.nullslast,id.asc'],
      ['offset', '50'],
      ['limit', '25'],
    ]);
  });

  it('filters by agent (issue 23): the list by agent_id, the summary with filter.agent_id', async () => {
    const { params } = await requestOf('agent=00000000-0000-0000-0000-000000000000');
    expect(params).toContainEqual(['agent_id', 'eq.00000000-0000-0000-0000-000000000000']);
    const filters = parseCatalogFilters(new URLSearchParams('agent=a1'));
    expect(summaryBody(filters, false).filter).toEqual({ agent_id: ['a1'] });
    expect(summaryBody(parseCatalogFilters(new URLSearchParams('')), false).filter).toEqual({});
  });

  it('turns included and excluded values into filters that keep items without a value when excluding', async () => {
    const { params } = await requestOf('health=unhealthy,!healthy&status=!Running');
    expect(params).toContainEqual(['health', 'in.(unhealthy)']);
    expect(params).toContainEqual(['or', '(health.is.null,health.not.in.("healthy"))']);
    expect(params).toContainEqual(['or', '(status.is.null,status.not.in.("Running"))']);
  });

  it("lets 'unknown' health mean no health too", async () => {
    expect((await requestOf('health=unknown')).params).toContainEqual(['or', '(health.in.("unknown"),health.is.null)']);
    expect((await requestOf('health=!unknown')).params).toContainEqual(['health', 'not.in.("unknown")']);
  });

  it('matches tags per key (values of one key are alternatives) and excludes by containment', async () => {
    const { params } = await requestOf('tags=namespace=shop:1,namespace=web:1,env=dev:-1&labels=app=api:1');
    expect(params).toContainEqual(['tags->>namespace', 'in.(shop,web)']);
    expect(params).toContainEqual(['tags', 'not.cs.{"env":"dev"}']);
    expect(params).toContainEqual(['labels->>app', 'in.(api)']);
  });

  it('searches the name word by word and shows deleted items when asked', async () => {
    const { params } = await requestOf('search=web%20100%25', true);
    expect(params).toContainEqual(['name', 'ilike.*web*']);
    expect(params).toContainEqual(['name', 'ilike.*100\\%*']);
    expect(params).toContainEqual(['or', '(deleted_at.is.null,deleted_at.not.is.null)']);
  });
});

describe('summaryBody', () => {
  it('groups by type with no filters by default', () => {
    expect(summaryBody(parseCatalogFilters(new URLSearchParams('')), false)).toEqual({ groupBy: ['type'], filter: {}, deleted: false });
  });

  it('passes the filters in the summary API format', () => {
    const filters = parseCatalogFilters(new URLSearchParams('groupBy=namespace&health=unhealthy,!healthy&tags=env=dev:-1,env=prod:1&search=web'));
    expect(summaryBody(filters, true)).toEqual({
      groupBy: ['namespace'],
      filter: { health: ['unhealthy', '!healthy'], tags: { env: ['!dev', 'prod'] }, search: 'web' },
      deleted: true,
    });
  });
});
