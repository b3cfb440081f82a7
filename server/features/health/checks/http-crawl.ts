import { setTimeout as sleep } from 'node:timers/promises';
import { messageOf } from '../../../platform/errors';
import { sameHost } from '../../../platform/egress';
import { send, type HttpRequest } from '../../../platform/peers/http-client';
import type { CrawlSpec } from '../../../platform/peers/http-spec';

/**
 * `crawl`, as canary-checker runs it with colly: from the check's URL, follow `<a href>` links of HTML
 * pages up to `depth` pages deep (default 10; the start page is depth 1), each URL once, `parallelism`
 * requests at a time (default 2), each followed by `delay` (default 500ms) plus up to `randomDelay`
 * (default 100ms). A link is followed when its host is in `allowedDomains` (by default the start URL's
 * host, unless `disallowedDomains` is given) and not in `disallowedDomains`, it matches no
 * `disallowedURLFilters` and, when there are any, one of `allowedURLFilters` (regular expressions over the
 * whole URL). A URL is missing when its request failed or it answered 203 or more (colly's rule), or a
 * redirect led where the rules forbid. Bounded here at MAX_PAGES requests and by the check's timeout.
 */

export const MAX_PAGES = 1000;
const MAX_REDIRECTS = 10;

export interface CrawlOutcome {
  visited: number;
  missing: string[];
  /** Why the crawl stopped early, if it did. */
  stopped?: string;
  /** Why the start URL itself was refused (canary-checker fails the check with it). */
  refused?: string;
}

interface Rules {
  maxDepth: number;
  parallelism: number;
  delayMs: number;
  randomDelayMs: number;
  allowedDomains: string[];
  disallowedDomains: string[];
  allowed: RegExp[];
  disallowed: RegExp[];
}

function rulesOf(spec: CrawlSpec, start: URL): Rules {
  const allowedDomains = spec.allowedDomains ?? [];
  const disallowedDomains = spec.disallowedDomains ?? [];
  return {
    maxDepth: spec.depth || 10,
    parallelism: spec.parallelism || 2,
    delayMs: spec.delay ?? 500,
    randomDelayMs: spec.randomDelay ?? 100,
    allowedDomains: allowedDomains.length === 0 && disallowedDomains.length === 0 ? [start.hostname] : allowedDomains,
    disallowedDomains,
    allowed: (spec.allowedURLFilters ?? []).map((text) => new RegExp(text)),
    disallowed: (spec.disallowedURLFilters ?? []).map((text) => new RegExp(text)),
  };
}

/** Why colly would not request this URL, or undefined when it would. */
function refusal(url: URL, rules: Rules): string | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `not an http(s) URL`;
  const host = url.hostname;
  if (rules.disallowedDomains.includes(host)) return `forbidden domain ${host}`;
  if (rules.allowedDomains.length > 0 && !rules.allowedDomains.includes(host)) return `forbidden domain ${host}`;
  const text = url.toString();
  if (rules.disallowed.some((filter) => filter.test(text))) return 'forbidden URL';
  if (rules.allowed.length > 0 && !rules.allowed.some((filter) => filter.test(text))) return 'no URL filter matches';
  return undefined;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

const ATTRIBUTE = (tag: string) => new RegExp(`<${tag}\\b[^>]*?\\bhref\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'gi');

/** The absolute URLs of a page's `<a href>` links (against its `<base href>` if any), fragments removed. */
export function pageLinks(html: string, pageUrl: URL): URL[] {
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  const baseMatch = ATTRIBUTE('base').exec(withoutComments);
  const baseHref = baseMatch ? decodeEntities(baseMatch[1] ?? baseMatch[2] ?? baseMatch[3] ?? '') : '';
  const base = baseHref && URL.canParse(baseHref, pageUrl) ? new URL(baseHref, pageUrl) : pageUrl;
  const links: URL[] = [];
  for (const match of withoutComments.matchAll(ATTRIBUTE('a'))) {
    const href = decodeEntities(match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (href === '' || href.startsWith('#') || !URL.canParse(href, base)) continue;
    const url = new URL(href, base);
    url.hash = '';
    links.push(url);
  }
  return links;
}

type Transport = Pick<HttpRequest, 'tls' | 'signal' | 'userAgent'>;

/** One page: its final answer after allowed redirects, or why it is missing. */
async function fetchPage(start: URL, rules: Rules, transport: Transport): Promise<{ ok: true; url: URL; html?: string } | { ok: false }> {
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await send({ url, method: 'GET', headers: [], ...transport, maxRedirects: 0 });
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(response.status) && location && URL.canParse(location, url)) {
      const next = new URL(location, url);
      // colly does not follow a redirect its rules forbid: that request fails. Nor does the console's
      // egress policy follow one to another host (server/platform/egress.ts).
      if (refusal(next, rules) || !sameHost(url, next)) return { ok: false };
      url = next;
      continue;
    }
    if (response.status >= 203) return { ok: false };
    const type = String(response.headers['content-type'] ?? '');
    return { ok: true, url, ...(/html/i.test(type) ? { html: response.body.toString('utf8') } : {}) };
  }
  return { ok: false };
}

export async function crawl(start: URL, spec: CrawlSpec, transport: Transport): Promise<CrawlOutcome> {
  const rules = rulesOf(spec, start);
  const refused = refusal(start, rules);
  if (refused) return { visited: 0, missing: [], refused };
  const seen = new Set<string>([start.toString()]);
  const queue: Array<{ url: URL; depth: number }> = [{ url: start, depth: 1 }];
  const missing = new Set<string>();
  let visited = 0;
  let stopped: string | undefined;

  const visit = async ({ url, depth }: { url: URL; depth: number }) => {
    visited++;
    try {
      const page = await fetchPage(url, rules, transport);
      if (!page.ok) missing.add(url.toString());
      else if (page.html !== undefined && depth < rules.maxDepth) {
        for (const link of pageLinks(page.html, page.url)) {
          const key = link.toString();
          if (seen.has(key) || refusal(link, rules)) continue;
          if (seen.size >= MAX_PAGES) {
            stopped = `stopped after ${MAX_PAGES} pages`;
            break;
          }
          seen.add(key);
          queue.push({ url: link, depth: depth + 1 });
        }
      }
    } catch (error) {
      // A request that failed is missing, as in colly (whose OnError sees it); the timeout is not the page's fault.
      if (transport.signal.aborted) stopped = `stopped at the check timeout (${messageOf(error)})`;
      else missing.add(url.toString());
    }
    // colly's LimitRule: each request holds its slot for delay plus a random part of randomDelay.
    const pause = rules.delayMs + Math.random() * rules.randomDelayMs;
    if (pause > 0 && !transport.signal.aborted) await sleep(pause, undefined, { signal: transport.signal }).catch(() => undefined);
  };

  await new Promise<void>((resolve) => {
    let active = 0;
    const pump = () => {
      while (active < rules.parallelism && queue.length > 0 && !transport.signal.aborted) {
        const job = queue.shift();
        if (!job) break;
        active++;
        void visit(job).finally(() => {
          active--;
          pump();
        });
      }
      if (active === 0 && (queue.length === 0 || transport.signal.aborted)) resolve();
    };
    pump();
  });
  if (transport.signal.aborted) stopped ??= 'stopped at the check timeout';
  return { visited, missing: [...missing].sort(), ...(stopped ? { stopped } : {}) };
}
