// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderInShell, signedIn } from '@web/app/test-utils';
import AgentsPage from './agents-page';
import { LOCAL_AGENT_ID } from './schema';

const LOCAL = {
  id: LOCAL_AGENT_ID,
  name: 'local',
  description: 'This instance',
  properties: {},
  hostname: null,
  version: '0.1.0 (6b47328)',
  last_seen: null,
  last_received: null,
  created_at: '2026-01-01T00:00:00.000Z',
  health: 'online',
  local: true,
  checks: 4,
  configs: 12,
  canaries: 2,
  scrapers: 1,
  topologies: 0,
};

const JOB = {
  id: 'j1',
  name: 'CanaryRun',
  agent_id: LOCAL_AGENT_ID,
  agent: { id: LOCAL_AGENT_ID, name: 'local' },
  resource_type: 'canary',
  resource_id: 'c1',
  resource_name: 'web',
  status: 'SUCCESS',
  success_count: 1,
  error_count: 0,
  details: null,
  hostname: null,
  duration_millis: 120,
  time_start: '2026-01-01T00:00:00.000Z',
  time_end: '2026-01-01T00:00:00.120Z',
  created_at: '2026-01-01T00:00:00.000Z',
};

function serve() {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      paths.push(`${url.pathname}${url.search}`);
      const json = (body: unknown, headers: Record<string, string> = {}) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });
      if (url.pathname === '/api/db/properties') return json([]);
      // No remote agent: the page says 'No agents yet' under the sheet.
      if (url.pathname === '/api/db/agents_summary') return json([], { 'content-range': '*/0' });
      if (url.pathname === '/api/agent/local') return json(LOCAL);
      if (url.pathname === '/api/db/job_histories') return json([JOB], { 'content-range': '0-0/1' });
      return new Response(JSON.stringify({ error: 'not_found', message: `${url.pathname} is not scripted` }), { status: 404 });
    }),
  );
  return paths;
}

describe('/settings/agents?id=<nil uuid> (issue 38: Jobs History links local runs there)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the local agent: this instance, online, its version, what it runs and its job runs; it cannot be deleted', async () => {
    const paths = serve();
    // An admin, who may delete agents: the local one still has no Delete.
    renderInShell(<AgentsPage />, {
      path: `/settings/agents?id=${LOCAL_AGENT_ID}`,
      sessionSource: signedIn({ permissions: { agents: ['read', 'create', 'update', 'delete'], agent_tokens: ['create'], database: ['read'] } }),
    });
    const sheet = await screen.findByRole('dialog', { name: 'Agent local' });
    expect(within(sheet).getByText('This instance')).toBeTruthy();
    expect(within(sheet).getByText('0.1.0 (6b47328)')).toBeTruthy();
    expect(within(sheet).getByText('Online')).toBeTruthy();
    const resources = within(sheet).getByRole('region', { name: 'Resources' });
    expect(within(resources).getByText('Configs').nextSibling?.textContent).toBe('12');
    expect(await within(sheet).findByText('CanaryRun')).toBeTruthy();
    expect(within(sheet).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByText(/No agent found/)).toBeNull();
    expect(paths).toContain('/api/agent/local');
    expect(paths.some((path) => path.startsWith('/api/db/job_histories?') && path.includes(`agent_id=eq.${LOCAL_AGENT_ID}`))).toBe(true);
  });
});
