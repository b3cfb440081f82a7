import { generateKeyPairSync } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, SignJWT, type JWK } from 'jose';
import type pg from 'pg';
import { z } from 'zod';
import { processKeyring } from '../../platform/secrets';

/**
 * The hosted front's signing keys (ES256, migration 0033): the private half encrypted with the secrets
 * keyring, so every front instance on the same database and key signs alike; the public halves are the
 * JWKS organization backends check tokens against. Made on first use.
 */

export const TOKEN_ALG = 'ES256';
/** Five minutes: a backend never holds a credential the front could not take back soon. */
export const TOKEN_TTL_S = 5 * 60;

const privateJwkSchema = z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string(), d: z.string() });

interface KeyRow {
  kid: string;
  private_jwk: string;
  public_jwk: JWK;
}

interface Signer {
  kid: string;
  key: CryptoKey | Uint8Array;
}

/** What a token says about its holder. */
export interface TokenSubject {
  personId: string;
  email: string | null;
  name: string;
  roles: string[];
}

export class FrontKeys {
  private signer: Promise<Signer> | undefined;

  constructor(private readonly pool: pg.Pool) {}

  /** The public keys, newest first (GET /api/auth/jwks). */
  async jwks(): Promise<{ keys: JWK[] }> {
    await this.current();
    const { rows } = await this.pool.query<Pick<KeyRow, 'kid' | 'public_jwk'>>('SELECT kid, public_jwk FROM front_signing_keys ORDER BY created_at DESC');
    return { keys: rows.map((row) => ({ ...row.public_jwk, kid: row.kid, alg: TOKEN_ALG, use: 'sig' })) };
  }

  /** A token for one organization: `aud` its id, valid for TOKEN_TTL_S. */
  async sign(issuer: string, organizationId: string, subject: TokenSubject): Promise<{ token: string; expiresAt: Date }> {
    const signer = await this.current();
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ email: subject.email ?? undefined, name: subject.name, roles: subject.roles })
      .setProtectedHeader({ alg: TOKEN_ALG, kid: signer.kid, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(organizationId)
      .setSubject(subject.personId)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_TTL_S)
      .sign(signer.key);
    return { token, expiresAt: new Date((now + TOKEN_TTL_S) * 1000) };
  }

  private current(): Promise<Signer> {
    this.signer ??= this.load().catch((error: unknown) => {
      this.signer = undefined;
      throw error;
    });
    return this.signer;
  }

  private async load(): Promise<Signer> {
    let row = await this.newest();
    if (!row) {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const privateJwk = privateKey.export({ format: 'jwk' });
      const publicJwk: JWK = { kty: privateJwk.kty, crv: privateJwk.crv, x: privateJwk.x, y: privateJwk.y };
      const kid = await calculateJwkThumbprint(publicJwk);
      // Two instances starting at once may both add one: both are published, the newest signs.
      await this.pool.query('INSERT INTO front_signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3) ON CONFLICT (kid) DO NOTHING', [
        kid,
        processKeyring().encrypt(JSON.stringify(privateJwk)),
        JSON.stringify(publicJwk),
      ]);
      row = await this.newest();
    }
    if (!row) throw new Error('front_signing_keys: no key after adding one');
    const jwk = privateJwkSchema.parse(JSON.parse(processKeyring().decrypt(row.private_jwk)));
    return { kid: row.kid, key: await importJWK(jwk, TOKEN_ALG) };
  }

  private async newest(): Promise<KeyRow | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT kid, private_jwk, public_jwk FROM front_signing_keys ORDER BY created_at DESC, kid LIMIT 1');
    return rows[0];
  }
}
