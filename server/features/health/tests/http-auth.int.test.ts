import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpbin, type Httpbin } from '../../../../test/peers/httpbin';
import { isRecord } from '../../../platform/errors';
import { closeHarness, outcome, result, validate } from '../testing/check-harness';

/** The http check's authentication against the local httpbin stand-in: Basic, Digest, OAuth2, AWS SigV4. */
let httpbin: Httpbin;
let base = '';
let host = '';

/** The Authorization header httpbin echoed back. */
function authorizationOf(json: unknown): string {
  const headers = isRecord(json) ? json.headers : undefined;
  return isRecord(headers) && typeof headers.Authorization === 'string' ? headers.Authorization : '';
}

beforeAll(async () => {
  httpbin = await startHttpbin();
  base = httpbin.url;
  host = new URL(base).host;
});

afterAll(async () => {
  await httpbin?.close();
  await closeHarness();
});

describe('http: Digest', () => {
  it('answers the challenge with digest: true (MD5, SHA-256, SHA-512, auth-int, no qop), as canary-checker’s fixture', async () => {
    for (const path of ['/digest-auth/auth/user/pass', '/digest-auth/auth/user/pass/SHA-256', '/digest-auth/auth/user/pass/SHA-512', '/digest-auth/auth-int/user/pass', '/digest-auth/none/user/pass']) {
      const ran = await result('http', { name: 'd', url: `${base}${path}`, username: { value: 'user' }, password: { value: 'pass' }, digest: true, responseCodes: [200], test: { expr: 'json.authenticated == true && json.user == "user"' } });
      expect({ path, pass: ran.pass, message: ran.message }).toMatchObject({ path, pass: true });
    }
  });

  it('sends a POST body with its challenge answer, the auth-int hash covering it', async () => {
    const ran = await outcome('http', { name: 'd', url: `${base}/digest-auth/auth-int/user/pass`, method: 'POST', body: '{"a":1}', username: 'user', password: 'pass', digest: true });
    expect(ran).toMatchObject({ pass: true, data: { code: 200 } });
  });

  it('answers once: a wrong password ends on the 401, which responseCodes [401] expects', async () => {
    const wrong = { name: 'd', url: `${base}/digest-auth/auth/user/pass`, username: { value: 'user' }, password: { value: 'wrong' }, digest: true };
    expect(await outcome('http', { ...wrong, responseCodes: [401] })).toMatchObject({ pass: true, data: { code: 401 } });
    expect(await outcome('http', wrong)).toMatchObject({ pass: false, message: 'answered 401, expected 200–299' });
  });

  it('sends Basic, not Digest, without digest: true', async () => {
    expect(await outcome('http', { name: 'd', url: `${base}/digest-auth/auth/user/pass`, username: 'user', password: 'pass' })).toMatchObject({ pass: false, data: { code: 401 } });
  });
});

describe('http: Basic', () => {
  it('passes httpbin’s basic-auth with the right user, fails it without', async () => {
    expect(await outcome('http', { name: 'b', url: `${base}/basic-auth/hello/world`, username: { value: 'hello' }, password: { value: 'world' } })).toMatchObject({ pass: true, data: { json: { authenticated: true, user: 'hello' } } });
    expect(await outcome('http', { name: 'b', url: `${base}/basic-auth/hello/world`, responseCodes: [401] })).toMatchObject({ pass: true });
  });

  it('takes user and password from the URL over the fields, as canary-checker does', async () => {
    const ran = await outcome('http', { name: 'b', url: `http://hello:world@${host}/basic-auth/hello/world`, username: 'someone', password: 'else' });
    expect(ran).toMatchObject({ pass: true });
  });
});

