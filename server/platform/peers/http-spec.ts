import { z } from 'zod';
import { durationSchema } from '../units';
import { envVarField as envVarSchema, namedEnvVarField as namedEnvVarSchema } from './credentials';
import { parseJsonPath } from './json-path';

/**
 * The http check's fields, as canary-checker's HTTPCheck (api/v1/checks.go) writes them. Only fields this
 * version runs are listed: any other (ntlm, ntlmv2, relationships, …) is reported by name at
 * apply. `connection` is read, and fails the run naming it (no stored connections yet). responseJSONContent is still checked here, as older canary-checker versions did (current ones
 * only log it as deprecated).
 */

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** A URL that is templated ($(…) or {{…}}) is checked when it has been filled in, at run. */
export const isTemplated = (text: string) => text.includes('$(') || text.includes('{{');

const tlsConfigSchema = z.strictObject({
  insecureSkipVerify: z.boolean().optional(),
  handshakeTimeout: durationSchema.optional(),
  ca: envVarSchema.optional(),
  cert: envVarSchema.optional(),
  key: envVarSchema.optional(),
});

/** canary-checker's Oauth2Config: the client id and secret are the check's username and password. */
const oauth2Schema = z.strictObject({
  tokenURL: z.string({ message: 'is required' }).trim().min(1, 'is required'),
  scope: z.array(z.string()).optional(),
  // Mission Control's connection form writes the plural; both are read.
  scopes: z.array(z.string()).optional(),
  params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String)).optional(),
});

/**
 * duty's AWSSigV4: an AWSConnection (keys, region, endpoint…) and the service. `connection` and
 * `assumeRole` are accepted here so a canary applies (a warning), and fail its runs by name (this version
 * has neither stored connections nor STS); `skipTLSVerify` concerns AWS's own API calls, which signing with
 * static keys does not make (a warning).
 */
const awsSigV4Schema = z
  .strictObject({
  accessKey: envVarSchema.optional(),
  secretKey: envVarSchema.optional(),
  sessionToken: envVarSchema.optional(),
  region: z.string().trim().optional(),
  service: z.string().trim().optional(),
  endpoint: z.string().trim().optional(),
  connection: z.string().optional(),
  assumeRole: z.string().optional(),
  skipTLSVerify: z.boolean().optional(),
  })
  .superRefine((aws, ctx) => {
    if (aws.connection && !aws.connection.startsWith('connection://')) ctx.addIssue({ code: 'custom', path: ['connection'], message: 'must be a connection reference: connection://<namespace>/<name>' });
    if (aws.assumeRole) ctx.addIssue({ code: 'custom', path: ['assumeRole'], message: 'is not supported yet (no STS here): sign with the keys of the role itself', params: { atRun: true } });
  });

const regex = z.string().refine((text) => {
  try {
    new RegExp(text);
    return true;
  } catch {
    return false;
  }
}, 'must be a regular expression');

/** canary-checker's Crawl (colly underneath). `filters` is read and, as in canary-checker, not used. */
const crawlSchema = z.strictObject({
  depth: z.number().int().min(0).max(20, 'must be at most 20').optional(),
  parallelism: z.number().int().min(0).max(16, 'must be at most 16').optional(),
  delay: durationSchema.optional(),
  randomDelay: durationSchema.optional(),
  allowedDomains: z.array(z.string().trim().min(1)).optional(),
  disallowedDomains: z.array(z.string().trim().min(1)).optional(),
  allowedURLFilters: z.array(regex).optional(),
  disallowedURLFilters: z.array(regex).optional(),
  filters: z.array(z.string()).optional(),
});

export const httpSchema = z
  .object({
    url: z.string().trim().optional(),
    endpoint: z.string().trim().optional(),
    connection: z.string().trim().optional(),
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
    digest: z.boolean().optional(),
    oauth2: oauth2Schema.optional(),
    awsSigV4: awsSigV4Schema.optional(),
    responseCodes: z.array(z.number().int().min(100, 'must be an HTTP status code').max(599, 'must be an HTTP status code')).optional(),
    responseContent: z.string().optional(),
    responseJSONContent: z
      .strictObject({
        path: z.string({ message: 'is required' }).min(1, 'is required').refine((path) => parseJsonPath(path) !== undefined, 'must be a simple JSONPath such as $.status or $.items[0].name'),
        value: z.union([z.string(), z.number(), z.boolean()]).transform(String),
      })
      .optional(),
    thresholdMillis: z.number().int().positive().optional(),
    maxSSLExpiry: z.number().int().nonnegative().optional(),
    maxRedirects: z.number().int().min(0).max(50).optional(),
    tlsConfig: tlsConfigSchema.optional(),
    crawl: crawlSchema.optional(),
  })
  .loose()
  .superRefine((spec, ctx) => {
    if (spec.url && spec.endpoint) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'give url or endpoint (its older name), not both' });
    const raw = spec.url || spec.endpoint;
    // The connection gives the url (and credentials) when the check runs (server/platform/secrets).
    if (spec.connection && !raw) {
      if (!spec.connection.startsWith('connection://')) ctx.addIssue({ code: 'custom', path: ['connection'], message: 'must be a connection reference: connection://<namespace>/<name>' });
      return;
    }
    if (!raw) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required' });
      return;
    }
    if (isTemplated(raw)) return;
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
      ctx.addIssue({ code: 'custom', path: [spec.url ? 'url' : 'endpoint'], message: 'must be an http:// or https:// URL with a host' });
    }
  });

export type HttpSpec = z.infer<typeof httpSchema>;
export type CrawlSpec = NonNullable<HttpSpec['crawl']>;
export type AwsSigV4Spec = NonNullable<HttpSpec['awsSigV4']>;
