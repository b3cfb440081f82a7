import { messageOf } from '../../../platform/errors';
import { celDuration, ExpressionError } from '../../../platform/expressions';
import { VERSION } from '../../../platform/paths';
import { send, type HttpRequest, type HttpResponse } from '../../../platform/peers/http-client';
import { defineCheckType } from '../define';
import type { CheckContext, CheckOutcome } from '../types';
import { awsSigning, credentialsFor, InvalidAuth, refusedToken } from '../../../platform/peers/http-auth';
import { crawl } from './http-crawl';
import { judge, shown, shownText } from './http-judge';
import { httpSchema, isTemplated, type HttpSpec } from '../../../platform/peers/http-spec';
import { templatedBody, templatedHeaders, templatedUrl, templateVariables } from './http-template';

const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_HANDSHAKE_MS = 10_000;
/** A crawl visits many pages, each followed by its delay: it gets longer than one request. */
const CRAWL_TIMEOUT_MS = 5 * 60_000;
/**
 * canary-checker sends `canary-checker/<version>`, and checks written for it test that
 * (`json.headers["User-Agent"].startsWith("canary-checker/")`); the rest says who really asks.
 */
const USER_AGENT = `canary-checker/watchkeeper-${VERSION}`;

function rawUrl(spec: HttpSpec): string {
  return spec.url || spec.endpoint || '';
}

/** What the check points at, as lists show it: no user or password, secret query parameters masked. */
function endpointOf(spec: HttpSpec): string {
  return shownText(rawUrl(spec));
}

const invalid = (message: string): CheckOutcome => ({ pass: false, invalid: true, message, error: message, data: {} });

interface Prepared {
  url: URL;
  username: string;
  password: string;
  headers: Array<{ name: string; value: string }>;
  body: string | undefined;
}

/** The request as written, filled in: templates applied, the URL parsed, its user:password taken out. */
function prepare(spec: HttpSpec, ctx: CheckContext): Prepared | CheckOutcome {
  const variables = templateVariables(spec, ctx, endpointOf(spec));
  const raw = rawUrl(spec);
  let text = raw;
  try {
    if (isTemplated(raw)) text = templatedUrl(raw, variables);
  } catch (error) {
    return invalid(`failed to template the url: ${error instanceof ExpressionError ? error.message : messageOf(error)}`);
  }
  const parsed = URL.canParse(text) ? new URL(text) : undefined;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    return invalid(`invalid url "${shownText(text)}": must be an http:// or https:// URL with a host`);
  }
  // As canary-checker: a user:password@ in the URL is the credentials, over the username and password fields.
  const inUrl = parsed.username || parsed.password;
  const username = inUrl ? decodeURIComponent(parsed.username) : (spec.username ?? '');
  const password = inUrl ? decodeURIComponent(parsed.password) : (spec.password ?? '');
  parsed.username = '';
  parsed.password = '';
  try {
    return { url: parsed, username, password, headers: templatedHeaders(spec, variables), body: templatedBody(spec, variables) };
  } catch (error) {
    return invalid(`failed to template the request: ${error instanceof ExpressionError ? error.message : messageOf(error)}`);
  }
}

function tlsOf(spec: HttpSpec): HttpRequest['tls'] {
  return {
    rejectUnauthorized: !spec.tlsConfig?.insecureSkipVerify,
    ...(spec.tlsConfig?.ca ? { ca: spec.tlsConfig.ca } : {}),
    ...(spec.tlsConfig?.cert ? { cert: spec.tlsConfig.cert } : {}),
    ...(spec.tlsConfig?.key ? { key: spec.tlsConfig.key } : {}),
    handshakeTimeoutMs: spec.tlsConfig?.handshakeTimeout || DEFAULT_HANDSHAKE_MS,
  };
}