describe('http: OAuth2 client credentials', () => {
  const oauth = (extra: Record<string, unknown> = {}) => ({
    name: 'o',
    url: `${base}/get`,
    username: { value: 'demo-backend-client' },
    password: { value: 'MJlO3binatD9jk1' },
    oauth2: { tokenURL: `${base}/oauth/v2/oauth-token`, scope: ['read'] },
    ...extra,
  });

  it('gets a token with username and password as client id and secret, and sends it as a Bearer token', async () => {
    const ran = await result('http', { ...oauth(), test: { expr: 'json.headers.Authorization.startsWith("Bearer ")' } });
    expect(ran.pass).toBe(true);
    expect(JSON.stringify(ran)).not.toContain('MJlO3binatD9jk1');
  });

  it('reuses a token until shortly before it expires', async () => {
    const check = oauth({ oauth2: { tokenURL: `${base}/oauth/token`, scope: ['read', 'write'], params: { audience: 'cached' } } });
    const before = httpbin.auth.tokenRequests;
    const first = await outcome('http', check);
    const second = await outcome('http', check);
    expect(httpbin.auth.tokenRequests - before).toBe(1);
    expect(authorizationOf(first.data.json)).toMatch(/^Bearer at-/);
    expect(authorizationOf(second.data.json)).toBe(authorizationOf(first.data.json));
    // A token the server says lives 5 s is within the 10 s margin: fetched again every time.
    const short = oauth({ oauth2: { tokenURL: `${base}/oauth/token`, params: { expires_in: 5 } } });
    const again = httpbin.auth.tokenRequests;
    await outcome('http', short);
    await outcome('http', short);
    expect(httpbin.auth.tokenRequests - again).toBe(2);
  });

  it('forgets a token the API refuses, so the next run gets a new one', async () => {
    const check = oauth({ url: `${base}/oauth/protected`, oauth2: { tokenURL: `${base}/oauth/token`, params: { audience: 'protected' } } });
    expect(await outcome('http', check)).toMatchObject({ pass: true });
    httpbin.auth.tokens.clear();
    expect(await outcome('http', check)).toMatchObject({ pass: false, data: { code: 401 } });
    expect(await outcome('http', check)).toMatchObject({ pass: true });
  });

  it('fails, naming the token endpoint but not the secret, when the client is refused', async () => {
    const ran = await outcome('http', oauth({ password: 'not-the-secret', oauth2: { tokenURL: `${base}/oauth/token` } }));
    expect(ran).toMatchObject({ pass: false, message: expect.stringContaining(`error fetching oauth access token: ${base}/oauth/token answered 401`) });
    expect(JSON.stringify(ran)).not.toContain('not-the-secret');
  });

  it('sends a client whose secret needs escaping, first in the Basic header as Go does', async () => {
    const ran = await outcome('http', oauth({ username: 'test-client', password: 'test secret/with+symbols', oauth2: { tokenURL: `${base}/oauth/token` } }));
    expect(ran).toMatchObject({ pass: true });
  });
});

