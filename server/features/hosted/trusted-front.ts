import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, type createRemoteJWKSet, type JWTPayload } from 'jose';
import type pg from 'pg';
import { isRole, type Role } from '../../../common/rbac';
import type { TrustedFrontConfig } from '../../platform/config';
import { egressRemoteJWKSet } from '../../platform/egress-connect';
import { AppError } from '../../platform/http/errors';
import { inTransaction } from '../../platform/jobs/db';
import { credentialOf, findOrCreatePerson, OidcError } from '../identity';
import { sha256 } from '../../platform/crypto';
import { TOKEN_ALG } from './keys';

/**
 * An organization backend (`serve --auth trusted-front`, docs/HOSTED.md): every API request carries the
 * hosted front's short-lived JWT, checked against the front's JWKS (signature, iss, aud, exp). Its person
 * is found or created here and gets the token's roles; the token becomes a session of this database that
 * ends when the token does, so the rest of the server (the access guard, whoami, RBAC) works unchanged.
 * API tokens made here still work (agents, kubectl, MCP); every other credential is refused.
 */

const CLOCK_TOLERANCE_S = 30;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export class TrustedFront {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  /** sha256 of tokens already turned into a session here, with their expiry (ms). */
  private readonly known = new Map<string, number>();
  /** person id and roles last written, so a burst of requests writes the roles once. */
  private readonly rolesWritten = new Map<string, string>();

  constructor(
    private readonly pool: pg.Pool,
    readonly config: TrustedFrontConfig,
  ) {
    this.keys = egressRemoteJWKSet(new URL(`${config.issuer}/api/auth/jwks`), { timeoutDuration: 10_000, cooldownDuration: 30_000 });
  }

  get refusal(): string {
    return `this server is an organization backend: send Authorization: Bearer <the token of ${this.config.issuer}/api/auth/organization-token> (or an API token made here)`;
  }

  /** Before the access guard: a front token becomes this database's session; anything but an API token is refused. */
  install(app: FastifyInstance): void {
    const frontOrigin = new URL(this.config.issuer).origin;
    app.addHook('onRequest', async (req, reply) => {
      // A `direct` organization's browser calls this backend from the front's pages (spec §7): CORS for that origin only.
      if (req.headers.origin === frontOrigin) {
        void reply.header('access-control-allow-origin', frontOrigin).header('vary', 'Origin').header('access-control-expose-headers', 'Content-Range, Location, X-Request-Id');
        if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
          return reply
            .status(204)
            .header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE')
            .header('access-control-allow-headers', 'Authorization, Content-Type, Accept, Prefer, Range, Accept-Profile, Content-Profile')
            .header('access-control-max-age', '600')
            .send();
        }
      }
      const access = req.routeOptions.config?.access;
      if (access === 'public' || req.is404 || !(req.url === '/api' || req.url.startsWith('/api/'))) return;
      try {
        await this.admit(req);
      } catch (error) {
        // Answered here: a scope's own error handler (/api/db's PostgREST one) does not know AppError.
        if (!(error instanceof AppError)) throw error;
        return reply.status(401).type('application/json; charset=utf-8').send(error.toBody());
      }
    });
  }

  async admit(req: FastifyRequest): Promise<void> {
    const credential = credentialOf(req);
    if (credential?.kind === 'access_token') return;
    if (!credential || credential.source !== 'header' || !JWT_SHAPE.test(credential.token)) throw new AppError('unauthorized', this.refusal);
    const hash = sha256(credential.token);
    const expires = this.known.get(hash);
    if (expires !== undefined && expires > Date.now()) return;
    const payload = await this.verify(credential.token);
    await this.session(hash, payload);
  }

  async verify(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.keys, {
        algorithms: [TOKEN_ALG],
        issuer: this.config.issuer,
        ...(this.config.audience ? { audience: this.config.audience } : {}),
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'exp', 'aud'],
      });
      return payload;
    } catch (error) {
      throw new AppError('unauthorized', tokenProblem(error, this.config));
    }
  }

  /** The person (found or created, with the token's roles) and a session that ends with the token. */
  private async session(hash: string, payload: JWTPayload): Promise<void> {
    const email = typeof payload.email === 'string' ? payload.email : undefined;
    const [first = '', ...rest] = (typeof payload.name === 'string' ? payload.name : '').trim().split(/\s+/);
    let personId: string;
    try {
      // The front signed the person in (and vouches for the address): link by email like a verified one.
      ({ id: personId } = await findOrCreatePerson(this.pool, this.config.issuer, { subject: payload.sub ?? '', email, emailVerified: true, first, last: rest.join(' ') }));
    } catch (error) {
      if (error instanceof OidcError) throw new AppError('unauthorized', `the front's token cannot sign anyone in here: ${error.message}`);
      throw error;
    }
    const roles = (Array.isArray(payload.roles) ? payload.roles : []).filter((role): role is Role => typeof role === 'string' && isRole(role));
    const exp = payload.exp ?? 0;
    await inTransaction(this.pool, async (client) => {
      const rolesKey = roles.slice().sort().join(',');
      if (this.rolesWritten.get(personId) !== rolesKey) {
        await client.query('DELETE FROM person_roles WHERE person_id = $1 AND NOT (role = ANY($2::text[]))', [personId, roles]);
        await client.query('INSERT INTO person_roles (person_id, role) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [personId, roles]);
      }
      await client.query(
        `INSERT INTO sessions (identity_id, token_hash, aal, authentication_methods, expires_at)
         VALUES ($1, $2, 'aal2', $3, to_timestamp($4)) ON CONFLICT (token_hash) DO NOTHING`,
        [personId, hash, JSON.stringify([{ method: 'trusted_front', aal: 'aal2', completed_at: new Date().toISOString() }]), exp],
      );
      this.rolesWritten.set(personId, rolesKey);
    });
    if (this.known.size > 10_000) this.known.clear();
    this.known.set(hash, exp * 1000);
  }
}

function tokenProblem(error: unknown, config: TrustedFrontConfig): string {
  if (error instanceof joseErrors.JWTExpired) return "the front's token has expired: ask the front for a new one";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'iss':
        return `the token was issued by ${String(error.payload.iss ?? 'nobody')}, not by the trusted front ${config.issuer}`;
      case 'aud':
        return `the token is meant for organization ${String(error.payload.aud ?? 'none')}, not for this backend's (${config.audience ?? 'any'})`;
      default:
        return `the token's ${error.claim} claim is not acceptable (${error.reason})`;
    }
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed || error instanceof joseErrors.JWKSNoMatchingKey) return "the token's signature does not verify with the trusted front's keys";
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) return `the token is not signed with ${TOKEN_ALG}`;
  if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) return `the trusted front's keys (${config.issuer}/api/auth/jwks) cannot be read`;
  return 'the token is not a well-formed signed JWT';
}
