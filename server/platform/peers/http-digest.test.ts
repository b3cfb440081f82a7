import { describe, expect, it } from 'vitest';
import { digestAuthorization, parseDigestChallenge } from './http-digest';

const RFC7616 =
  'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"';
const MUFASA = { username: 'Mufasa', password: 'Circle of Life' };
const INDEX = { method: 'GET', uri: '/dir/index.html', body: '' };
const CNONCE = 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ';

function challenge(header: string) {
  const parsed = parseDigestChallenge(header);
  if (!parsed) throw new Error(`no Digest challenge in ${header}`);
  return parsed;
}

const param = (header: string, name: string) => new RegExp(`${name}="?([^",]*)"?`).exec(header)?.[1];

describe('HTTP Digest', () => {
  it('parses a challenge among others, with quoted and bare values', () => {
    expect(parseDigestChallenge(['Basic realm="x"', RFC7616])).toEqual({
      realm: 'http-auth@example.org',
      nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
      opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
      algorithm: 'SHA-256',
      qop: ['auth', 'auth-int'],
      userhash: false,
    });
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseDigestChallenge('Digest realm="a \\"b\\"", nonce=abc')).toMatchObject({ realm: 'a "b"', nonce: 'abc', algorithm: 'MD5', qop: [] });
  });

  it('answers the RFC 7616 §3.9.1 examples (SHA-256 and MD5) and the RFC 2617 one', () => {
    const sha = digestAuthorization(challenge(RFC7616), MUFASA, INDEX, 1, CNONCE);
    expect(param(sha, 'response')).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
    expect(sha).toContain('qop=auth, nc=00000001');
    expect(param(sha, 'opaque')).toBe('FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS');
    const md5 = digestAuthorization(challenge(RFC7616.replace('SHA-256', 'MD5')), MUFASA, INDEX, 1, CNONCE);
    expect(param(md5, 'response')).toBe('8ca523f5e9506fed4657c9700eebdbec');
    const rfc2617 = challenge('Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"');
    const old = digestAuthorization(rfc2617, { username: 'Mufasa', password: 'Circle Of Life' }, INDEX, 1, '0a4f113b');
    expect(param(old, 'response')).toBe('6629fae49393a05397450978507c4ef1');
  });

  it('uses the RFC 2069 form without qop, -sess keys and auth-int bodies', () => {
    const legacy = digestAuthorization(challenge('Digest realm="r", nonce="n"'), { username: 'u', password: 'p' }, INDEX);
    expect(legacy).not.toContain('qop=');
    expect(legacy).not.toContain('cnonce=');
    const sess = digestAuthorization(challenge('Digest realm="r", nonce="n", qop="auth", algorithm=MD5-sess'), { username: 'u', password: 'p' }, INDEX, 2, 'c');
    expect(sess).toContain('algorithm=MD5-SESS');
    expect(sess).toContain('nc=00000002');
    const withBody = digestAuthorization(challenge('Digest realm="r", nonce="n", qop="auth-int"'), { username: 'u', password: 'p' }, { method: 'POST', uri: '/', body: 'x' }, 1, 'c');
    const withOther = digestAuthorization(challenge('Digest realm="r", nonce="n", qop="auth-int"'), { username: 'u', password: 'p' }, { method: 'POST', uri: '/', body: 'y' }, 1, 'c');
    expect(param(withBody, 'response')).not.toBe(param(withOther, 'response'));
    expect(() => digestAuthorization(challenge('Digest realm="r", nonce="n", algorithm=SHA3'), { username: 'u', password: 'p' }, INDEX)).toThrow(/SHA3, which is not supported/);
  });
});