describe('http: AWS SigV4', () => {
  const signed = (extra: Record<string, unknown> = {}) => ({
    name: 'a',
    url: `${base}/aws/items?b=2&a=1`,
    awsSigV4: { accessKey: { value: 'test-key' }, secretKey: { value: 'test-secret' }, region: 'us-east-1', service: 'execute-api' },
    ...extra,
  });

  it('signs requests a SigV4 verifier written from AWS’s description accepts, GET and POST with a body', async () => {
    expect(await outcome('http', signed())).toMatchObject({ pass: true, data: { json: { verified: true, accessKey: 'test-key', region: 'us-east-1', service: 'execute-api' } } });
    const post = await outcome('http', signed({ method: 'POST', body: '{"name":"x"}', headers: [{ name: 'Content-Type', value: 'application/json' }] }));
    expect(post).toMatchObject({ pass: true, data: { json: { verified: true } } });
    expect(post.data.json).toMatchObject({ signedHeaders: expect.arrayContaining(['content-type', 'host', 'x-amz-date']) });
  });

  it('is refused with a wrong secret, and puts an AWS4-HMAC-SHA256 Authorization on the request (canary-checker’s fixture)', async () => {
    expect(await outcome('http', signed({ awsSigV4: { accessKey: 'test-key', secretKey: 'wrong', region: 'us-east-1', service: 'execute-api' } }))).toMatchObject({ pass: false, data: { code: 403, json: { reason: 'the signature does not match the request' } } });
    const headers = await result('http', signed({ url: `${base}/headers`, test: { expr: 'json.headers.Authorization.startsWith("AWS4-HMAC-SHA256")' } }));
    expect(headers.pass).toBe(true);
  });

  it('adds a session token, guesses the service of an amazonaws.com host, and sends to endpoint instead', async () => {
    const ran = await outcome('http', {
      name: 'a',
      url: 'https://sts.amazonaws.com/aws/identity',
      awsSigV4: { accessKey: 'test-key', secretKey: 'test-secret', sessionToken: 'session-1', region: 'eu-west-1', endpoint: host },
    });
    expect(ran).toMatchObject({ pass: true, data: { json: { verified: true, service: 'sts', region: 'eu-west-1', signedHeaders: expect.arrayContaining(['x-amz-security-token']) } } });
  });

  it('makes a run invalid, by name, without keys or with what this version cannot do', async () => {
    expect(await outcome('http', signed({ awsSigV4: { region: 'us-east-1', service: 's3' } }))).toMatchObject({ pass: false, invalid: true, message: expect.stringContaining('awsSigV4 needs accessKey and secretKey') });
    expect(await outcome('http', signed({ awsSigV4: { accessKey: 'k', secretKey: 's', assumeRole: 'arn:aws:iam::1:role/x' } }))).toMatchObject({
      pass: false,
      message: 'awsSigV4.assumeRole: is not supported yet (no STS here): sign with the keys of the role itself',
    });
    expect(await outcome('http', signed({ url: `${base}/aws/x`, awsSigV4: { accessKey: 'k', secretKey: 's' } }))).toMatchObject({ invalid: true, message: expect.stringContaining('awsSigV4.service is required') });
  });
});

describe('http: fields not run', () => {
  it('warns of nested fields it reads and does not run; an AWS connection is read at run', () => {
    const checked = validate('http', {
      name: 'x',
      url: `${base}/get`,
      crawl: { depth: 1, filters: ['a'] },
      awsSigV4: { accessKey: 'k', secretKey: 's', service: 's3', skipTLSVerify: true, connection: 'connection://aws/main' },
    });
    expect(checked.errors).toEqual([]);
    expect(checked.warnings).toEqual([
      'spec.http[0].crawl.filters: is read and not run (canary-checker does not run it either); use allowedURLFilters or disallowedURLFilters',
      'spec.http[0].awsSigV4.skipTLSVerify: concerns calls to AWS itself, which signing with static keys does not make; ignored',
    ]);
    const plain = validate('http', { name: 'x', url: `${base}/get`, crawl: { depth: 1, filters: ['a'] }, awsSigV4: { accessKey: 'k', secretKey: 's', service: 's3', skipTLSVerify: true } });
    expect(plain.warnings).toEqual([
      'spec.http[0].crawl.filters: is read and not run (canary-checker does not run it either); use allowedURLFilters or disallowedURLFilters',
      'spec.http[0].awsSigV4.skipTLSVerify: concerns calls to AWS itself, which signing with static keys does not make; ignored',
    ]);
  });

  it('warns about ntlm, ntlmv2 and the other HTTPCheck fields this version does not run', () => {
    const checked = validate('http', { name: 'x', url: `${base}/get`, ntlm: true, ntlmv2: true, relationships: { components: [] }, export: { id: 'json.id' } });
    expect(checked.errors).toEqual([]);
    expect(checked.warnings).toEqual([
      'spec.http[0].ntlm is not supported for http checks; it is ignored',
      'spec.http[0].ntlmv2 is not supported for http checks; it is ignored',
      'spec.http[0].relationships is not supported for http checks; it is ignored',
      'spec.http[0].export is not supported for http checks; it is ignored',
    ]);
    expect(validate('http', { name: 'x', url: `${base}/get`, digest: true, oauth2: { tokenURL: `${base}/t` }, awsSigV4: { service: 's3' } }).warnings).toEqual([]);
    expect(validate('http', { name: 'x', url: `${base}/get`, oauth2: { scope: ['a'] } }).errors).toEqual(['spec.http[0].oauth2.tokenURL: is required']);
  });
});
