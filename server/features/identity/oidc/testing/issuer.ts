import http from 'node:http';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import Provider, { type AccountClaims } from 'oidc-provider';
import { isRecord } from '../../../../platform/errors';
import { createTestApp, type TestApp } from '../../../../../test/app';

/**
 * A real OpenID Connect issuer for the tests: oidc-provider on 127.0.0.1 (discovery, JWKS, code flow
 * with PKCE, refresh tokens, RP-initiated logout) with its own development login and consent pages.
 * Any login name signs in; `accounts` gives the claims of the names a test cares about.
 *
 * The token endpoint can be made to hand out a forged ID token (`forge`): the real answer is taken and
 * its ID token re-signed with the issuer's own key (other claims) or with a stranger's key.
 */

export const CLIENT_ID = 'watchkeeper';
export const CLIENT_SECRET = 'test-client-secret';

/** The settings of a console in oidc mode signing in through `issuer` (a confidential client). */
export function oidcEnv(issuer: { url: string }): Record<string, string> {
  return { WATCHKEEPER_AUTH: 'oidc', WATCHKEEPER_OIDC_ISSUER: issuer.url, WATCHKEEPER_OIDC_CLIENT_ID: CLIENT_ID, WATCHKEEPER_OIDC_CLIENT_SECRET: CLIENT_SECRET };
}

/** A test issuer and a console in oidc mode signing in through it, listening on 127.0.0.1 (close both). */
export async function startOidcApp(): Promise<{ issuer: TestIssuer; t: TestApp; base: string }> {
  const issuer = await startTestIssuer();
  const t = await createTestApp({ env: oidcEnv(issuer) });
  const base = await t.listen();
  issuer.start(base);
  return { issuer, t, base };
}

export interface TestIssuer {
  url: string;
  /** Claims by login name (sub = login name). */
  accounts: Map<string, Omit<AccountClaims, 'sub'>>;
  /** Registers the console's base URL as the client's redirect target (call once the console listens). */
  start(consoleBase: string): void;
  /** Changes the next ID tokens: `claims` merged into the real payload; `foreignKey` signs with a stranger's key. */
  forge(change: { claims?: JWTPayload; foreignKey?: boolean } | undefined): void;
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`);
    }),
  );
}

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const stranger = (await generateKeyPair('RS256')).privateKey;
  const accounts = new Map<string, Omit<AccountClaims, 'sub'>>();
  let handler: ((req: http.IncomingMessage, res: http.ServerResponse) => void) | undefined;
  let forged: { claims?: JWTPayload; foreignKey?: boolean } | undefined;
  let rawBase = '';

  // The issuer as everyone sees it; with a forgery set, its token answers pass through `forgeToken`.
  const front = http.createServer((req, res) => {
    if (!handler) {
      res.statusCode = 503;
      res.end('issuer not started');
      return;
    }
    if (forged && req.method === 'POST' && req.url?.startsWith('/token')) {
      void forgeToken(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    handler(req, res);
  });
  // The same provider on a second port: where a forged token request gets its real answer.
  const raw = http.createServer((req, res) => (handler ? handler(req, res) : res.end()));
  const url = await listen(front);
  rawBase = await listen(raw);

  async function forgeToken(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${rawBase}${req.url ?? '/token'}`, { method: 'POST', headers, body: body.toString('utf8') });
    const parsed: unknown = await answer.json();
    const data: Record<string, unknown> = isRecord(parsed) ? { ...parsed } : {};
    const change = forged;
    if (answer.ok && typeof data.id_token === 'string' && change) {
      const payload = { ...decodeJwt(data.id_token), ...change.claims };
      data.id_token = await new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(change.foreignKey ? stranger : privateKey);
    }
    res.statusCode = answer.status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(data));
  }

  return {
    url,
    accounts,
    start(consoleBase) {
      const provider = new Provider(url, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: [`${consoleBase}/api/auth/oidc/callback`],
            post_logout_redirect_uris: [`${consoleBase}/login`],
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [{ ...jwk }] },
        findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, ...(accounts.get(sub) ?? { email: `${sub}@example.com`, email_verified: true }) }) }),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name', 'organizations'] },
        // The claims go into the ID token itself, as most providers put them there.
        conformIdTokenClaims: false,
        cookies: { keys: ['test-cookie-key'] },
        features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
        pkce: { required: () => true },
        issueRefreshToken: async () => true,
        // Every refresh hands out a new refresh token and retires the old one (rotation, as many providers do).
        rotateRefreshToken: true,
        ttl: { AccessToken: 3600, IdToken: 3600, RefreshToken: 86_400, Interaction: 600, Session: 3600, Grant: 3600 },
      });
      handler = provider.callback();
    },
    forge(change) {
      forged = change;
    },
    async close() {
      await Promise.all([front, raw].map((server) => new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })));
    },
  };
}

/** A cookie jar for fetch: enough for the provider's pages and the console's own cookies. */
export class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, string>>();

  take(url: string, response: Response): void {
    const origin = new URL(url).origin;
    const jar = this.byOrigin.get(origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.byOrigin.set(origin, jar);
  }

  header(url: string): string {
    const jar = this.byOrigin.get(new URL(url).origin);
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : '';
  }

  get(url: string, name: string): string | undefined {
    return this.byOrigin.get(new URL(url).origin)?.get(name);
  }
}

/** One request with the jar's cookies, no redirect followed; answers the response and its Location (absolute). */
export async function step(jar: CookieJar, url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<{ response: Response; location: string | undefined }> {
  const headers: Record<string, string> = { accept: 'text/html' };
  const cookie = jar.header(url);
  if (cookie) headers.cookie = cookie;
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  const response = await fetch(url, { method: init.method ?? 'GET', headers, redirect: 'manual', ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}) });
  jar.take(url, response);
  const location = response.headers.get('location');
  return { response, location: location ? new URL(location, url).toString() : undefined };
}

/**
 * Goes through the provider's development pages as a browser would (login with any name, then consent)
 * from the console's login route to the provider's redirect back; answers the callback URL (not yet
 * visited) for the test to call, or the first answer that is not a redirect.
 */
export async function throughProvider(jar: CookieJar, loginUrl: string, login: string, consoleBase: string): Promise<string> {
  let next: string | undefined = loginUrl;
  for (let hops = 0; hops < 20 && next; hops += 1) {
    if (next.startsWith(`${consoleBase}/api/auth/oidc/callback`)) return next;
    const { response, location } = await step(jar, next);
    if (location) {
      next = location;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`the provider answered a page without its form (HTTP ${response.status}): ${html.slice(0, 300)}`);
    const submitted = await step(jar, new URL(action, next).toString(), { method: 'POST', form: prompt === 'login' ? { prompt, login, password: 'any' } : { prompt } });
    next = submitted.location;
    if (!next) throw new Error(`the provider's ${prompt} form answered HTTP ${submitted.response.status} without a redirect`);
  }
  throw new Error('the sign-in did not come back to the console within 20 redirects');
}
