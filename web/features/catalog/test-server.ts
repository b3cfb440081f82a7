import { vi } from 'vitest';

/** A fake /api for the catalog's component tests: each relation or endpoint answers from a map. */
export interface FakeCatalog {
  /** Answers by path after /api/db (e.g. 'config_detail', 'rpc/get_parents_by_location'), or by /api path. */
  [path: string]: unknown[] | ((url: URL, body: unknown) => unknown);
}

export interface Call {
  path: string;
  url: URL;
  body: unknown;
}

export function fakeCatalog(answers: FakeCatalog): Call[] {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\/db\//, '');
    const body: unknown = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, url, body });
    const answer = Object.hasOwn(answers, path) ? answers[path] : Object.hasOwn(answers, url.pathname) ? answers[url.pathname] : [];
    const data = typeof answer === 'function' ? answer(url, body) : answer;
    const rows = Array.isArray(data) ? data.length : 1;
    return new Response(JSON.stringify(data), { status: 200, headers: { 'content-type': 'application/json', 'content-range': `0-${Math.max(0, rows - 1)}/${rows}` } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export const CONFIG_ID = '11111111-2222-4333-8444-555555555555';
export const PARENT_ID = '99999999-2222-4333-8444-555555555555';

export function detailRow(overrides: Record<string, unknown> = {}) {
  return {
    id: CONFIG_ID,
    name: 'web',
    type: 'Kubernetes::Deployment',
    config_class: 'Deployment',
    namespace: 'shop',
    description: null,
    status: '1/2 ready',
    health: 'warning',
    ready: false,
    source: 'file',
    labels: { app: 'web' },
    tags: { zone: 'a', name: 'web', cluster: 'c1', namespace: 'shop', account: 'acme' },
    external_id: ['dep-1'],
    config: { kind: 'Deployment', spec: { replicas: 2 } },
    parent_id: PARENT_ID,
    scraper: { id: 'aaaaaaaa-2222-4333-8444-555555555555', name: 'k8s', namespace: 'default' },
    summary: { relationships: 3, analysis: 1, changes: 2, checks: 0 },
    created_at: '2024-05-01T10:00:00Z',
    updated_at: '2024-05-02T10:00:00Z',
    last_scraped_time: '2024-05-02T10:00:00Z',
    deleted_at: null,
    delete_reason: null,
    ...overrides,
  };
}
