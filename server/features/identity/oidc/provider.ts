import { createHash } from 'node:crypto';
import { errors as joseErrors, jwtVerify, type createRemoteJWKSet, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { OidcConfig } from '../../../platform/config';
import { egressFetch, type EgressResponse } from '../../../platform/egress';
import { egressRemoteJWKSet } from '../../../platform/egress-connect';

/**
 * The OpenID Connect provider as this console talks to it, with no vendor SDK: discovery (cached), the
 * authorization URL with PKCE, the code exchange, and the ID-token check (signature through the
 * provider's JWKS, issuer, audience, expiry, nonce).
 */

/**
 * Why a sign-in through the provider failed: shown to the person, so it never holds a token or secret.
 * 401 for anything about the sign-in itself, 503 when the provider cannot be reached or read.
 */
export class OidcError extends Error {
  constructor(
    message: string,
    readonly status: 401 | 503 = 401,
  ) {
    super(message);
    this.name = 'OidcError';
  }
}

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  end_session_endpoint: z.url().optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
});
export type Discovery = z.infer<typeof discoverySchema>;

const tokenSchema = z.object({
  id_token: z.string({ message: 'the token answer holds no id_token' }),
  access_token: z.string().optional(),
  refresh_token: z.string().optional(),
});
export type TokenSet = z.infer<typeof tokenSchema>;

/** What the person reads when the provider no longer takes the session's refresh token (invalid_grant). */
export const REFRESH_REFUSED = "the sign-in provider no longer accepts this session's refresh token: sign in again";

/** How long a discovery document is trusted before it is read again (keys rotate through jwks_uri, not this). */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
const HTTP_TIMEOUT_MS = 10_000;
/** Clocks of provider and console may differ a little; an ID token is checked right after it was issued. */
const CLOCK_TOLERANCE_S = 30;

