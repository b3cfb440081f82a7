import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpbin, type Httpbin } from '../../../../test/peers/httpbin';
import { closeHarness, outcome, validate } from '../testing/check-harness';

/**
 * Templated http checks, as canary-checker fills them: `$(…)` and Go templates in the URL, Go templates in
 * header values, templateBody (Go template, then `$(…)`), values from the canary's and the check's `env`.
 */
let httpbin: Httpbin;
let base = '';
let host = '';

beforeAll(async () => {
  httpbin = await startHttpbin();
  base = httpbin.url;
  host = new URL(base).host;
});

afterAll(async () => {
  await httpbin?.close();
  await closeHarness();
});

describe('http: templated url', () => {
  it('fills url: $(.url) from env, the user:password in it becoming basic auth (canary-checker’s http_auth_url_pass)', async () => {
    const ran = await outcome('http', { name: 'test-url-via-env', url: '$(.url)', env: [{ name: 'url', value: `http://hello:world2@${host}/basic-auth/hello/world2` }] });
    expect(ran).toMatchObject({ pass: true, data: { json: { authenticated: true, user: 'hello' } } });
    expect(JSON.stringify(ran)).not.toContain('world2@');
  });

  it('builds a url from several values, $(.name) or $(name), and from the canary’s env', async () => {
    const env = [{ name: 'user', value: 'hello' }, { name: 'pass', value: 'world' }];
    expect(await outcome('http', { name: 'b', url: `http://$(.user):$(.pass)@${host}/basic-auth/hello/world`, env, responseCodes: [200] })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'b', url: `http://$(user):$(pass)@$(HOST)/basic-auth/hello/world`, env }, { HOST: host })).toMatchObject({ pass: true });
    expect(await outcome('http', { name: 'b', url: 'http://{{.HOST}}/get?check={{.check.name}}&canary=$(.canary.name)' }, { HOST: host })).toMatchObject({ pass: true, data: { json: { args: { check: 'b', canary: 'test' } } } });
  });

  it('lets the check’s env win over the canary’s, and gives name and namespace of the canary', async () => {
    const ran = await outcome('http', { name: 'w', url: `http://$(HOST)/get?who=$(.WHO)&name=$(.name)&ns=$(.namespace)`, env: [{ name: 'WHO', value: 'the check' }] }, { HOST: host, WHO: 'the canary' });
    expect(ran.data.json).toMatchObject({ args: { who: 'the check', name: 'test', ns: 'default' } });
  });

  it('makes a run invalid when a name is unknown or the filled url is not one, naming the problem', async () => {
    expect(await outcome('http', { name: 'u', url: `http://${host}/get?x=$(.nope)` })).toMatchObject({ pass: false, invalid: true, message: expect.stringContaining('there is no variable named "nope"') });
    expect(await outcome('http', { name: 'u', url: '$(.url)', env: [{ name: 'url', value: 'not a url' }] })).toMatchObject({ invalid: true, message: 'invalid url "not a url": must be an http:// or https:// URL with a host' });
  });

  it('accepts a templated url at apply and shows it without credentials', () => {
    expect(validate('http', { name: 't', url: '$(.url)' })).toMatchObject({ errors: [], warnings: [], endpoint: '$(.url)' });
    expect(validate('http', { name: 't', url: 'https://$(.user):$(.pass)@example.com/x' })).toMatchObject({ errors: [], endpoint: 'https://example.com/x' });
    expect(validate('http', { name: 't', url: 'not a url' }).errors).toEqual(['spec.http[0].url: must be an http:// or https:// URL with a host']);
    // A helmRef is read from the release's Secret when the check runs (server/platform/secrets).
    expect(validate('http', { name: 't', url: '$(.url)', env: [{ name: 'url', valueFrom: { helmRef: { name: 'podinfo', key: '.ingress.hosts[0].host' } } }] })).toMatchObject({ errors: [], warnings: [] });
  });
});

describe('http: templated headers and body', () => {
  it('fills header values holding {{ }} (and only those: $(…) in a header is sent as written, as canary-checker)', async () => {
    const ran = await outcome('http', {
      name: 'h',
      url: `${base}/headers`,
      env: [{ name: 'token', value: 's3cr3t' }],
      headers: [{ name: 'X-Token', value: 'Bearer {{.token}}' }, { name: 'X-Literal', value: '$(.token)' }],
    });
    expect(ran.data.json).toMatchObject({ headers: { 'X-Token': 'Bearer s3cr3t', 'X-Literal': '$(.token)' } });
  });

  it('templates the body with templateBody: canary, check, env, username and domain, then $(…), trimmed', async () => {
    const body = `
      {
        "canary": "{{.canary.name}}",
        "check": "{{.check.name}}",
        "user": "{{.username}}",
        "domain": "{{.domain}}",
        "greeting": "{{.GREETING}}",
        "jwt": "$(TOKEN)"
      }
    `;
    const ran = await outcome(
      'http',
      { name: 'template body', url: `${base}/post`, method: 'POST', templateBody: true, body, username: 'me@corp.example', password: 'pw', env: [{ name: 'TOKEN', value: 'ey.jwt' }] },
      { GREETING: 'hello' },
    );
    expect(ran.data.json).toMatchObject({ json: { canary: 'test', check: 'template body', user: 'me@corp.example', domain: 'corp.example', greeting: 'hello', jwt: 'ey.jwt' } });
    expect(ran.data.json).toMatchObject({ data: expect.stringMatching(/^\{[\s\S]*\}$/) });
  });

  it('sends the body as written without templateBody, and never templates username or password', async () => {
    const literal = await outcome('http', { name: 'l', url: `${base}/post`, method: 'POST', body: '{"a": "{{.x}}", "b": "$(x)"}' });
    expect(literal.data.json).toMatchObject({ data: '{"a": "{{.x}}", "b": "$(x)"}' });
    const user = await outcome('http', { name: 'u', url: `${base}/basic-auth/hello/world`, username: '$(.user)', password: 'world', env: [{ name: 'user', value: 'hello' }] });
    expect(user).toMatchObject({ pass: false, data: { code: 401 } });
  });

  it('makes a run invalid when the body template is wrong, naming it', async () => {
    const ran = await outcome('http', { name: 'b', url: `${base}/post`, method: 'POST', templateBody: true, body: '{"x": "$(.missing)"}' });
    expect(ran).toMatchObject({ pass: false, invalid: true, message: expect.stringContaining('failed to template the request: body') });
  });
});
