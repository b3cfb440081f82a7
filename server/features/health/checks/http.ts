import { z } from 'zod';
import { isRecord, messageOf } from '../../../platform/errors';
import { defineCheckType } from '../define';
import { celDuration, ExpressionError, renderTemplate } from '../expressions';
import { durationSchema } from '../units';
import { describeCertificate, expiryProblem, type CertificateInfo } from './certificate';
import { envVarSchema, namedEnvVarSchema } from './env-var';
import { MAX_BODY_BYTES, send, type HttpResponse } from '../../../platform/peers/http-client';
import { parseJsonPath, textOf, valueAt } from './json-path';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
/** Kept with each result for people to read: the start of the answer, not all of it. */
const DETAIL_BODY_CHARS = 4096;
const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_HANDSHAKE_MS = 10_000;

const tlsConfigSchema = z.strictObject({
  insecureSkipVerify: z.boolean().optional(),
  handshakeTimeout: durationSchema.optional(),
  ca: envVarSchema.optional(),
  cert: envVarSchema.optional(),
  key: envVarSchema.optional(),
});

const schema = z
  .object({
    url: z.string().trim().optional(),
    endpoint: z.string().trim().optional(),
    method: z
      .string()
      .trim()
      .toUpperCase()
      .pipe(z.enum(METHODS, { message: `must be one of ${METHODS.join(', ')}` }))
      .optional(),
    headers: z.array(namedEnvVarSchema).optional(),
    body: z.string().optional(),
    templateBody: z.boolean().optional(),
    env: z.array(namedEnvVarSchema).optional(),
    username: envVarSchema.optional(),
    password: envVarSchema.optional(),
    responseCodes: z.array(z.number().int().min(100, 'must be an HTTP status code').max(599, 'must be an HTTP status code')).optional(),
    responseContent: z.string().optional(),
    responseJSONContent: z.strictObject({
      path: z.string({ message: 'is required' }).min(1, 'is required').refine((path) => parseJsonPath(path) !== undefined, 'must be a simple JSONPath such as $.status or $.items[0].name'),
      value: z.union([z.string(), z.number(), z.boolean()]).transform(String),
    }).optional(),
    thresholdMillis: z.number().int().positive().optional(),
    maxSSLExpiry: z.number().int().nonnegative().optional(),
    maxRedirects: z.number().int().min(0).max(50).optional(),
    tlsConfig: tlsConfigSchema.optional(),
  })
  .loose()
  .superRefine((spec, ctx) => {
    if (spec.url && spec.endpoint) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'give url or endpoint (its older name), not both' });
    const raw = spec.url || spec.endpoint;
    if (!raw) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
      return;
    }
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
      ctx.addIssue({ code: 'custom', path: [spec.url ? 'url' : 'endpoint'], message: 'must be an http:// or https:// URL with a host' });
    }
  });

type HttpSpec = z.infer<typeof schema>;

/** The URL without the user and password it may carry (they become basic auth). */
function targetOf(spec: HttpSpec): { url: URL; userinfo?: { username: string; password: string } } {
  const url = new URL(spec.url || spec.endpoint || '');
  const userinfo = url.username || url.password ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : undefined;
  url.username = '';
  url.password = '';
  return { url, ...(userinfo ? { userinfo } : {}) };
}

// Query parameters that carry credentials (?token=…, ?api_key=…) are masked wherever the URL is shown.
const SECRET_PARAMETER = /pass|secret|token|key|auth|signature|sig$/i;

/** The URL as people see it (endpoint, messages, details): no user or password, credentials masked. */
function shown(url: URL): string {
  const copy = new URL(url);
  copy.username = '';
  copy.password = '';
  for (const name of new Set(copy.searchParams.keys())) if (SECRET_PARAMETER.test(name)) copy.searchParams.set(name, '***');
  return copy.toString();
}

