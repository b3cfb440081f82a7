import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Server } from 'node:net';
import { awsVerify, basicAuth, bearer, digestAuth, newAuthState, tokenEndpoint, type AuthState } from './httpbin-auth';
import { testCertificates } from './certificates';
import { bookPage, indexPage, linksPage } from './httpbin-pages';
import { args, echoedHeaders, json, reply, type Reply } from './httpbin-reply';

/**
 * A local stand-in for httpbin (and the few other public services canary-checker's fixtures call:
 * Frankfurter's exchange rates, an OAuth2 token endpoint), on 127.0.0.1 over HTTP and HTTPS. It answers as
 * httpbin does — status codes, JSON shapes (indented, `application/json`), header names as Go writes them —
 * so those fixtures run unchanged with only the host rewritten.
 */
export interface Httpbin {
  /** http://127.0.0.1:port */
  url: string;
  /** https://127.0.0.1:port, with a certificate for 127.0.0.1 and localhost signed by `ca`. */
  httpsUrl: string;
  /** PEM of the CA to trust for httpsUrl. */
  ca: string;
  /** What the auth endpoints saw: tokens issued, token requests. */
  auth: AuthState;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
const MAX_DELAY_S = 10;

// USD rates for the Frankfurter-like /latest (fixed, so tests can compare).
const USD_RATES: Readonly<Record<string, number>> = { USD: 1, EUR: 0.9215, GBP: 0.7893, ILS: 3.7124, ZAR: 18.604, JPY: 151.37, CHF: 0.9011 };

interface Context {
  request: http.IncomingMessage;
  url: URL;
  body: Buffer;
  state: AuthState;
}

/** The request as /get, /post, /anything echo it. */
function echo(ctx: Context, withBody: boolean, extra: Record<string, unknown> = {}): Reply {
  const headers = echoedHeaders(ctx.request);
  const base: Record<string, unknown> = { args: args(ctx.url), headers, origin: ctx.request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '', url: ctx.url.toString() };
  if (!withBody) return json(200, { ...base, ...extra });
  const text = ctx.body.toString('utf8');
  const isForm = /application\/x-www-form-urlencoded/i.test(String(ctx.request.headers['content-type'] ?? ''));
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const form = isForm ? args(new URL(`http://x/?${text}`)) : {};
  return json(200, { ...base, data: isForm ? '' : text, files: {}, form, json: parsed, ...extra });
}

/** /status/{codes}: one of the listed codes (`200,201` or weighted `200:3,500:1`), with httpbin's extras. */
function status(codes: string): Reply {
  const choices = codes.split(',').map((item) => {
    const [code = '', weight = '1'] = item.split(':');
    return { code: Number(code), weight: Number(weight) };
  });
  if (choices.some((choice) => !Number.isInteger(choice.code) || choice.code < 100 || choice.code > 599 || !(choice.weight > 0))) return reply(400, 'Invalid status code');
  let pick = Math.random() * choices.reduce((sum, choice) => sum + choice.weight, 0);
  const chosen = choices.find((choice) => (pick -= choice.weight) < 0) ?? choices[0];
  const code = chosen?.code ?? 200;
  if ([301, 302, 303, 305, 307].includes(code)) return reply(code, '', { location: '/redirect/1' });
  if (code === 401) return reply(code, '', { 'www-authenticate': 'Basic realm="Fake Realm"' });
  if (code === 418) return reply(code, "I'm a teapot\n", { 'x-more-info': 'http://tools.ietf.org/html/rfc2324' });
  return reply(code, '');
}

/** Frankfurter's /latest?from=USD&to=EUR,GBP: `{amount, base, date, rates}`. */
function latest(url: URL): Reply {
  const base = (url.searchParams.get('from') ?? url.searchParams.get('base') ?? 'EUR').toUpperCase();
  const amount = Number(url.searchParams.get('amount') ?? 1);
  const wanted = (url.searchParams.get('to') ?? url.searchParams.get('symbols') ?? Object.keys(USD_RATES).join(',')).toUpperCase().split(',').filter(Boolean);
  const baseRate = USD_RATES[base];
  if (baseRate === undefined || wanted.some((code) => USD_RATES[code] === undefined)) return json(404, { message: 'not found' });
  const rates: Record<string, number> = {};
  for (const code of wanted) if (code !== base) rates[code] = Math.round((amount * (USD_RATES[code] ?? 0) * 100_000) / baseRate) / 100_000;
  return json(200, { amount, base, date: new Date().toISOString().slice(0, 10), rates });
}

type Route = [method: string | undefined, pattern: RegExp, handler: (ctx: Context, ...params: string[]) => Reply | Promise<Reply>];

const ROUTES: Route[] = [
  ['GET', /^\/$/, () => indexPage()],
  ['GET', /^\/get$/, (ctx) => echo(ctx, false)],
  ['POST', /^\/post$/, (ctx) => echo(ctx, true)],
  ['PUT', /^\/put$/, (ctx) => echo(ctx, true)],
  ['PATCH', /^\/patch$/, (ctx) => echo(ctx, true)],
  ['DELETE', /^\/delete$/, (ctx) => echo(ctx, true)],
  [undefined, /^\/anything(?:\/.*)?$/, (ctx) => echo(ctx, true, { method: ctx.request.method })],
  ['GET', /^\/headers$/, (ctx) => json(200, { headers: echoedHeaders(ctx.request) })],
  ['GET', /^\/user-agent$/, (ctx) => json(200, { 'user-agent': ctx.request.headers['user-agent'] ?? '' })],
  ['GET', /^\/uuid$/, () => json(200, { uuid: randomUUID() })],
  ['GET', /^\/html$/, () => bookPage()],
  [undefined, /^\/status\/([\d,:.]+)$/, (_ctx, codes = '') => status(codes)],
  [undefined, /^\/delay\/(\d+(?:\.\d+)?)$/, (ctx, seconds = '0') => delay(ctx, Math.min(Number(seconds), MAX_DELAY_S))],
  [undefined, /^\/redirect-to$/, (ctx) => reply(Number(ctx.url.searchParams.get('status_code') ?? 302), '', { location: ctx.url.searchParams.get('url') ?? '/' })],
  ['GET', /^\/redirect\/(\d+)$/, (_ctx, n = '1') => reply(302, '', { location: Number(n) > 1 ? `/redirect/${Number(n) - 1}` : '/get' })],
  ['GET', /^\/links\/(\d+)(?:\/(\d+))?$/, (_ctx, n = '1', offset = '0') => linksPage(Math.min(Number(n), 200), Number(offset))],
  ['GET', /^\/basic-auth\/([^/]+)\/([^/]+)$/, (ctx, user = '', password = '') => basicAuth(ctx.request, decodeURIComponent(user), decodeURIComponent(password))],
  ['GET', /^\/bearer$/, (ctx) => bearer(ctx.request, ctx.state, false)],
  [undefined, /^\/oauth\/protected$/, (ctx) => bearer(ctx.request, ctx.state, true)],
  [undefined, /^\/digest-auth\/([^/]+)\/([^/]+)\/([^/]+)(?:\/([^/]+))?(?:\/[^/]+)?$/, (ctx, qop = '', user = '', password = '', algorithm) => digestAuth(ctx.request, ctx.body, ctx.state, qop, user, password, algorithm)],
  [undefined, /^\/(?:oauth\/v2\/oauth-token|oauth\/token)$/, (ctx) => tokenEndpoint(ctx.request, ctx.body, ctx.state)],
  [undefined, /^\/aws(?:\/.*)?$/, (ctx) => awsVerify(ctx.request, ctx.body)],
  ['GET', /^\/latest$/, (ctx) => latest(ctx.url)],
];

function delay(ctx: Context, seconds: number): Promise<Reply> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(echo(ctx, true)), seconds * 1000);
    // A client that gave up does not keep the timer (and the test process) alive.
    ctx.request.socket.once('close', () => {
      clearTimeout(timer);
      resolve(reply(499, ''));
    });
  });
}

