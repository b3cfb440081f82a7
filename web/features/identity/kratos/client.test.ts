import { describe, expect, it } from 'vitest';
import { interpret } from './client';
import { loginFlow } from './test-flows';
import { FLOW_ERROR_TEXTS } from './texts';

const error = (status: number, id: string | undefined, extra: Record<string, unknown> = {}) => ({
  status,
  data: { error: { ...(id ? { id } : {}), code: status, status: 'x', reason: `reason of ${id ?? status}`, message: 'message' }, ...extra },
});
const here = '/settings/jobs?x=1';

describe('flow answers (spec §8)', () => {
  it('renders the flow of a 200, and of a 400 or 429 with its messages', () => {
    for (const status of [200, 400, 429]) expect(interpret('login', 'submit', { status, data: loginFlow }, here)).toEqual({ type: 'flow', flow: loginFlow });
  });

  it('follows continue_with after a successful sign-in or registration', () => {
    const data = { session: {}, continue_with: [{ action: 'show_verification_ui', flow: { id: 'v', url: 'http://x/verification?flow=v' } }, { action: 'redirect_browser_to', redirect_browser_to: 'http://x/settings' }] };
    expect(interpret('registration', 'submit', { status: 200, data }, here)).toEqual({ type: 'redirect', to: 'http://x/settings' });
    expect(interpret('login', 'submit', { status: 200, data: { session: {} } }, here)).toEqual({ type: 'redirect', to: '/' });
  });

  it('follows a browser location change (recovery goes to the settings flow)', () => {
    const answer = error(422, 'browser_location_change_required', { redirect_browser_to: 'http://x/profile-settings?flow=s' });
    expect(interpret('recovery', 'submit', answer, here)).toEqual({ type: 'redirect', to: 'http://x/profile-settings?flow=s' });
  });

  it('sends the person to confirm or to the second factor, and home when already signed in', () => {
    expect(interpret('settings', 'submit', error(403, 'session_refresh_required', { redirect_browser_to: '/login?refresh=true&return_to=r' }), here)).toEqual({
      type: 'redirect',
      to: '/login?refresh=true&return_to=r',
    });
    expect(interpret('settings', 'create', error(403, 'session_aal2_required'), here)).toEqual({ type: 'redirect', to: `/login?aal=aal2&return_to=${encodeURIComponent(here)}` });
    expect(interpret('settings', 'create', error(401, 'session_inactive'), here)).toEqual({ type: 'redirect', to: `/login?return_to=${encodeURIComponent(here)}` });
    expect(interpret('login', 'create', error(400, 'session_already_available'), here)).toEqual({ type: 'redirect', to: '/' });
  });

  it('restarts expired, gone and refused flows with the spec texts', () => {
    expect(interpret('login', 'submit', error(410, 'self_service_flow_expired', { use_flow_id: 'new-id' }), here)).toEqual({
      type: 'restart',
      useFlowId: 'new-id',
      message: { id: 0, text: FLOW_ERROR_TEXTS.expired, type: 'error' },
    });
    expect(interpret('login', 'get', error(410, undefined), here)).toEqual({ type: 'restart' });
    expect(interpret('login', 'submit', error(403, 'security_csrf_violation'), here)).toMatchObject({ type: 'restart', message: { text: 'A security violation was detected, please fill out the form again.' } });
    expect(interpret('login', 'create', error(400, 'self_service_flow_return_to_forbidden'), here)).toMatchObject({
      type: 'restart',
      dropReturnTo: true,
      message: { text: 'The return_to address is not allowed.' },
    });
    expect(interpret('settings', 'submit', error(403, 'security_identity_mismatch'), here)).toEqual({ type: 'restart' });
    expect(interpret('login', 'get', error(404, 'self_service_flow_not_found'), here)).toEqual({ type: 'restart' });
  });

  it('handles verification as spec §8 says: a refused new flow goes home, 410 or 403 starts over', () => {
    expect(interpret('verification', 'create', error(400, undefined), here)).toEqual({ type: 'redirect', to: '/' });
    expect(interpret('verification', 'submit', error(403, undefined), here)).toEqual({ type: 'restart' });
  });

  it('shows any other error with its reason', () => {
    expect(interpret('registration', 'create', error(400, 'self_service_flow_disabled'), here)).toMatchObject({ type: 'failed', message: 'reason of self_service_flow_disabled' });
    expect(interpret('login', 'submit', { status: 502, data: 'Bad Gateway' }, here)).toEqual({ type: 'failed', message: 'The identity service answered 502.' });
  });
});
