import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpbin, type Httpbin } from '../../../../test/peers/httpbin';
import { pageLinks } from '../checks/http-crawl';
import { closeHarness, outcome, result, validate } from '../testing/check-harness';

/** The http check's crawl against the httpbin stand-in (its index links to six pages, one broken under /cdn-cgi/). */
let httpbin: Httpbin;
let base = '';

beforeAll(async () => {
  httpbin = await startHttpbin();
  base = httpbin.url;
});

afterAll(async () => {
  await httpbin?.close();
  await closeHarness();
});

// Fast for tests; the defaults (500ms + up to 100ms) are canary-checker's.
const quick = { delay: '0s', randomDelay: '0s' };

describe('http: crawl', () => {
  it('follows the links of the site and fails on the broken one, exposing missing for display', async () => {
    const ran = await result('http', { name: 'docs', url: `${base}/`, display: { expr: 'missing.join("\\n")' }, crawl: { ...quick, depth: 2 } });
    expect(ran).toMatchObject({ pass: false, message: `${base}/cdn-cgi/l/email-protection` });
    const raw = await outcome('http', { name: 'docs', url: `${base}/`, crawl: { ...quick, depth: 2 } });
    // The index, /get, /headers, /html, /uuid (a relative link), /links/3/0 and the broken page; not the fragment, mailto: or the other host.
    expect(raw).toMatchObject({ pass: false, message: 'Visited: 7, Missing: 1', data: { visited: 7, missing: [`${base}/cdn-cgi/l/email-protection`] } });
  });

  it('passes canary-checker’s crawl fixture as written (disallowedURLFilters /cdn-cgi/, delays, parallelism 2, depth 2)', async () => {
    const ran = await result('http', {
      name: 'docs',
      url: `${httpbin.httpsUrl}/`,
      tlsConfig: { ca: httpbin.ca },
      display: { expr: 'missing.join("\\n")' },
      crawl: { disallowedURLFilters: ['/cdn-cgi/'], parallelism: 2, delay: '100ms', randomDelay: '50ms', depth: 2 },
    });
    expect(ran).toMatchObject({ pass: true, message: '' });
    const raw = await outcome('http', { name: 'docs', url: `${base}/`, crawl: { ...quick, depth: 2, disallowedURLFilters: ['/cdn-cgi/'] } });
    expect(raw).toMatchObject({ pass: true, message: 'Visited: 6', data: { visited: 6, missing: [] } });
  });

  it('goes as deep as depth: 1 is the start page alone, 3 reaches the pages the linked pages link to', async () => {
    expect(await outcome('http', { name: 'l', url: `${base}/links/5/0`, crawl: { ...quick, depth: 1 } })).toMatchObject({ data: { visited: 1 } });
    expect(await outcome('http', { name: 'l', url: `${base}/`, crawl: { ...quick, depth: 3, disallowedURLFilters: ['/cdn-cgi/'] } })).toMatchObject({ pass: true, data: { visited: 8 } });
    // Without a depth, canary-checker's 10: every page of a 5-page maze, each once.
    expect(await outcome('http', { name: 'l', url: `${base}/links/5/0`, crawl: quick })).toMatchObject({ pass: true, data: { visited: 5 } });
  });

  it('keeps to allowedURLFilters and the allowed domains', async () => {
    const filtered = await outcome('http', { name: 'f', url: `${base}/`, crawl: { ...quick, allowedURLFilters: ['/$', '/links/'] } });
    expect(filtered).toMatchObject({ pass: true, data: { visited: 4 } });
    const refused = await outcome('http', { name: 'f', url: `${base}/`, crawl: { ...quick, allowedDomains: ['localhost'] } });
    expect(refused).toMatchObject({ pass: false, message: `${base}/: the crawl rules refuse the start URL (forbidden domain 127.0.0.1)` });
    const disallowed = await outcome('http', { name: 'f', url: `${base}/`, crawl: { ...quick, disallowedDomains: ['example.org'], depth: 2 } });
    // With only disallowed domains, any other host is allowed: mailto: stays out (not http), example.org too.
    expect(disallowed).toMatchObject({ data: { visited: 7 } });
  });

  it('counts a page answering 203 or more, or a redirect to a forbidden place, as missing (colly’s rule)', async () => {
    expect(await outcome('http', { name: 's', url: `${base}/status/204`, crawl: quick })).toMatchObject({ pass: false, data: { missing: [`${base}/status/204`] } });
    expect(await outcome('http', { name: 's', url: `${base}/redirect/2`, crawl: quick })).toMatchObject({ pass: true, data: { visited: 1 } });
    const away = `${base}/redirect-to?url=${encodeURIComponent('http://localhost:1/elsewhere')}`;
    expect(await outcome('http', { name: 's', url: away, crawl: quick })).toMatchObject({ pass: false, data: { missing: [away] } });
  });

  it('waits delay after each request in each of its parallel slots', async () => {
    const started = Date.now();
    const ran = await outcome('http', { name: 'p', url: `${base}/links/4/0`, crawl: { delay: '150ms', randomDelay: '0s', parallelism: 1 } });
    expect(ran.data).toMatchObject({ visited: 4 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 150 - 20);
  });

  it('validates its fields: durations, regular expressions, bounds', () => {
    expect(validate('http', { name: 'c', url: `${base}/`, crawl: { delay: 'soon', disallowedURLFilters: ['('], depth: 99 } }).errors).toEqual([
      'spec.http[0].crawl.depth: must be at most 20',
      'spec.http[0].crawl.delay: "soon" is not a duration (e.g. 30s, 15m, 2h, 7d)',
      'spec.http[0].crawl.disallowedURLFilters[0]: must be a regular expression',
    ]);
  });
});

describe('crawl links', () => {
  it('reads <a href> against <base href>, decoding entities, without fragments or commented links', () => {
    const links = pageLinks('<base href="/docs/"><a href=intro>1</a> <a class="x" href=\'a?x=1&amp;y=2#part\'>2</a> <!-- <a href="/hidden"> --> <a href="#top">3</a>', new URL('http://h/index'));
    expect(links.map(String)).toEqual(['http://h/docs/intro', 'http://h/docs/a?x=1&y=2']);
  });
});