export function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** RFC 7636 S256: the challenge sent with the authorization request, from the verifier kept in the state cookie. */
export function codeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${HTTP_TIMEOUT_MS / 1000} s`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause ?? (error instanceof Error ? error.message : String(error));
}

export class OidcProvider {
  private discovery: { value: Discovery; at: number } | undefined;
  private jwks: { uri: string; keys: ReturnType<typeof createRemoteJWKSet> } | undefined;

  constructor(readonly config: OidcConfig) {}

  /** The issuer's host, for "Sign in with <host>". */
  get issuerHost(): string {
    return new URL(this.config.issuer).host;
  }

  /** /.well-known/openid-configuration, read once an hour; a failed read is not cached. */
  async discover(): Promise<Discovery> {
    if (this.discovery && Date.now() - this.discovery.at < DISCOVERY_TTL_MS) return this.discovery.value;
    const url = `${this.config.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    let response: EgressResponse;
    try {
      response = await egressFetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    } catch (error) {
      throw new OidcError(`the sign-in provider ${this.issuerHost} cannot be reached (${describeFetchError(error)})`, 503);
    }
    if (!response.ok) throw new OidcError(`the sign-in provider's discovery document ${url} answered HTTP ${response.status}`, 503);
    const parsed = discoverySchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new OidcError(`the sign-in provider's discovery document is not usable: ${issue ? `${issue.path.join('.') || 'document'}: ${issue.message}` : 'not JSON'}`, 503);
    }
    // OpenID Connect Discovery §4.3: the document must name exactly the issuer it was fetched for.
    if (parsed.data.issuer !== this.config.issuer) {
      throw new OidcError(`the discovery document names the issuer ${parsed.data.issuer}, not the configured ${this.config.issuer} (WATCHKEEPER_OIDC_ISSUER)`, 503);
    }
    const methods = parsed.data.code_challenge_methods_supported;
    if (methods && !methods.includes('S256')) throw new OidcError('the sign-in provider does not support PKCE with S256', 503);
    this.discovery = { value: parsed.data, at: Date.now() };
    return parsed.data;
  }

  /** The provider's signing keys, fetched by jose on first use and again when a token names an unknown key. */
  private keys(discovery: Discovery): ReturnType<typeof createRemoteJWKSet> {
    if (this.jwks?.uri !== discovery.jwks_uri) {
      this.jwks = { uri: discovery.jwks_uri, keys: egressRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: HTTP_TIMEOUT_MS }) };
    }
    return this.jwks.keys;
  }

  /** `refresh`: the person must sign in at the provider again, whatever session it has (prompt=login, max_age=0). */
  async authorizationUrl(input: { redirectUri: string; state: string; nonce: string; verifier: string; refresh?: boolean }): Promise<string> {
    const discovery = await this.discover();
    const url = new URL(discovery.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('scope', this.config.scopes.join(' '));
    url.searchParams.set('state', input.state);
    url.searchParams.set('nonce', input.nonce);
    url.searchParams.set('code_challenge', codeChallenge(input.verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    if (input.refresh) {
      url.searchParams.set('prompt', 'login');
      url.searchParams.set('max_age', '0');
    }
    return url.toString();
  }

  /** Trades the code for tokens (client_secret_basic, or _post when that is all the provider takes; none for a public client). */
  async exchange(input: { code: string; redirectUri: string; verifier: string }): Promise<TokenSet> {
    const body = new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.verifier });
    return this.tokenRequest(body, (reason) => new OidcError(`the sign-in provider refused the authorization code (${reason})`));
  }

  /**
   * Trades a refresh token for new tokens (grant_type=refresh_token, the same client authentication as the
   * code exchange). The provider refusing the token itself (invalid_grant: revoked, expired, rotated away)
   * is a 401; any other refusal or an unusable answer is a 503.
   */
  async refresh(refreshToken: string): Promise<TokenSet> {
    const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
    return this.tokenRequest(body, (reason, error) =>
      error === 'invalid_grant'
        ? new OidcError(REFRESH_REFUSED, 401)
        : new OidcError(`the sign-in provider refused to refresh this session (${reason})`, 503),
    );
  }

  private async tokenRequest(body: URLSearchParams, refused: (reason: string, error: string | undefined) => OidcError): Promise<TokenSet> {
    const discovery = await this.discover();
    body.set('client_id', this.config.clientId);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    const secret = this.config.clientSecret;
    if (secret) {
      const supported = discovery.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
      if (!supported.includes('client_secret_basic') && supported.includes('client_secret_post')) body.set('client_secret', secret);
      else headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(this.config.clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
    }
    let response: EgressResponse;
    try {
      response = await egressFetch(discovery.token_endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    } catch (error) {
      throw new OidcError(`the sign-in provider's token endpoint cannot be reached (${describeFetchError(error)})`, 503);
    }
    const data: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      const answer = z.object({ error: z.string(), error_description: z.string().optional() }).safeParse(data);
      const reason = answer.success ? `${answer.data.error}${answer.data.error_description ? `: ${answer.data.error_description}` : ''}` : `HTTP ${response.status}`;
      throw refused(reason, answer.success ? answer.data.error : undefined);
    }
    const parsed = tokenSchema.safeParse(data);
    if (!parsed.success) throw new OidcError(`the sign-in provider's token answer is not usable: ${parsed.error.issues[0]?.message ?? 'not JSON'}`);
    return parsed.data;
  }

  /**
   * Checks the ID token and answers its claims; every failure says which check failed. With
   * `reauthenticatedSince` (ms), the person must have signed in at the provider since then. `nonce`
   * undefined: an ID token from a refresh, which carries no nonce of ours (OpenID Connect Core §12.2).
   */
  async verifyIdToken(idToken: string, nonce: string | undefined, reauthenticatedSince?: number): Promise<JWTPayload> {
    const discovery = await this.discover();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.keys(discovery), {
        issuer: this.config.issuer,
        audience: this.config.clientId,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      throw new OidcError(idTokenProblem(error, this.config));
    }
    // OpenID Connect Core §3.1.3.7: with several audiences, azp names this client.
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== this.config.clientId) {
      throw new OidcError(`the ID token was issued to ${String(payload.azp)}, not to this console (client ${this.config.clientId})`);
    }
    if (nonce !== undefined && payload.nonce !== nonce) throw new OidcError('the ID token does not carry the nonce of this sign-in (a replayed or foreign token)');
    // OpenID Connect Core §3.1.2.1: with max_age the token says when the person last signed in.
    if (reauthenticatedSince !== undefined && !(typeof payload.auth_time === 'number' && payload.auth_time >= Math.floor(reauthenticatedSince / 1000) - CLOCK_TOLERANCE_S)) {
      throw new OidcError('the sign-in provider did not ask you to sign in again (auth_time is older than this confirmation)');
    }
    return payload;
  }

  /** Where the browser goes after our session ended, when the provider has an end_session_endpoint. */
  async endSessionUrl(idToken: string | undefined, postLogoutRedirectUri: string): Promise<string | undefined> {
    let discovery: Discovery;
    try {
      discovery = await this.discover();
    } catch {
      return undefined;
    }
    if (!discovery.end_session_endpoint) return undefined;
    const url = new URL(discovery.end_session_endpoint);
    if (idToken) url.searchParams.set('id_token_hint', idToken);
    url.searchParams.set('client_id', this.config.clientId);
    url.searchParams.set('post_logout_redirect_uri', postLogoutRedirectUri);
    return url.toString();
  }
}

function idTokenProblem(error: unknown, config: OidcConfig): string {
  if (error instanceof joseErrors.JWTExpired) return 'the ID token has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return `the ID token was issued by ${claimText(error.payload.iss)}, not by the configured issuer ${config.issuer}`;
      case 'aud':
        return `the ID token is meant for ${claimText(error.payload.aud)}, not for this console (client ${config.clientId})`;
      case 'iat':
      case 'nbf':
        return `the ID token is not valid yet (${error.claim} is in the future)`;
      default:
        return `the ID token's ${error.claim} claim is not acceptable (${error.reason})`;
    }
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) {
    return "the ID token's signature does not verify with the sign-in provider's keys";
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) return 'the ID token is signed with an algorithm this console does not accept';
  if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JWTInvalid) return 'the ID token is not a well-formed signed JWT';
  if (error instanceof joseErrors.JWKSTimeout) return "the sign-in provider's keys (jwks_uri) did not answer in time";
  return `the ID token could not be checked (${error instanceof Error ? error.message : String(error)})`;
}

function claimText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'string' ? value : 'nobody';
}