async function crawlOutcome(spec: HttpSpec, url: URL, ctx: CheckContext): Promise<CheckOutcome> {
  const started = performance.now();
  const result = await crawl(url, spec.crawl ?? {}, { tls: tlsOf(spec), signal: ctx.signal, userAgent: USER_AGENT });
  const duration = Math.round(performance.now() - started);
  const data = { missing: result.missing, visited: result.visited };
  if (result.refused) return { pass: false, duration, message: `${shown(url)}: the crawl rules refuse the start URL (${result.refused})`, data };
  let message = `Visited: ${result.visited}`;
  if (result.missing.length > 0) message += `, Missing: ${result.missing.length}`;
  if (result.stopped) message += ` (${result.stopped})`;
  const details = { url: shown(url), visited: result.visited, missing: result.missing, ...(result.stopped ? { stopped: result.stopped } : {}) };
  return { pass: result.missing.length === 0 && !result.stopped, duration, message, data, details };
}

/**
 * `http`, as canary-checker's: sends the request (templated from `env`, authenticated with Basic, Digest,
 * OAuth2 client credentials or AWS SigV4), follows redirects and judges the answer (http-judge.ts); with
 * `crawl`, follows the links of the site instead (http-crawl.ts). Variables: code, headers, content, json,
 * sslAge, elapsed; with crawl, missing and visited.
 */
export const httpCheck = defineCheckType({
  type: 'http',
  label: 'HTTP',
  icon: 'globe',
  schema: httpSchema,
  endpoint: endpointOf,
  timeoutMs: (spec) => (spec.crawl ? CRAWL_TIMEOUT_MS : spec.thresholdMillis ? spec.thresholdMillis + 2000 : undefined),
  warnings(spec) {
    const warnings = [];
    if (spec.crawl?.filters) warnings.push({ path: 'crawl.filters', message: 'is read and not run (canary-checker does not run it either); use allowedURLFilters or disallowedURLFilters' });
    if (spec.awsSigV4?.skipTLSVerify !== undefined) warnings.push({ path: 'awsSigV4.skipTLSVerify', message: 'concerns calls to AWS itself, which signing with static keys does not make; ignored' });
    return warnings;
  },
  async run(spec, ctx) {
    const prepared = prepare(spec, ctx);
    if (!('url' in prepared)) return prepared;
    let { url } = prepared;
    if (spec.crawl) return crawlOutcome(spec, url, ctx);

    const threshold = spec.thresholdMillis ? AbortSignal.timeout(spec.thresholdMillis) : undefined;
    const signal = threshold ? AbortSignal.any([ctx.signal, threshold]) : ctx.signal;
    const method = spec.method ?? 'GET';
    const tls = tlsOf(spec);
    const started = performance.now();
    let response: HttpResponse;
    try {
      let sign: HttpRequest['sign'];
      if (spec.awsSigV4) ({ url, sign } = awsSigning(spec.awsSigV4, url));
      const credentials = await credentialsFor(spec, prepared.username, prepared.password, { tls, signal });
      response = await send({
        url,
        method,
        headers: prepared.headers,
        // As Go's client (canary-checker's), a body goes with any method but HEAD.
        ...(prepared.body !== undefined && prepared.body !== '' && method !== 'HEAD' ? { body: prepared.body } : {}),
        ...credentials,
        ...(sign ? { sign } : {}),
        userAgent: USER_AGENT,
        tls,
        maxRedirects: spec.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
        signal,
      });
    } catch (error) {
      if (error instanceof InvalidAuth) return invalid(error.message);
      const duration = Math.round(performance.now() - started);
      const reason = threshold?.aborted ? `no answer within the threshold of ${spec.thresholdMillis} ms` : ctx.signal.aborted ? 'no answer before the timeout' : messageOf(error);
      return { pass: false, duration, message: `${method} ${shown(url)}: ${reason}`, error: reason, data: { code: 0, headers: {}, content: '', json: {}, sslAge: celDuration(0), elapsed: celDuration(duration) } };
    }
    const duration = Math.round(performance.now() - started);
    refusedToken(spec, prepared.username, prepared.password, response.status);
    return judge(spec, method, response, duration);
  },
});
