import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import type pg from 'pg';
import { features } from './features';
import { registerPostgrestHooks } from './postgrest/hooks';
import { identityAuthenticator } from './features/identity/authenticate';
import { installHosted } from './features/hosted';
import { useKubeKinds } from './features/kube';
import { installAccessGuard } from './platform/auth/guard';
import { initSecrets } from './platform/secrets';
import type { Config } from './platform/config';
import type { AppContext } from './platform/context';
import { installJsonBodyParser } from './platform/http/body';
import { AppError, type ErrorBody } from './platform/http/errors';
import { buildOpenApi } from './platform/http/openapi';
import type { RouteDoc } from './platform/http/route';
import { securityHeaders } from './platform/http/security';
import type { Logger } from './platform/logger';
import { Metrics } from './platform/metrics';
import { VERSION, WEB_DIST } from './platform/paths';
import { useEgressPolicyFrom } from './platform/egress';
import { codeOf } from './platform/errors';
import { trustedProxies } from './platform/tls';
import { cookiePolicy } from './features/identity/cookies';

export interface BuildOptions {
  config: Config;
  pool: pg.Pool;
  log: Logger;
  /** Serve the built SPA from this folder (default dist/web). */
  webDist?: string;
}

export const BODY_LIMIT = 4 * 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

function errorBody(error: FastifyError | AppError | Error, bodyLimit = BODY_LIMIT): { status: number; body: ErrorBody } {
  if (error instanceof AppError) return { status: error.status, body: error.toBody() };
  switch (codeOf(error)) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { error: 'payload_too_large', message: `request body is larger than the limit of ${bodyLimit} bytes` } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { error: 'unsupported_media_type', message: 'unsupported Content-Type; send application/json' } };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { error: 'invalid_request', message: 'body: the JSON body is not valid JSON' } };
    default:
      break;
  }
  const statusCode = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : undefined;
  if (statusCode === 400 && error instanceof SyntaxError) {
    return { status: 400, body: { error: 'invalid_request', message: 'body: the JSON body is not valid JSON' } };
  }
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return { status: statusCode, body: { error: statusCode === 404 ? 'not_found' : 'invalid_request', message: error.message } };
  }
  return { status: 500, body: { error: 'internal_error', message: 'internal error; the server log has the details under this request id' } };
}

/** Query parameters that carry credentials (a webhook's ?token=…) are masked in request logs. */
function withoutSecretParams(url: string): string {
  return url.replace(/([?&](?:token|access_token|password)=)[^&#]*/gi, '$1***');
}

/** The one error handler: stable codes and statuses, never a stack or SQL text in the answer. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, req, reply) => {
    const { status, body } = errorBody(error, req.routeOptions.bodyLimit ?? BODY_LIMIT);
    if (status >= 500) req.log.error({ err: error }, 'request failed');
    void reply.status(status).type('application/json; charset=utf-8').send(body);
  });
}

export async function buildApp(options: BuildOptions): Promise<{ app: FastifyInstance; context: AppContext }> {
  const { config, pool, log } = options;
  initSecrets(config.dataDir);
  // The egress policy's properties (egress.*) are read through the app's pool, for every feature's connections.
  useEgressPolicyFrom(pool);
  const metrics = new Metrics(pool);
  const baseLogger: FastifyBaseLogger = log;
  const app = Fastify({
    loggerInstance: baseLogger,
    bodyLimit: BODY_LIMIT,
    // Requests are logged once, in onResponse, with route and duration.
    logController: new LogController({ disableRequestLogging: true }),
    // X-Forwarded-* is believed only from the configured proxies (TRUSTED_PROXIES, loopback by default): a
    // forged X-Forwarded-For from anyone else must not pick the address that sign-in throttling counts.
    trustProxy: trustedProxies(config),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });

  const routeDocs: RouteDoc[] = [];
  const auth = identityAuthenticator(pool);
  const context: AppContext = { config, pool, log, metrics, openApiPaths: {}, auth, routes: [] };

  app.addHook('onRoute', (routeOptions) => {
    const doc = routeOptions.config?.doc;
    if (doc) routeDocs.push({ ...doc, url: routeOptions.url });
    for (const method of [routeOptions.method].flat()) context.routes.push({ method, url: routeOptions.url, access: routeOptions.config?.access });
  });

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  app.addHook('onSend', securityHeaders(config));
  app.addHook('onResponse', async (req, reply) => {
    const routeUrl = req.routeOptions.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics.httpDuration.observe({ method: req.method, route: routeUrl, status_code: String(reply.statusCode) }, seconds);
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    if (req.url !== '/health' || reply.statusCode !== 200) {
      req.log[level]({ method: req.method, url: withoutSecretParams(req.url), route: routeUrl, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
    }
  });

  installErrorHandler(app);
  installJsonBodyParser(app);
  await app.register(cookie);
  cookiePolicy(app, config);
  installHosted(app, context);
  installAccessGuard(app, auth);

  // API answers are compressed quickly (the app's own files are compressed at build time): brotli at
  // quality 1 is within 1% of quality 4 on JSON and more than twice as fast, which counts for a summary of
  // ten thousand checks. An answer already in memory is compressed in one call, up to 16 MB (7 MB of JSON
  // takes about 7 ms): through a zlib stream the same answer reached the client some 30 ms later.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    syncThreshold: 16 * 1024 * 1024,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
  });

  const open = { config: { access: 'public' as const } };
  app.get('/health', open, async (req, reply) => {
    // /health is also the console's Health page (spec §2): a browser asking for a page gets the app.
    if (wantsHtml(req.headers.accept)) return reply.callNotFound();
    try {
      await pool.query('SELECT 1');
      return { status: 'ok', database: 'ok', version: VERSION };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: 'unreachable', version: VERSION });
    }
  });

  app.get('/metrics', open, async (_req, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });

  app.get('/api/openapi.json', open, async () => buildOpenApi(routeDocs, { version: VERSION, serverUrl: config.publicUrl }, context.openApiPaths));

  // /api/db is platform-level: it learns the features' hooks here, where the app is composed.
  for (const feature of features) if (feature.postgrestHooks) registerPostgrestHooks(feature.postgrestHooks);
  // The Kubernetes-style API serves the kinds the features give (Feature.kubeKinds), assembled here.
  useKubeKinds(features.flatMap((feature) => feature.kubeKinds ?? []));
  for (const feature of features) {
    await app.register(async (scope) => feature.register(scope, context), { prefix: feature.prefix ?? '' });
  }

  await registerWeb(app, options.webDist ?? WEB_DIST);
  return { app, context };
}

/** A browser navigating to a page (its Accept lists text/html); probes and API clients do not ask for HTML. */
export function wantsHtml(accept: string | undefined): boolean {
  return accept !== undefined && /(^|,)\s*text\/html\b/.test(accept);
}

/** The built SPA: hashed assets cached forever, index.html never, and history fallback for app routes. */
async function registerWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true, // x.br / x.gz written by the build
      cacheControl: false, // set per file below
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (req, reply) => {
    const pathname = req.url.split('?')[0] ?? '/';
    const isApi = pathname.startsWith('/api/') || pathname === '/api' || pathname === '/metrics' || (pathname === '/health' && !wantsHtml(req.headers.accept));
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !isApi && !path.extname(pathname);
    if (wantsPage && hasWeb) {
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
    }
    if (wantsPage) {
      return reply.status(503).type('text/plain; charset=utf-8').send('The web console is not built. Run `npm run build` (npm start does it for you).');
    }
    return reply.status(404).send({ error: 'not_found', message: `${req.method} ${pathname} does not exist` });
  });
}
