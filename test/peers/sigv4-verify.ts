import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A server-side check of AWS Signature Version 4, written from AWS's description of the algorithm (a
 * second implementation, so the client's signer is not checked against itself): rebuild the canonical
 * request from what arrived, derive the signing key from the secret of the access key named in the
 * credential scope, and compare signatures.
 */
export type SigV4Verdict =
  | { ok: true; accessKey: string; region: string; service: string; signedHeaders: string[] }
  | { ok: false; reason: string };

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;._-]+),\s*Signature=([0-9a-f]{64})$/;
const MAX_SKEW_MS = 15 * 60_000;

function uriEncode(text: string): string {
  return Array.from(Buffer.from(text, 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9_.~-]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const mac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

export function verifySigV4(
  request: { method: string; target: string; headers: IncomingHttpHeaders; body: Buffer },
  secrets: Readonly<Record<string, string>>,
  now = new Date(),
): SigV4Verdict {
  const match = AUTHORIZATION.exec(String(request.headers.authorization ?? ''));
  if (!match) return { ok: false, reason: 'no AWS4-HMAC-SHA256 Authorization header' };
  const [, accessKey = '', day = '', region = '', service = '', signed = '', signature = ''] = match;
  const secret = secrets[accessKey];
  if (secret === undefined) return { ok: false, reason: `unknown access key ${accessKey}` };
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const stamp = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!stamp) return { ok: false, reason: 'no X-Amz-Date header' };
  if (!amzDate.startsWith(day)) return { ok: false, reason: 'X-Amz-Date and the credential scope name different days' };
  const signedAt = Date.UTC(Number(stamp[1]), Number(stamp[2]) - 1, Number(stamp[3]), Number(stamp[4]), Number(stamp[5]), Number(stamp[6]));
  if (Math.abs(now.getTime() - signedAt) > MAX_SKEW_MS) return { ok: false, reason: 'the signature is more than 15 minutes old' };
  const names = signed.split(';');
  if (!names.includes('host')) return { ok: false, reason: 'the host header is not signed' };

  const [rawPath = '/', rawQuery = ''] = request.target.split('?', 2);
  // Every service but S3 signs the path as sent, encoded a second time.
  const path = rawPath
    .split('/')
    .map((segment) => (service === 's3' ? uriEncode(decodeURIComponent(segment)) : uriEncode(segment)))
    .join('/');
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [key = '', value = ''] = pair.split('=', 2);
      const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
      return [uriEncode(decode(key)), uriEncode(decode(value))];
    })
    .sort(([a = '', x = ''], [b = '', y = '']) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const headerLines: string[] = [];
  for (const name of names) {
    const value = request.headers[name];
    if (value === undefined) return { ok: false, reason: `signed header ${name} did not arrive` };
    headerLines.push(`${name}:${(Array.isArray(value) ? value.join(',') : value).trim().replace(/\s+/g, ' ')}\n`);
  }
  const payload = request.headers['x-amz-content-sha256'] === 'UNSIGNED-PAYLOAD' ? 'UNSIGNED-PAYLOAD' : hex(request.body);
  const canonical = `${request.method}\n${path || '/'}\n${query}\n${headerLines.join('')}\n${signed}\n${payload}`;
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${hex(canonical)}`;
  let key = mac(`AWS4${secret}`, day);
  for (const part of [region, service, 'aws4_request']) key = mac(key, part);
  const expected = createHmac('sha256', key).update(toSign, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'the signature does not match the request' };
  return { ok: true, accessKey, region, service, signedHeaders: names };
}
