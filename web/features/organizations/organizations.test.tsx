// @vitest-environment jsdom
import { QueryClient, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { SessionGate } from '@web/app/layout/app-layout';
import { Providers } from '@web/app/providers';
import { sessionQueryKey, useSession, type SessionOrganization, type SessionSource, type SessionUser } from '@web/app/session';
import { parseWhoami } from '@web/features/identity/whoami';
import { api } from '@web/lib/api';
import { db } from '@web/lib/db';
import { OrganizationChooser } from './organization-chooser';
import { OrganizationSwitcher } from './organization-switcher';
import OrgsSwitchedPage from './pages/orgs-switched-page';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ Toaster: () => null, toast: { ...toasts, loading: vi.fn(), dismiss: vi.fn() } }));

const ACME: SessionOrganization = { id: '11111111-1111-4111-8111-111111111111', name: 'Acme', hasBackendUrl: false, direct: false };
const GLOBEX: SessionOrganization = { id: '22222222-2222-4222-8222-222222222222', name: 'Globex', hasBackendUrl: true, direct: false };

function person(hosted: SessionUser['hosted']): SessionUser {
  return { id: 'u1', name: 'Olivia', roles: ['viewer'], permissions: {}, ...(hosted ? { hosted } : {}) };
}

function source(user: SessionUser, signOut = vi.fn(async () => undefined)): SessionSource & { load: ReturnType<typeof vi.fn> } {
  return { load: vi.fn(async () => user), signOut };
}

