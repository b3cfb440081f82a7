import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config';
import { isProxied } from './proxy';

describe('--auth trusted-front settings', () => {
  it('reads the trusted front and the organization it serves, flags winning', () => {
    expect(loadConfig({}).trustedFront).toBeUndefined();
    expect(loadConfig({ WATCHKEEPER_AUTH: 'trusted-front', WATCHKEEPER_TRUSTED_ISSUER: 'https://console.example.com/' }).trustedFront).toEqual({ issuer: 'https://console.example.com' });
    expect(loadConfig({ WATCHKEEPER_AUTH: 'trusted-front', WATCHKEEPER_TRUSTED_ISSUER: 'https://a.example.com' }, { trustedIssuer: 'https://b.example.com', trustedAudience: 'org-1' }).trustedFront).toEqual({
      issuer: 'https://b.example.com',
      audience: 'org-1',
    });
  });

  it('names every bad or missing setting by its flag or variable', () => {
    expect(() => loadConfig({}, { auth: 'trusted-front' })).toThrow(/--trusted-issuer \(WATCHKEEPER_TRUSTED_ISSUER\) is required with --auth=trusted-front/);
    expect(() => loadConfig({ WATCHKEEPER_AUTH: 'trusted-front', WATCHKEEPER_TRUSTED_ISSUER: 'console.example.com' })).toThrow(/WATCHKEEPER_TRUSTED_ISSUER="console.example.com" is not an http:\/\/ or https:\/\/ URL/);
    expect(() => loadConfig({ WATCHKEEPER_TRUSTED_AUDIENCE: 'org-1' })).toThrow(/WATCHKEEPER_TRUSTED_AUDIENCE is set but --auth \(WATCHKEEPER_AUTH\) is not trusted-front/);
    expect(() => loadConfig({ WATCHKEEPER_AUTH: 'trusted-front', WATCHKEEPER_TRUSTED_ISSUER: 'https://f.example.com', WATCHKEEPER_OIDC_ISSUER: 'https://id.example.com' })).toThrow(/WATCHKEEPER_OIDC_ISSUER is set but --auth/);
  });
});

describe('what the front forwards to an organization backend', () => {
  it('forwards /api/* except sign-in, the session and the organization routes', () => {
    for (const path of ['/api/db/properties', '/api/view/1', '/api/mcp', '/mcp', '/api/authz']) expect(isProxied(path), path).toBe(true);
    for (const path of ['/api/auth/whoami', '/api/auth/organization-token', '/api/auth', '/api/.ory/sessions/whoami', '/api/organizations', '/api/organizations/x', '/health', '/incidents']) {
      expect(isProxied(path), path).toBe(false);
    }
  });
});
