import { describe, expect, it } from 'vitest';
import { claimsOf, organizationsOf } from './people';
import { codeChallenge } from './provider';
import { safeReturnTo } from './state';

describe('the organization claim', () => {
  it('reads the shapes providers write', () => {
    expect(organizationsOf('acme globex')).toEqual([
      { externalId: 'acme', name: 'acme' },
      { externalId: 'globex', name: 'globex' },
    ]);
    expect(organizationsOf(['acme', 42, 'acme'])).toEqual([
      { externalId: 'acme', name: 'acme' },
      { externalId: '42', name: '42' },
    ]);
    expect(organizationsOf([{ id: 'org_1', name: 'Acme' }, { slug: 'globex', display_name: 'Globex Corp' }])).toEqual([
      { externalId: 'org_1', name: 'Acme' },
      { externalId: 'globex', name: 'Globex Corp' },
    ]);
    expect(organizationsOf({ '2481': { name: 'Acme' }, '9000': { 'acme.example.com': 'x' } })).toEqual([
      { externalId: '2481', name: 'Acme' },
      { externalId: '9000', name: '9000' },
    ]);
  });

  it('counts anything else as no organization', () => {
    for (const value of [undefined, null, true, 7, [null, {}, { id: '' }], '', `${'x'.repeat(201)}`]) expect(organizationsOf(value)).toEqual([]);
  });
});

describe('the person in an ID token', () => {
  it('takes given and family name, else splits name', () => {
    expect(claimsOf({ sub: 's1', email: ' a@example.com ', email_verified: true, given_name: 'Ada', family_name: 'Lovelace' })).toEqual({
      subject: 's1',
      email: 'a@example.com',
      emailVerified: true,
      first: 'Ada',
      last: 'Lovelace',
    });
    expect(claimsOf({ sub: 's2', name: 'Grace Brewster Hopper', email_verified: 'true' })).toEqual({
      subject: 's2',
      email: undefined,
      emailVerified: false,
      first: 'Grace',
      last: 'Brewster Hopper',
    });
  });
});

describe('sign-in helpers', () => {
  it('keeps return_to on this console', () => {
    expect(safeReturnTo('/incidents?status=open')).toBe('/incidents?status=open');
    for (const bad of ['https://evil.example.com/', '//evil.example.com', '/\\evil.example.com', 'incidents', undefined, 3]) expect(safeReturnTo(bad)).toBe('/');
  });

  it('makes the RFC 7636 S256 challenge', () => {
    // RFC 7636 appendix B.
    expect(codeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
