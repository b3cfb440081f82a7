// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPage, scriptedServer } from '../test-utils';
import AuthStateCheckerPage, { nextAfterCheck } from './auth-state-checker-page';

function check(status: number, returnTo: string) {
  scriptedServer((call) => {
    if (call.path === '/api/.ory/sessions/whoami') return { status, body: status === 200 ? { id: 's', active: true } : { error: { code: status } } };
    if (call.path === '/api/auth/whoami') return { status: 401, body: {} };
    return undefined;
  });
  renderPage(<AuthStateCheckerPage />, { path: `/auth-state-checker?return_to=${encodeURIComponent(returnTo)}`, route: '/auth-state-checker' });
  return screen.findByTestId('location');
}

describe('auth-state checker (spec §8)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends a signed-in person back to return_to', async () => {
    expect((await check(200, '/settings/jobs?status=FAILED')).textContent).toBe('/settings/jobs?status=FAILED');
  });

  it('sends a signed-out person to sign in, coming back afterwards', async () => {
    expect((await check(401, '/settings/jobs')).textContent).toBe(`/login?return_to=${encodeURIComponent('/settings/jobs')}`);
  });

  it('sends a person with a pending second factor (403 or 422) to the aal2 sign-in', async () => {
    expect((await check(403, '/health')).textContent).toBe(`/login?aal=aal2&return_to=${encodeURIComponent('/health')}`);
  });

  it('never returns to another site', async () => {
    expect((await check(200, 'https://evil.example/steal')).textContent).toBe('/');
  });

  it('never passes another site on as return_to', async () => {
    expect((await check(401, '//evil.example/steal')).textContent).toBe(`/login?return_to=${encodeURIComponent('/')}`);
  });

  it('maps every state', () => {
    expect(nextAfterCheck('active', '/x')).toBe('/x');
    expect(nextAfterCheck('signed-out', '/x')).toBe('/login?return_to=%2Fx');
    expect(nextAfterCheck('second-factor', '/x')).toBe('/login?aal=aal2&return_to=%2Fx');
  });
});
