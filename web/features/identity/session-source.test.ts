import { afterEach, describe, expect, it, vi } from 'vitest';
import { SECOND_FACTOR_PENDING } from '@web/app/session';
import { createSessionSource } from './session-source';

function answers(map: Record<string, { status: number; body?: unknown }>) {
  const urls: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    const url = String(input);
    urls.push(url);
    const answer = map[url] ?? { status: 404, body: { error: 'not_found' } };
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status });
  });
  return urls;
}

const whoami = {
  user: { id: 'u1', name: 'Ada Admin', email: 'ada@example.com', avatar: null },
  roles: ['editor'],
  permissions: { canaries: ['read', 'create'], rbac: [], somethingNew: ['read'], incident: ['read', 'fly'] },
  teams: [],
};

describe('session source', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the signed-in person from /api/auth/whoami', async () => {
    answers({ '/api/auth/whoami': { status: 200, body: whoami } });
    await expect(createSessionSource().load()).resolves.toEqual({
      id: 'u1',
      name: 'Ada Admin',
      email: 'ada@example.com',
      roles: ['editor'],
      permissions: { canaries: ['read', 'create'], incident: ['read'] },
    });
  });

  it('answers nobody for 401, and a pending second factor for 403 session_aal2_required', async () => {
    answers({ '/api/auth/whoami': { status: 401, body: { error: 'unauthorized' } } });
    await expect(createSessionSource().load()).resolves.toBeUndefined();
    answers({ '/api/auth/whoami': { status: 403, body: { error: 'forbidden', details: { id: 'session_aal2_required' } } } });
    await expect(createSessionSource().load()).resolves.toEqual(SECOND_FACTOR_PENDING);
  });

  it('fails on other answers and on answers of the wrong shape', async () => {
    answers({ '/api/auth/whoami': { status: 500, body: { error: 'internal_error' } } });
    await expect(createSessionSource().load()).rejects.toMatchObject({ status: 500 });
    answers({ '/api/auth/whoami': { status: 200, body: { user: {} } } });
    await expect(createSessionSource().load()).rejects.toThrow();
  });

  it('signs out through the Kratos browser logout and signs in again towards the page', async () => {
    const logout = 'http://localhost/api/.ory/self-service/logout?token=t1';
    const urls = answers({ '/api/.ory/self-service/logout/browser': { status: 200, body: { logout_url: logout, logout_token: 't1' } }, [logout]: { status: 204 } });
    const go = vi.fn();
    await createSessionSource(go).signOut('/settings/jobs?status=FAILED');
    expect(urls).toEqual(['/api/.ory/self-service/logout/browser', logout]);
    expect(go).toHaveBeenCalledWith(`/login?return_to=${encodeURIComponent('/settings/jobs?status=FAILED')}`);
  });

  it('still goes to sign in when the session had ended already', async () => {
    answers({ '/api/.ory/self-service/logout/browser': { status: 401, body: { error: { id: 'session_inactive' } } } });
    const go = vi.fn();
    await createSessionSource(go).signOut('/');
    expect(go).toHaveBeenCalledWith('/login?return_to=%2F');
  });

  it('goes on to the sign-in provider when the logout names its end-session page', async () => {
    const logout = 'http://localhost/api/auth/oidc/logout?token=t2';
    const end = 'https://id.example.com/session/end?client_id=watchkeeper';
    answers({ '/api/.ory/self-service/logout/browser': { status: 200, body: { logout_url: logout, logout_token: 't2' } }, [logout]: { status: 200, body: { redirect_browser_to: end } } });
    const go = vi.fn();
    await createSessionSource(go).signOut('/');
    expect(go).toHaveBeenCalledWith(end);
  });
});