async function route(ctx: Context): Promise<Reply> {
  const method = ctx.request.method === 'HEAD' ? 'GET' : (ctx.request.method ?? 'GET');
  let pathMatched = false;
  for (const [wanted, pattern, handler] of ROUTES) {
    const match = pattern.exec(ctx.url.pathname);
    if (!match) continue;
    pathMatched = true;
    if (wanted && wanted !== method) continue;
    return handler(ctx, ...match.slice(1).map((part) => part ?? ''));
  }
  return pathMatched ? reply(405, '<title>405 Method Not Allowed</title>') : reply(404, '<title>404 Not Found</title><h1>Not Found</h1>');
}

function handler(scheme: 'http' | 'https', state: AuthState): http.RequestListener {
  return (request, response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', `${scheme}://${request.headers.host ?? '127.0.0.1'}`);
      route({ request, url, body: Buffer.concat(chunks), state })
        .catch((error: unknown) => reply(500, String(error)))
        .then((answer) => {
          if (response.destroyed) return;
          const headers = { 'access-control-allow-origin': '*', 'access-control-allow-credentials': 'true', ...answer.headers };
          response.writeHead(answer.status, headers);
          response.end(request.method === 'HEAD' ? undefined : answer.body);
        })
        .catch((error: unknown) => response.destroy(error instanceof Error ? error : new Error(String(error))));
    });
  };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

function closeServer(server: http.Server | https.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the stand-in on two free ports of 127.0.0.1 (HTTP and HTTPS). */
export async function startHttpbin(): Promise<Httpbin> {
  const { ca, cert, key } = await testCertificates();
  const auth = newAuthState();
  const plain = http.createServer(handler('http', auth));
  const secure = https.createServer({ cert, key }, handler('https', auth));
  const [port, securePort] = await Promise.all([listen(plain), listen(secure)]);
  return {
    url: `http://127.0.0.1:${port}`,
    httpsUrl: `https://127.0.0.1:${securePort}`,
    ca,
    auth,
    close: async () => {
      await Promise.all([closeServer(plain), closeServer(secure)]);
    },
  };
}
