// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginFlow, secondFactorFlow } from '../kratos/test-flows';
import { renderPage, scriptedServer, type Call } from '../test-utils';
import LoginPage, { loginTitle } from './login-page';

const setup = { first_run: false, registration: true, mail: false };

function server(answer: (call: Call) => { status?: number; body?: unknown } | undefined = () => undefined) {
  return scriptedServer((call) => {
    if (call.path === '/api/auth/setup') return { body: setup };
    if (call.path === '/api/auth/whoami') return { status: 401, body: { error: 'unauthorized' } };
    if (call.path === '/api/.ory/self-service/login/browser') {
      if (call.search.get('aal') === 'aal2') return { body: secondFactorFlow };
      return { body: call.search.get('refresh') === 'true' ? { ...loginFlow, refresh: true } : loginFlow };
    }
    if (call.path === '/api/.ory/self-service/login/flows') return { body: loginFlow };
    return answer(call);
  });
}

describe('login page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('switches its title with what the flow asks for (spec §2)', () => {
    const none = new URLSearchParams();
    expect(loginTitle(undefined, none)).toBe('Sign In to your account');
    expect(loginTitle(undefined, new URLSearchParams('aal=aal2'))).toBe('Two-Factor Authentication');
    expect(loginTitle(undefined, new URLSearchParams('refresh=true'))).toBe('Confirm Action');
    expect(loginTitle(secondFactorFlow, none)).toBe('Two-Factor Authentication');
    expect(loginTitle({ ...loginFlow, refresh: true }, none)).toBe('Confirm Action');
    expect(loginTitle(loginFlow, new URLSearchParams('aal=aal2'))).toBe('Sign In to your account');
  });

  it('signs in: title, links to recovery and registration, and the flow id in the URL', async () => {
    const calls = server();
    renderPage(<LoginPage />, { path: '/login?return_to=%2Fsettings%2Fjobs', route: '/login' });
    expect(await screen.findByRole('heading', { name: 'Sign In to your account' })).toBeTruthy();
    expect(await screen.findByLabelText('Email')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Sign In to your account | Watchkeeper'));
    expect(screen.getByRole('link', { name: 'Reset password' }).getAttribute('href')).toBe('/recovery?return_to=%2Fsettings%2Fjobs');
    expect((await screen.findByRole('link', { name: 'Create account' })).getAttribute('href')).toBe('/registration?return_to=%2Fsettings%2Fjobs');
    const create = calls.find((call) => call.path === '/api/.ory/self-service/login/browser');
    expect(create?.search.get('return_to')).toBe('/settings/jobs');
  });

  it('asks for the second factor under its own title', async () => {
    server();
    renderPage(<LoginPage />, { path: '/login?aal=aal2&return_to=%2F', route: '/login' });
    expect(screen.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeTruthy();
    expect(await screen.findByLabelText('Authentication code')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Reset password' })).toBeNull();
  });

  it("confirms it's you on re-authentication", async () => {
    server();
    renderPage(<LoginPage />, { path: '/login?refresh=true', route: '/login' });
    expect(await screen.findByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Confirm Action' })).toBeTruthy();
  });

  it('fills in and submits username and password from the URL, then follows the redirect', async () => {
    const calls = server((call) =>
      call.method === 'POST' && call.path === '/api/.ory/self-service/login'
        ? { body: { session: { id: 's' }, continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: '/settings/jobs' }] } }
        : undefined,
    );
    renderPage(<LoginPage />, { path: '/login?username=ada%40example.com&password=pw%20words', route: '/login' });
    expect((await screen.findByTestId('location')).textContent).toBe('/settings/jobs');
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.search.get('flow')).toBe('flow-1');
    expect(posts[0]?.body).toEqual({ csrf_token: 'csrf-123', identifier: 'ada@example.com', password: 'pw words', method: 'password' });
  });

  it('shows the wrong-password message the server re-renders, and restarts an expired flow with the spec text', async () => {
    const wrong = { ...loginFlow, ui: { ...loginFlow.ui, messages: [{ id: 4000006, text: 'The email address or password is wrong.', type: 'error' }] } };
    let posts = 0;
    server((call) => {
      if (call.method !== 'POST') return undefined;
      posts += 1;
      if (posts === 1) return { status: 400, body: wrong };
      return { status: 410, body: { error: { id: 'self_service_flow_expired', code: 410, reason: 'expired' }, use_flow_id: 'flow-2' } };
    });
    renderPage(<LoginPage />, { path: '/login?username=ada%40example.com&password=wrong', route: '/login' });
    expect(await screen.findByText('The email address or password is wrong.')).toBeTruthy();
    screen.getByRole('button', { name: 'Sign in' }).click();
    expect(await screen.findByText('Your interaction expired, please fill out the form again.')).toBeTruthy();
  });

  it('shows the provider button instead of the password form when the console signs in through OIDC', async () => {
    const calls = server((call) =>
      call.path === '/api/auth/mode' ? { body: { mode: 'oidc', issuer: 'https://id.example.com', issuer_host: 'id.example.com', login_url: '/api/auth/oidc/login' } } : undefined,
    );
    renderPage(<LoginPage />, { path: '/login?return_to=%2Fincidents', route: '/login' });
    const button = await screen.findByRole('link', { name: 'Sign in with id.example.com' });
    expect(button.getAttribute('href')).toBe('/api/auth/oidc/login?return_to=%2Fincidents');
    expect(screen.getByRole('heading', { name: 'Sign In to your account' })).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(calls.some((call) => call.path === '/api/.ory/self-service/login/browser')).toBe(false);
  });

  it('confirms a privileged change at the provider in OIDC mode', async () => {
    server((call) =>
      call.path === '/api/auth/mode' ? { body: { mode: 'oidc', issuer: 'https://id.example.com', issuer_host: 'id.example.com', login_url: '/api/auth/oidc/login' } } : undefined,
    );
    renderPage(<LoginPage />, { path: '/login?refresh=true&return_to=%2Fprofile-settings', route: '/login' });
    const button = await screen.findByRole('link', { name: 'Confirm with id.example.com' });
    expect(button.getAttribute('href')).toBe('/api/auth/oidc/login?return_to=%2Fprofile-settings&refresh=true');
    expect(screen.getByRole('heading', { name: 'Confirm Action' })).toBeTruthy();
  });
});
