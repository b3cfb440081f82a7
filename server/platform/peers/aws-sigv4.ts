import { createHash, createHmac } from 'node:crypto';

/** What signs a request: static keys (an optional session token) for one region and service. */
export interface AwsSigningKeys {
  accessKey: string;
  secretKey: string;
  sessionToken?: string;
  region: string;
  service: string;
}

export interface SignableRequest {
  method: string;
  url: URL;
  /** Every header that will be sent, names in lower case; `host` among them. */
  headers: Readonly<Record<string, string>>;
  body: string | Buffer;
}

// Not signed, as AWS's own Go signer leaves them out: a proxy or the client library may change them.
const UNSIGNED = new Set(['authorization', 'user-agent', 'expect', 'x-amzn-trace-id', 'transfer-encoding', 'connection']);

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, `/` kept when asked. */
function encode(text: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/')) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The canonical path. As AWS's Go signer (which canary-checker uses) does, the path as sent is escaped once
 * more for every service but S3, so `%` becomes `%25`; S3 signs the path escaped once.
 */
function canonicalPath(url: URL, service: string): string {
  const path = url.pathname || '/';
  if (service === 's3') return encode(decodeURIComponent(path), true);
  return encode(path, true);
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams].map(([key, value]) => [encode(key, false), encode(value, false)] as const);
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

/** `20150830T123600Z` and `20150830` for a moment. */
function stamps(now: Date): { amzDate: string; date: string } {
  const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  return { amzDate, date: amzDate.slice(0, 8) };
}

/**
 * Signs a request with AWS Signature Version 4 (HMAC-SHA256 over the canonical request; key derived from
 * the secret, date, region and service) and answers the headers to add: `x-amz-date`, the session token
 * when there is one, `x-amz-content-sha256` for S3, and `authorization`. Every header sent is signed but
 * the few a client or proxy may rewrite.
 */
export function signAwsV4(request: SignableRequest, keys: AwsSigningKeys, now = new Date()): Record<string, string> {
  const { amzDate, date } = stamps(now);
  const payloadHash = sha256(request.body);
  const added: Record<string, string> = { 'x-amz-date': amzDate };
  if (keys.sessionToken) added['x-amz-security-token'] = keys.sessionToken;
  if (keys.service === 's3') added['x-amz-content-sha256'] = payloadHash;

  const headers: Record<string, string> = { host: request.url.host };
  for (const [name, value] of Object.entries({ ...request.headers, ...added })) {
    const lower = name.toLowerCase();
    if (!UNSIGNED.has(lower)) headers[lower] = value.trim().replace(/\s+/g, ' ');
  }
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonical = [
    request.method.toUpperCase(),
    canonicalPath(request.url, keys.service),
    canonicalQuery(request.url),
    names.map((name) => `${name}:${headers[name]}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');

  const scope = `${date}/${keys.region}/${keys.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretKey}`, date), keys.region), keys.service), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  added.authorization = `AWS4-HMAC-SHA256 Credential=${keys.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return added;
}
