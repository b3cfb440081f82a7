import { describe, expect, it } from 'vitest';
import { parseOrganizationBackend, parseOrganizationToken } from '@web/features/hosted/api';
import { parseAuthMode } from '@web/features/identity/auth-mode';
import { parseSidebarViews } from '@web/app/layout/sidebar-views';
import { ShapeError } from './shape';

describe('shell answer readers', () => {
  it('reads the auth mode and names a field that does not fit', () => {
    expect(parseAuthMode({ mode: 'builtin', extra: 1 })).toEqual({ mode: 'builtin' });
    expect(parseAuthMode({ mode: 'oidc', issuer: 'https://id.example', issuer_host: 'id.example', login_url: '/api/auth/oidc/login' })).toEqual({
      mode: 'oidc',
      issuer: 'https://id.example',
      issuer_host: 'id.example',
      login_url: '/api/auth/oidc/login',
    });
    expect(() => parseAuthMode({ mode: 'saml' })).toThrow(new ShapeError('auth mode.mode: expected one of builtin, oidc'));
    expect(() => parseAuthMode({ mode: 'oidc', issuer: 'x', issuer_host: 'x' })).toThrow('auth mode.login_url: expected a string');
    expect(() => parseAuthMode(null)).toThrow('auth mode: expected an object');
  });

  it('reads the organization backend and token', () => {
    const organization = { id: 'o1', name: 'Acme', backend_url: null, direct: false };
    expect(parseOrganizationBackend({ organization, state: 'ready' })).toEqual({ organization, state: 'ready' });
    expect(parseOrganizationBackend({ organization: { ...organization, backend_url: 'https://b.example' }, state: 'error', reason: 'down' })).toMatchObject({ reason: 'down' });
    expect(() => parseOrganizationBackend({ organization, state: 'gone' })).toThrow('organization backend.state: expected one of ready, provisioning, error');
    expect(() => parseOrganizationBackend({ organization: { ...organization, direct: 'no' }, state: 'ready' })).toThrow('organization.direct: expected true or false');
    expect(parseOrganizationToken({ token: 't', expires_at: '2026-01-01T00:00:00Z' })).toEqual({ token: 't', expires_at: '2026-01-01T00:00:00Z' });
    expect(() => parseOrganizationToken({ token: 1 })).toThrow('organization token.token: expected a string');
  });

  it('reads sidebar views, null fields as absent', () => {
    expect(parseSidebarViews([{ id: 'v', name: 'pods', title: null, icon: 'box', ordinal: null }])).toEqual([{ id: 'v', name: 'pods', title: undefined, icon: 'box', ordinal: undefined }]);
    expect(() => parseSidebarViews([{ id: 'v', name: 'pods', ordinal: '1' }])).toThrow('views[0].ordinal: expected a number');
    expect(() => parseSidebarViews({})).toThrow('views: expected a list');
  });
});
