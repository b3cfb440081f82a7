import type pg from 'pg';
import { sha256 } from '../../../platform/crypto';
import { CookieJar, oidcEnv, startTestIssuer, throughProvider, type TestIssuer } from '../../identity/oidc/testing/issuer';
import { createTestApp, type TestApp } from '../../../../test/app';
import { startServe, tempDataDir, type ServeProcess } from '../../../../test/cli';
import { freePort } from '../../../platform/db/embedded';

/** Helpers shared by the hosted tests, e2e and bench/hosted.ts: a real sign-in and real backends. */

/** A front in oidc mode listening on its PUBLIC_URL, signing people in through a test issuer (close both). */
export async function startFront(): Promise<{ issuer: TestIssuer; front: TestApp; frontUrl: string }> {
  const issuer = await startTestIssuer();
  const port = await freePort();
  const frontUrl = `http://127.0.0.1:${port}`;
  const front = await createTestApp({ env: { ...oidcEnv(issuer), PUBLIC_URL: frontUrl } });
  await front.app.listen({ port, host: '127.0.0.1' });
  issuer.start(frontUrl);
  return { issuer, front, frontUrl };
}

/** Signs `login` in at the front through the test issuer's pages; answers the front's session token. */
export async function signInAtFront(front: string, login: string): Promise<string> {
  const jar = new CookieJar();
  const callback = await throughProvider(jar, `${front}/api/auth/oidc/login?return_to=/`, login, front);
  const response = await fetch(callback, { headers: { accept: 'application/json', cookie: jar.header(callback) }, redirect: 'manual' });
  jar.take(callback, response);
  const session = jar.get(front, 'watchkeeper_session');
  if (!session) throw new Error(`the sign-in of ${login} gave no session (HTTP ${response.status}: ${await response.text()})`);
  return session;
}

/** An organization of the front (by external id, as the claim names it), made before anyone signs in. */
export async function addOrganization(pool: pg.Pool, externalId: string, backendUrl: string | null, direct = false): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO organizations (external_id, name, backend_url, direct) VALUES ($1, $1, $2, $3)
     ON CONFLICT (external_id) DO UPDATE SET backend_url = EXCLUDED.backend_url, direct = EXCLUDED.direct RETURNING id`,
    [externalId, backendUrl, direct],
  );
  const id = rows[0]?.id;
  if (!id) throw new Error('organization insert returned no id');
  return id;
}

/** Until the switcher sets it: the organization a front session works in, with the person's role there. */
export async function chooseOrganization(pool: pg.Pool, sessionToken: string, organizationId: string, role?: string): Promise<void> {
  const hash = sha256(sessionToken);
  const { rows } = await pool.query<{ identity_id: string }>('UPDATE sessions SET organization_id = $2 WHERE token_hash = $1 RETURNING identity_id', [hash, organizationId]);
  const person = rows[0]?.identity_id;
  if (!person) throw new Error('no such front session');
  await pool.query(
    `INSERT INTO organization_members (organization_id, person_id, role, source) VALUES ($1, $2, $3, 'console')
     ON CONFLICT (organization_id, person_id) DO UPDATE SET role = EXCLUDED.role`,
    [organizationId, person, role ?? null],
  );
}

/** A real `watchkeeper serve --auth trusted-front` on its own embedded database. */
export async function startBackend(frontUrl: string, organizationId: string | undefined, port?: number, dataDir?: string): Promise<ServeProcess & { dataDir: string; port: number }> {
  const dir = dataDir ?? (await tempDataDir());
  const chosen = port ?? (await freePort());
  const serve = await startServe(
    {
      WATCHKEEPER_DATA: dir,
      WATCHKEEPER_AUTH: 'trusted-front',
      WATCHKEEPER_TRUSTED_ISSUER: frontUrl,
      ...(organizationId ? { WATCHKEEPER_TRUSTED_AUDIENCE: organizationId } : {}),
      LOG_LEVEL: 'warn',
    },
    chosen,
  );
  return Object.assign(serve, { dataDir: dir, port: chosen });
}
