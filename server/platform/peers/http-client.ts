import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { crossHostRedirect, egressConnectOptions, sameHost } from '../egress';
import { VERSION } from '../paths';
import type { SignableRequest } from './aws-sigv4';
import { digestAuthorization, parseDigestChallenge } from './http-digest';

/** Bodies are read up to this size: enough for any health answer, bounded against a runaway download. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface HttpRequest {
  url: URL;
  method: string;
  headers: Array<{ name: string; value: string }>;
  body?: string;
  basicAuth?: { username: string; password: string };
  /** HTTP Digest: the first 401 with a Digest challenge is answered once (per URL followed). */
  digestAuth?: { username: string; password: string };
  /** Sent as `Authorization: Bearer …` (an OAuth2 access token). */
  bearerToken?: string;
  /** Headers computed over the request as it will be sent (AWS SigV4), for each request made. */
  sign?: (request: SignableRequest) => Record<string, string>;
  /** Instead of watchkeeper's own; a `User-Agent` in `headers` wins over both. */
  userAgent?: string;
  tls: {
    rejectUnauthorized: boolean;
    ca?: string;
    cert?: string;
    key?: string;
    handshakeTimeoutMs: number;
  };
  maxRedirects: number;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** As the server sent them, names lower-cased by Node. */
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** True when the body was longer than MAX_BODY_BYTES and was cut. */
  truncated: boolean;
  /** The URL that answered, after redirects. */
  url: URL;
  redirects: string[];
  /** The server's certificate, for https answers. */
  certificate?: tls.PeerCertificate;
}

const USER_AGENT = `watchkeeper/${VERSION}`;

/** The body decoded; pipeline carries a broken connection's error to the decoder, so a read never hangs. */
function decoded(response: http.IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip' ? zlib.createGunzip() : encoding === 'deflate' ? zlib.createInflate() : encoding === 'br' ? zlib.createBrotliDecompress() : undefined;
  return decoder ? pipeline(response, decoder, () => undefined) : response;
}

/** Reads a body up to the limit; a longer body is cut, not an error. */
function readBody(stream: Readable, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const abort = () => {
      stream.destroy();
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        signal.removeEventListener('abort', abort);
        stream.destroy();
        resolve({ body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES), truncated: true });
      }
    });
    stream.once('end', () => {
      signal.removeEventListener('abort', abort);
      resolve({ body: Buffer.concat(chunks), truncated: false });
    });
    stream.once('error', (error) => {
      signal.removeEventListener('abort', abort);
      reject(error);
    });
  });
}

/** The headers of one request: defaults, the caller's, then credentials for the request's own origin. */
function headersFor(request: HttpRequest, url: URL, method: string, body: string | undefined, sameOrigin: boolean, digest: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { host: url.host, 'user-agent': request.userAgent ?? USER_AGENT, accept: '*/*' };
  for (const header of request.headers) {
    // Credentials written for one host are not sent to another one a redirect points at (as Go does).
    if (!sameOrigin && ['authorization', 'cookie', 'proxy-authorization'].includes(header.name.toLowerCase())) continue;
    headers[header.name.toLowerCase()] = header.value;
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  if (!sameOrigin) return headers;
  if (digest) headers.authorization = digest;
  else if (request.basicAuth) headers.authorization = `Basic ${Buffer.from(`${request.basicAuth.username}:${request.basicAuth.password}`).toString('base64')}`;
  else if (request.bearerToken) headers.authorization = `Bearer ${request.bearerToken}`;
  if (request.sign) Object.assign(headers, request.sign({ method, url, headers, body: body ?? '' }));
  return headers;
}

/** One request/response exchange, without redirects. */
async function exchange(request: HttpRequest, url: URL, method: string, body: string | undefined, headers: Record<string, string>): Promise<{ response: http.IncomingMessage; certificate?: tls.PeerCertificate }> {
  // The egress policy (server/platform/egress.ts): judged on the address connected to, before connecting.
  const egress = await egressConnectOptions(url.hostname);
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const options: https.RequestOptions = {
      ...egress,
      method,
      headers,
      agent: false,
      signal: request.signal,
      ...(secure
        ? {
            rejectUnauthorized: request.tls.rejectUnauthorized,
            ...(request.tls.ca ? { ca: request.tls.ca } : {}),
            ...(request.tls.cert ? { cert: request.tls.cert } : {}),
            ...(request.tls.key ? { key: request.tls.key } : {}),
          }
        : {}),
    };
    const req = (secure ? https : http).request(url, options, (response) => {
      const socket = response.socket;
      const certificate = socket instanceof tls.TLSSocket ? socket.getPeerCertificate() : undefined;
      resolve({ response, ...(certificate && Object.keys(certificate).length > 0 ? { certificate } : {}) });
    });
    req.once('error', reject);
    if (secure) {
      req.once('socket', (socket) => {
        const timer = setTimeout(() => req.destroy(new Error(`the TLS handshake took longer than ${request.tls.handshakeTimeoutMs} ms`)), request.tls.handshakeTimeoutMs);
        socket.once('secureConnect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
    }
    req.end(body);
  });
}

/**
 * Sends the request and reads the answer, following redirects like Go's client (which canary-checker
 * uses): 301/302/303 become GET without a body, 307/308 repeat the request, at most `maxRedirects` times.
 * Every connection follows the egress policy, and a redirect to another host is not followed (an error
 * saying where it led).
 */
export async function send(request: HttpRequest): Promise<HttpResponse> {
  let url = request.url;
  let method = request.method;
  let body = request.body;
  const redirects: string[] = [];
  let digest: string | undefined;
  for (;;) {
    const sameOrigin = url.origin === request.url.origin;
    const { response, certificate } = await exchange(request, url, method, body, headersFor(request, url, method, body, sameOrigin, digest));
    const status = response.statusCode ?? 0;
    // As canary-checker's client: a Digest challenge is answered once; a second 401 is the answer.
    const challenge = status === 401 && request.digestAuth && sameOrigin && !digest ? parseDigestChallenge(response.headers['www-authenticate']) : undefined;
    if (challenge && request.digestAuth) {
      response.resume();
      digest = digestAuthorization(challenge, request.digestAuth, { method, uri: `${url.pathname}${url.search}`, body: body ?? '' });
      continue;
    }
    digest = undefined;
    const location = response.headers.location;
    if ([301, 302, 303, 307, 308].includes(status) && location && redirects.length < request.maxRedirects) {
      response.resume();
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new Error(`redirected to ${next.protocol} URL, which is not followed`);
      if (!sameHost(url, next)) throw new Error(crossHostRedirect(url, next));
      redirects.push(next.toString());
      url = next;
      if (status !== 307 && status !== 308) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
      }
      continue;
    }
    if (method === 'HEAD') {
      response.resume();
      return { status, headers: response.headers, body: Buffer.alloc(0), truncated: false, url, redirects, ...(certificate ? { certificate } : {}) };
    }
    const { body: content, truncated } = await readBody(decoded(response), request.signal);
    return { status, headers: response.headers, body: content, truncated, url, redirects, ...(certificate ? { certificate } : {}) };
  }
}