/** The fake server: POST /api/auth/organization answers `status`; every call is kept. */
function stubServer(status = 200) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({ url, method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const body = status === 200 ? { organization: {} } : { error: 'forbidden', message: 'id: you are not a member of organization x' };
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return calls;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(path: string, element: React.ReactNode, sessionSource: SessionSource, queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  render(
    <Providers queryClient={queryClient} sessionSource={sessionSource}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/organizations/orgs-switched" element={<Where />} />
          <Route path="*" element={element} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
  return queryClient;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('whoami in hosted mode', () => {
  it('reads the organization and the memberships; without them (built-in accounts) there is no hosted part', () => {
    const base = { user: { id: 'u1', name: 'Olivia' }, roles: [], permissions: {} };
    const wire = (organization: SessionOrganization) => ({ id: organization.id, name: organization.name, has_backend_url: organization.hasBackendUrl, direct: organization.direct, role: null, external_id: 'x' });
    expect(parseWhoami({ ...base, organization: wire(GLOBEX), organizations: [wire(ACME), wire(GLOBEX)], organization_role: 'viewer' }).hosted).toEqual({
      organization: GLOBEX,
      organizations: [ACME, GLOBEX],
      role: 'viewer',
    });
    expect(parseWhoami({ ...base, organization: null, organizations: [], organization_role: null }).hosted).toEqual({ organization: null, organizations: [], role: null });
    expect(parseWhoami(base).hosted).toBeUndefined();
    // Platform administrators (issue 35): said in both modes, absent (false) otherwise.
    expect(parseWhoami({ ...base, platform_admin: true }).platformAdmin).toBe(true);
    expect(parseWhoami({ ...base, platform_admin: false }).platformAdmin).toBeUndefined();
  });
});

describe('organization switcher', () => {
  it('shows nothing with the built-in accounts', async () => {
    const load = source(person(undefined));
    renderAt('/health', <><OrganizationSwitcher /><span>page</span></>, load);
    await screen.findByText('page');
    await waitFor(() => expect(load.load).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: /^Organization/ })).toBeNull();
  });

  it('names the current organization, lists only the person’s organizations, and switches to another', async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderAt('/health?tab=x', <OrganizationSwitcher />, source(person({ organization: ACME, organizations: [ACME, GLOBEX] })));
    await user.click(await screen.findByRole('button', { name: 'Organization: Acme' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Acme', 'Globex']);
    expect(items[0]?.getAttribute('aria-current')).toBe('true');
    expect(items[1]?.getAttribute('aria-current')).toBeNull();
    await user.click(screen.getByRole('menuitem', { name: 'Globex' }));
    expect((await screen.findByTestId('where')).textContent).toBe(`/organizations/orgs-switched?return_to=${encodeURIComponent('/health?tab=x')}`);
    expect(calls).toEqual([{ url: '/api/auth/organization', method: 'POST', body: { id: GLOBEX.id } }]);
  });

  it('stays and says why when the server refuses the choice', async () => {
    stubServer(403);
    const user = userEvent.setup();
    renderAt('/health', <OrganizationSwitcher />, source(person({ organization: ACME, organizations: [ACME, GLOBEX] })));
    await user.click(await screen.findByRole('button', { name: 'Organization: Acme' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Globex' }));
    await waitFor(() => expect(toasts.error).toHaveBeenCalled());
    expect(screen.queryByTestId('where')).toBeNull();
  });
});

describe('organization chooser', () => {
  it('takes the place of the page while none is chosen, and chooses', async () => {
    const calls = stubServer();
    const user = userEvent.setup();
    renderAt('/incidents', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(person({ organization: null, organizations: [ACME, GLOBEX] })));
    await screen.findByRole('heading', { name: 'Choose an organization' });
    expect(screen.queryByText('the page')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Acme' }));
    expect((await screen.findByTestId('where')).textContent).toBe(`/organizations/orgs-switched?return_to=${encodeURIComponent('/incidents')}`);
    expect(calls[0]?.body).toEqual({ id: ACME.id });
  });

  it('lets the page through once one is chosen', async () => {
    renderAt('/incidents', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(person({ organization: ACME, organizations: [ACME] })));
    await screen.findByText('the page');
  });

  it('tells a person of no organization so, with a way to sign out', async () => {
    const signOut = vi.fn(async () => undefined);
    const user = userEvent.setup();
    renderAt('/incidents', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(person({ organization: null, organizations: [] }), signOut));
    await screen.findByRole('heading', { name: 'No organization' });
    expect(screen.getByText(/You are not a member of any organization\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(signOut).toHaveBeenCalledWith('/incidents');
  });

  it('offers a platform administrator in no organization Settings → Organizations, and lets that page through', async () => {
    const platform = { ...person({ organization: null, organizations: [ACME] }), roles: ['viewer'], platformAdmin: true };
    renderAt('/incidents', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(platform));
    await screen.findByRole('heading', { name: 'Choose an organization' });
    expect(screen.queryByText('the page')).toBeNull();
    expect(screen.getByRole('link', { name: 'Manage organizations' }).getAttribute('href')).toBe('/settings/organizations');
    cleanup();
    renderAt('/settings/organizations', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(platform));
    expect(await screen.findByText('the page')).toBeTruthy();
  });

  it('offers the console’s admin who is no platform administrator nothing to manage (the server would answer 403)', async () => {
    const admin = { ...person({ organization: null, organizations: [] }), roles: ['admin'] };
    renderAt('/incidents', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(admin));
    await screen.findByRole('heading', { name: 'No organization' });
    expect(screen.queryByRole('link', { name: 'Manage organizations' })).toBeNull();
    expect(screen.getByText(/Ask an administrator of your organization to invite you/)).toBeTruthy();
    cleanup();
    renderAt('/settings/organizations', <SessionGate loading={<p>loading</p>}><p>the page</p></SessionGate>, source(admin));
    await screen.findByRole('heading', { name: 'No organization' });
    expect(screen.queryByText('the page')).toBeNull();
  });

  it('renders without a sign-out when the session has none', () => {
    render(
      <Providers queryClient={new QueryClient()} sessionSource={undefined}>
        <MemoryRouter>
          <OrganizationChooser hosted={{ organization: null, organizations: [] }} signOut={undefined} />
        </MemoryRouter>
      </Providers>,
    );
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull();
  });
});

describe('/organizations/orgs-switched', () => {
  function CachedThing() {
    const query = useQuery({ queryKey: ['incidents'], queryFn: async () => 'cached incidents', staleTime: Infinity });
    return <p>{query.data}</p>;
  }

  function SessionOrganizationName() {
    const session = useSession();
    return <p data-testid="organization">{session.status === 'ready' ? session.user?.hosted?.organization?.name : session.status}</p>;
  }

  it('forgets every cached query, loads the session again, and goes on to return_to', async () => {
    // The shell read the session before the switch (Acme); whoami now names Globex.
    const session = source(person({ organization: GLOBEX, organizations: [ACME, GLOBEX] }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    queryClient.setQueryData(sessionQueryKey, person({ organization: ACME, organizations: [ACME, GLOBEX] }));
    queryClient.setQueryData(['incidents'], 'incidents of Acme');
    queryClient.setQueryData(['feature-flags'], { health: true });
    render(
      <Providers queryClient={queryClient} sessionSource={session}>
        <MemoryRouter initialEntries={[`/organizations/orgs-switched?return_to=${encodeURIComponent('/incidents?status=open')}`]}>
          <Routes>
            <Route path="/organizations/orgs-switched" element={<OrgsSwitchedPage />} />
            <Route path="/incidents" element={<><Where /><CachedThing /><SessionOrganizationName /></>} />
          </Routes>
        </MemoryRouter>
      </Providers>,
    );
    expect((await screen.findByTestId('where')).textContent).toBe('/incidents?status=open');
    await screen.findByText('cached incidents');
    expect(queryClient.getQueryData(['feature-flags'])).toBeUndefined();
    await waitFor(() => expect(screen.getByTestId('organization').textContent).toBe('Globex'));
    expect(session.load).toHaveBeenCalledTimes(1);
  });

  it('goes to / when return_to is another site', async () => {
    render(
      <Providers queryClient={new QueryClient()} sessionSource={source(person(undefined))}>
        <MemoryRouter initialEntries={['/organizations/orgs-switched?return_to=https%3A%2F%2Fevil.example.com%2F']}>
          <Routes>
            <Route path="/organizations/orgs-switched" element={<OrgsSwitchedPage />} />
            <Route path="/" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </Providers>,
    );
    expect((await screen.findByTestId('where')).textContent).toBe('/');
  });
});

describe('an organization lost mid-session', () => {
  /** Every request answers 403: with `details.id` organization_required (docs/HOSTED.md), or a plain refusal. */
  function refuseEverything(organizationRequired: boolean) {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        const body = organizationRequired
          ? { error: 'forbidden', message: 'choose an organization first: POST /api/auth/organization', details: { id: 'organization_required' } }
          : { error: 'forbidden', message: 'you may not read checks' };
        return new Response(JSON.stringify(body), { status: 403, headers: { 'content-type': 'application/json' } });
      }),
    );
  }

  function Page({ read }: { read: () => Promise<unknown> }) {
    const query = useQuery({ queryKey: ['things'], queryFn: read, retry: false });
    return <p>{query.isError ? 'the page failed' : 'the page'}</p>;
  }

  /** whoami names Acme first; read again, it names none (the person was removed from Acme). */
  function losingSource() {
    const load = vi.fn<SessionSource['load']>().mockResolvedValueOnce(person({ organization: ACME, organizations: [ACME, GLOBEX] })).mockResolvedValue(person({ organization: null, organizations: [GLOBEX] }));
    return { load };
  }

  const readers: Array<[string, () => Promise<unknown>]> = [
    ['the console API (api.ts)', () => api.get('/api/things', () => undefined)],
    [
      'the /api/db client',
      async () => {
        const { error } = await db.from('checks').select('id');
        if (error) throw new Error(error.message);
      },
    ],
  ];

  it.each(readers)('an organization_required answer from %s reads whoami again, and the chooser takes the place of the page', async (_name, read) => {
    refuseEverything(true);
    const sessionSource = losingSource();
    renderAt('/health', <SessionGate loading={<p>loading</p>}><Page read={read} /></SessionGate>, sessionSource);
    await screen.findByRole('heading', { name: 'Choose an organization' });
    expect(screen.queryByText(/the page/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Globex' })).toBeTruthy();
    expect(sessionSource.load).toHaveBeenCalledTimes(2);
  });

  it('another 403 is the page’s error: whoami is not read again', async () => {
    refuseEverything(false);
    const sessionSource = losingSource();
    renderAt('/health', <SessionGate loading={<p>loading</p>}><Page read={() => api.get('/api/things', () => undefined)} /></SessionGate>, sessionSource);
    await screen.findByText('the page failed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sessionSource.load).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('heading', { name: 'Choose an organization' })).toBeNull();
  });
});