/** Header names as Go writes them (Content-Type), so canary-checker expressions such as headers['Location'] work. */
function canonicalHeaders(headers: HttpResponse['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const canonical = name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
    result[canonical] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function hasTestExpression(spec: HttpSpec): boolean {
  const test = spec.test;
  return isRecord(test) && typeof test.expr === 'string' && test.expr.trim() !== '';
}

/**
 * `http`: sends the request (following redirects) and checks the answer: the status code (responseCodes,
 * else 200–299; with a test.expr and no responseCodes the test decides), thresholdMillis, responseContent,
 * responseJSONContent and maxSSLExpiry. Variables as canary-checker: code, headers, content, json, sslAge,
 * elapsed.
 */
export const httpCheck = defineCheckType({
  type: 'http',
  label: 'HTTP',
  icon: 'globe',
  schema,
  endpoint: (spec) => shown(targetOf(spec).url),
  timeoutMs: (spec) => (spec.thresholdMillis ? spec.thresholdMillis + 2000 : undefined),
  async run(spec, ctx) {
    const { url, userinfo } = targetOf(spec);
    const username = spec.username ?? userinfo?.username ?? '';
    const password = spec.password ?? userinfo?.password ?? '';
    let body = spec.body;
    if (body !== undefined && spec.templateBody) {
      const values: Record<string, unknown> = { ...ctx.env };
      for (const item of spec.env ?? []) values[item.name] = item.value;
      try {
        body = renderTemplate('body', body, values);
      } catch (error) {
        return { pass: false, invalid: true, message: error instanceof ExpressionError ? error.message : messageOf(error), data: {} };
      }
    }
    const threshold = spec.thresholdMillis ? AbortSignal.timeout(spec.thresholdMillis) : undefined;
    const signal = threshold ? AbortSignal.any([ctx.signal, threshold]) : ctx.signal;
    const method = spec.method ?? 'GET';
    const started = performance.now();
    let response: HttpResponse;
    try {
      response = await send({
        url,
        method,
        headers: spec.headers ?? [],
        ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
        ...(username || password ? { basicAuth: { username, password } } : {}),
        tls: {
          rejectUnauthorized: !spec.tlsConfig?.insecureSkipVerify,
          ...(spec.tlsConfig?.ca ? { ca: spec.tlsConfig.ca } : {}),
          ...(spec.tlsConfig?.cert ? { cert: spec.tlsConfig.cert } : {}),
          ...(spec.tlsConfig?.key ? { key: spec.tlsConfig.key } : {}),
          handshakeTimeoutMs: spec.tlsConfig?.handshakeTimeout || DEFAULT_HANDSHAKE_MS,
        },
        maxRedirects: spec.maxRedirects ?? DEFAULT_MAX_REDIRECTS,
        signal,
      });
    } catch (error) {
      const duration = Math.round(performance.now() - started);
      const reason = threshold?.aborted ? `no answer within the threshold of ${spec.thresholdMillis} ms` : ctx.signal.aborted ? 'no answer before the timeout' : messageOf(error);
      return { pass: false, duration, message: `${method} ${shown(url)}: ${reason}`, error: reason, data: { code: 0, headers: {}, content: '', json: {}, sslAge: celDuration(0), elapsed: celDuration(duration) } };
    }
    const duration = Math.round(performance.now() - started);
    return judge(spec, method, response, duration);
  },
});

function judge(spec: HttpSpec, method: string, response: HttpResponse, duration: number) {
  const content = response.body.toString('utf8');
  const headers = canonicalHeaders(response.headers);
  const certificate: CertificateInfo | undefined = response.certificate ? describeCertificate(response.certificate) : undefined;
  const problems: string[] = [];

  let json: unknown = {};
  if (/json/i.test(headers['Content-Type'] ?? '')) {
    try {
      json = JSON.parse(content);
    } catch (error) {
      // As canary-checker: a broken JSON answer fails unless a test expression decides instead.
      if (!hasTestExpression(spec)) problems.push(`the answer is not valid JSON: ${messageOf(error)}`);
    }
  }

  const code = response.status;
  if (spec.responseCodes?.length) {
    if (!spec.responseCodes.includes(code)) problems.push(`answered ${code}, expected ${spec.responseCodes.join(' or ')}`);
  } else if (!hasTestExpression(spec) && (code < 200 || code > 299)) {
    problems.push(`answered ${code}, expected 200–299`);
  }
  if (spec.thresholdMillis && duration > spec.thresholdMillis) problems.push(`answered in ${duration} ms, more than the threshold of ${spec.thresholdMillis} ms`);
  if (spec.responseContent && !content.includes(spec.responseContent)) problems.push(`the answer does not contain "${spec.responseContent}"`);
  if (spec.responseJSONContent) {
    const steps = parseJsonPath(spec.responseJSONContent.path) ?? [];
    const found = valueAt(json, steps);
    if (found === undefined) problems.push(`the answer has nothing at ${spec.responseJSONContent.path}`);
    else if (textOf(found) !== spec.responseJSONContent.value) problems.push(`${spec.responseJSONContent.path} is "${textOf(found)}", expected "${spec.responseJSONContent.value}"`);
  }
  if (spec.maxSSLExpiry) {
    const problem = certificate ? expiryProblem(certificate, spec.maxSSLExpiry) : 'there is no certificate to check (maxSSLExpiry needs an https URL)';
    if (problem) problems.push(problem);
  }

  const data = {
    code,
    headers,
    content,
    json,
    sslAge: celDuration(certificate?.msLeft ?? 0),
    elapsed: celDuration(duration),
  };
  const details = {
    url: shown(response.url),
    method,
    status: code,
    headers,
    body: content.length > DETAIL_BODY_CHARS ? `${content.slice(0, DETAIL_BODY_CHARS)}…` : content,
    ...(response.truncated ? { truncated: `the answer was longer than ${MAX_BODY_BYTES} bytes; only that much was read` } : {}),
    ...(response.redirects.length ? { redirects: response.redirects.map((item) => shown(new URL(item))) } : {}),
    ...(certificate ? { certificate } : {}),
  };
  const summary = `${code} in ${duration} ms${certificate ? `, certificate valid for ${certificate.daysLeft} more days` : ''}`;
  if (problems.length > 0) return { pass: false, duration, message: problems.join('; '), data, details };
  return { pass: true, duration, message: summary, data, details };
}
