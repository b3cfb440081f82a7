import { z } from 'zod';
import { envVarField, safeMessage } from '../../../platform/peers/credentials';
import { send } from '../../../platform/peers/http-client';
import type { SourceType } from '../types';
import { parseDocuments } from './files';

const header = z.object({ name: z.string().trim().min(1, 'is required'), value: envVarField });

const httpEntry = z
  .object({
    url: z
      .string({ message: 'is required' })
      .trim()
      .min(1, 'is required')
      .refine((text) => /^https?:\/\//i.test(text), 'must be an http:// or https:// URL'),
    method: z.enum(['GET', 'POST', 'PUT'], { message: 'must be GET, POST or PUT' }).optional(),
    /** A list of {name, value} as config-db writes it, or a plain map. */
    headers: z.union([z.array(header), z.record(z.string(), z.string())]).optional(),
    body: z.string().optional(),
    username: envVarField.optional(),
    password: envVarField.optional(),
    insecureSkipVerify: z.boolean().optional(),
    /** Seconds; 30 by default. */
    timeout: z.number().int().positive('must be a number of seconds').optional(),
    /** How to read the answer; JSON unless the answer says YAML. */
    format: z.enum(['json', 'yaml']).optional(),
  })
  .refine((entry) => entry.body === undefined || (entry.method !== undefined && entry.method !== 'GET'), { path: ['body'], message: 'needs method POST or PUT' });

/**
 * `http`: a JSON (or YAML) API. The answer is one result; `items` (a JSONPath such as `$.data[*]`) splits
 * it into one item per element, and a top-level array is split by itself. A status other than 2xx is an
 * error of the entry (and, like any failed entry, deletes nothing as stale).
 */
export const httpSource: SourceType<z.infer<typeof httpEntry>> = {
  key: 'http',
  label: 'HTTP',
  schema: httpEntry,
  async scrape(entry, ctx) {
    const url = new URL(entry.url);
    const headers = Array.isArray(entry.headers) ? entry.headers : Object.entries(entry.headers ?? {}).map(([name, value]) => ({ name, value }));
    if (!headers.some((item) => item.name.toLowerCase() === 'accept')) headers.push({ name: 'Accept', value: 'application/json, application/yaml;q=0.9, */*;q=0.1' });
    if (entry.body !== undefined && !headers.some((item) => item.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value: 'application/json' });
    const timeout = AbortSignal.timeout((entry.timeout ?? 30) * 1000);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const secrets = [entry.password, ...headers.filter((item) => /authorization|token|key/i.test(item.name)).map((item) => item.value)];
    let response;
    try {
      response = await send({
        url,
        method: entry.method ?? 'GET',
        headers,
        ...(entry.body !== undefined ? { body: entry.body } : {}),
        ...(entry.username || entry.password ? { basicAuth: { username: entry.username ?? '', password: entry.password ?? '' } } : {}),
        tls: { rejectUnauthorized: !entry.insecureSkipVerify, handshakeTimeoutMs: 10_000 },
        maxRedirects: 10,
        signal,
      });
    } catch (error) {
      throw new Error(timeout.aborted ? `${url.origin}${url.pathname} did not answer within ${entry.timeout ?? 30}s` : `${url.origin}${url.pathname}: ${safeMessage(error, secrets)}`);
    }
    if (response.status < 200 || response.status > 299) throw new Error(`${url.origin}${url.pathname} answered HTTP ${response.status}`);
    if (response.truncated) throw new Error(`${url.origin}${url.pathname} answered more than 10 MB; page or filter the API`);
    const type = String(response.headers['content-type'] ?? '');
    const format = entry.format ?? (/ya?ml/i.test(type) ? 'yaml' : 'json');
    let documents: unknown[];
    try {
      documents = parseDocuments(`answer.${format}`, response.body.toString('utf8'), format);
    } catch (error) {
      throw new Error(`${url.origin}${url.pathname} did not answer ${format.toUpperCase()}: ${safeMessage(error, secrets)}`);
    }
    // The source names the URL without its query string, which may carry a token.
    return documents.map((config) => ({ config, source: `${url.origin}${url.pathname}` }));
  },
};
