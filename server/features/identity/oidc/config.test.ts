import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../platform/config';

const OIDC = { WATCHKEEPER_AUTH: 'oidc', WATCHKEEPER_OIDC_ISSUER: 'https://id.example.com', WATCHKEEPER_OIDC_CLIENT_ID: 'console' };

describe('--auth oidc settings', () => {
  it('keeps the built-in accounts by default, with no oidc settings', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({ WATCHKEEPER_AUTH: 'builtin' }).oidc).toBeUndefined();
  });

  it('reads the provider settings with their defaults, flags winning', () => {
    expect(loadConfig(OIDC).oidc).toEqual({ issuer: 'https://id.example.com', clientId: 'console', scopes: ['openid', 'profile', 'email'], orgClaim: 'organizations' });
    const config = loadConfig({ ...OIDC, WATCHKEEPER_OIDC_CLIENT_SECRET: 's3cret', WATCHKEEPER_OIDC_SCOPES: 'openid email offline_access' }, { oidcOrgClaim: 'orgs', oidcClientId: 'other' });
    expect(config.oidc).toEqual({ issuer: 'https://id.example.com', clientId: 'other', clientSecret: 's3cret', scopes: ['openid', 'email', 'offline_access'], orgClaim: 'orgs' });
  });

  it('reads the client secret from a file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wk-oidc-'));
    try {
      const file = path.join(dir, 'secret');
      fs.writeFileSync(file, 'from-file\n');
      expect(loadConfig({ ...OIDC, WATCHKEEPER_OIDC_CLIENT_SECRET_FILE: file }).oidc?.clientSecret).toBe('from-file');
      fs.writeFileSync(file, '');
      expect(() => loadConfig({ ...OIDC, WATCHKEEPER_OIDC_CLIENT_SECRET_FILE: file })).toThrow(/WATCHKEEPER_OIDC_CLIENT_SECRET_FILE=".*": the file is empty/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names every bad or missing setting by its flag or variable', () => {
    expect(() => loadConfig({ WATCHKEEPER_AUTH: 'saml' })).toThrow(/WATCHKEEPER_AUTH="saml" is not one of builtin, oidc/);
    expect(() => loadConfig({}, { auth: 'oidc' })).toThrow(/--oidc-issuer \(WATCHKEEPER_OIDC_ISSUER\) is required with --auth=oidc[\s\S]*--oidc-client-id \(WATCHKEEPER_OIDC_CLIENT_ID\) is required/);
    expect(() => loadConfig({ ...OIDC, WATCHKEEPER_OIDC_ISSUER: 'id.example.com' })).toThrow(/WATCHKEEPER_OIDC_ISSUER="id.example.com" is not an http:\/\/ or https:\/\/ URL/);
    expect(() => loadConfig({ ...OIDC, WATCHKEEPER_OIDC_SCOPES: 'profile email' })).toThrow(/WATCHKEEPER_OIDC_SCOPES="profile email" must include openid/);
    expect(() => loadConfig({ WATCHKEEPER_OIDC_ISSUER: 'https://id.example.com' })).toThrow(/WATCHKEEPER_OIDC_ISSUER is set but --auth \(WATCHKEEPER_AUTH\) is not oidc/);
    expect(() => loadConfig({ ...OIDC, WATCHKEEPER_OIDC_CLIENT_SECRET: 'a', WATCHKEEPER_OIDC_CLIENT_SECRET_FILE: '/x' })).toThrow(/both set/);
  });
});
