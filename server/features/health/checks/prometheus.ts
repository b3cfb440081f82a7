import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { defineCheckType } from '../define';
import { egressConnectOptions } from '../../../platform/egress';
import { envVarField, redactConnection, safeMessage, urlPassword } from '../../../platform/peers/credentials';

/** Answers larger than this are not a health signal; they are refused rather than read into memory. */
const MAX_BODY = 8 * 1024 * 1024;
const KEPT_RESULTS = 20;

/**
 * canary-checker's PrometheusCheck: `url` (the API base; the deprecated `host` is refused there too) and
 * `query`, with the HTTP connection's auth: `username`/`password` (basic), `bearer`, `headers`, and
 * `tls.insecureSkipVerify` / `tls.ca`. OAuth and AWS SigV4 are not supported (reported as fields).
 */
const schema = z
  .object({
    url: z.string().trim().regex(/^https?:\/\/\S+$/i, 'must be an http:// or https:// URL').optional(),
    connection: z.string().trim().regex(/^connection:\/\//, 'must be a connection reference: connection://<namespace>/<name>').optional(),
    query: z.string({ message: 'is required: a PromQL query' }).trim().min(1, 'is required: a PromQL query'),
    username: envVarField.optional(),
    password: envVarField.optional(),
    bearer: envVarField.optional(),
    headers: z.array(z.object({ name: z.string().min(1, 'is required'), value: z.string({ message: 'is required (valueFrom is not supported)' }) })).optional(),
    tls: z.object({ insecureSkipVerify: z.boolean().optional(), ca: envVarField.optional() }).optional(),
  })
  .loose()
  // A connection gives the url when the check runs (server/platform/secrets/spec-references.ts).
  // Checked with the other fields' problems (`when`), not only once they are all valid.
  .superRefine((spec, ctx) => {
    if (!spec?.url && !spec?.connection) ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required: the Prometheus base URL, e.g. http://prometheus:9090 (host is deprecated; use url), or a connection' });
  }, { when: () => true })
  .transform((spec) => ({ ...spec, url: spec.url ?? '' }));

type PrometheusSpec = z.infer<typeof schema>;

const sample = z.tuple([z.number(), z.string()]);
const answer = z.object({
  status: z.enum(['success', 'error']),
  data: z
    .object({
      resultType: z.enum(['vector', 'scalar', 'matrix', 'string']),
      result: z.unknown(),
    })
    .optional(),
  errorType: z.string().optional(),
  error: z.string().optional(),
});
const vector = z.array(z.object({ metric: z.record(z.string(), z.string()), value: sample }));
const matrix = z.array(z.object({ metric: z.record(z.string(), z.string()), values: z.array(sample) }));

type Row = Record<string, string | number>;

/** One map per series, labels and `value` (a matrix series gives its last sample), as canary-checker does. */
function rowsOf(resultType: string, result: unknown): Row[] | string {
  if (resultType === 'vector') {
    const parsed = vector.safeParse(result);
    return parsed.success ? parsed.data.map((series) => ({ ...series.metric, value: Number(series.value[1]) })) : 'the vector result is not in the Prometheus format';
  }
  if (resultType === 'matrix') {
    const parsed = matrix.safeParse(result);
    return parsed.success ? parsed.data.map((series) => ({ ...series.metric, value: Number(series.values[series.values.length - 1]?.[1] ?? Number.NaN) })) : 'the matrix result is not in the Prometheus format';
  }
  const parsed = sample.safeParse(result);
  if (!parsed.success) return `the ${resultType} result is not in the Prometheus format`;
  return [{ value: resultType === 'scalar' ? Number(parsed.data[1]) : parsed.data[1] }];
}

async function get(url: URL, spec: PrometheusSpec, signal: AbortSignal): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (spec.username || spec.password) headers.authorization = `Basic ${Buffer.from(`${spec.username ?? ''}:${spec.password ?? ''}`).toString('base64')}`;
  else if (spec.bearer) headers.authorization = `Bearer ${spec.bearer}`;
  for (const header of spec.headers ?? []) headers[header.name.toLowerCase()] = header.value;
  const secure = url.protocol === 'https:';
  // The egress policy (server/platform/egress.ts) judges the address connected to, before connecting.
  const options = { ...(await egressConnectOptions(url.hostname)), method: 'GET', headers, signal, ...(secure ? { rejectUnauthorized: !spec.tls?.insecureSkipVerify, ...(spec.tls?.ca ? { ca: spec.tls.ca } : {}) } : {}) };
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) request.destroy(new Error(`the answer is larger than ${MAX_BODY / 1024 / 1024} MiB`));
        else chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * `prometheus`: GET {url}/api/v1/query?query=…; passes when Prometheus answers the query (status
 * success). Variables: value (the first result's value, 0 without results), firstResult (its labels and
 * value), results (every series' labels and value).
 */
export const prometheusCheck = defineCheckType({
  type: 'prometheus',
  label: 'Prometheus',
  icon: 'flame',
  schema,
  endpoint: (spec) => `${redactConnection(spec.url)} ${spec.query}`,
  async run(spec, ctx) {
    let url: URL;
    try {
      url = new URL(`${spec.url.replace(/\/+$/, '')}/api/v1/query`);
    } catch {
      return { pass: false, invalid: true, message: 'url is not a valid URL', data: {} };
    }
    url.searchParams.set('query', spec.query);
    const where = redactConnection(spec.url);
    const secrets = [spec.password, spec.bearer, urlPassword(spec.url), ...(spec.headers ?? []).map((header) => header.value)];
    const started = performance.now();
    const empty = { value: 0, firstResult: {}, results: [] };
    let reply: { status: number; body: string };
    try {
      reply = await get(url, spec, ctx.signal);
    } catch (error) {
      const reason = ctx.signal.aborted ? 'timed out' : safeMessage(error, secrets);
      return { pass: false, duration: Math.round(performance.now() - started), message: `could not query ${where}: ${reason}`, error: reason, data: empty };
    }
    const duration = Math.round(performance.now() - started);
    let json: unknown;
    try {
      json = JSON.parse(reply.body);
    } catch {
      return { pass: false, duration, message: `${where} answered HTTP ${reply.status} without a Prometheus answer (not JSON)`, data: empty };
    }
    const parsed = answer.safeParse(json);
    if (!parsed.success) return { pass: false, duration, message: `${where} answered HTTP ${reply.status} without a Prometheus answer`, data: empty };
    const body = parsed.data;
    if (body.status === 'error' || !body.data) {
      const reason = `${body.errorType ? `${body.errorType}: ` : ''}${body.error || `HTTP ${reply.status}`}`;
      return { pass: false, duration, message: `the query failed: ${reason}`, error: reason, data: empty };
    }
    const rows = rowsOf(body.data.resultType, body.data.result);
    if (typeof rows === 'string') return { pass: false, duration, message: rows, data: empty };
    const first = rows[0];
    const data = { value: first?.value ?? 0, firstResult: first ?? {}, results: rows };
    const details = { resultType: body.data.resultType, count: rows.length, results: rows.slice(0, KEPT_RESULTS) };
    const message = rows.length === 0 ? 'the query returned no results' : `${rows.length} result${rows.length === 1 ? '' : 's'}, first value ${String(data.value)}`;
    return { pass: true, duration, message, data, details };
  },
});
