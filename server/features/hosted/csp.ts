import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { IdentityAuthenticator } from '../identity';

/**
 * Spec §7, `direct` organizations: the console's pages call the organization's backend themselves, so
 * the page's Content-Security-Policy (`connect-src 'self'`, server/platform/http/security.ts) also names
 * the origins of the signed-in person's direct organizations' backends — theirs only, so a switch
 * without a reload still reaches the next one.
 */
export function allowDirectBackends(app: FastifyInstance, pool: pg.Pool, auth: IdentityAuthenticator): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const type = reply.getHeader('content-type');
    const csp = reply.getHeader('content-security-policy');
    if (typeof type !== 'string' || !type.startsWith('text/html') || typeof csp !== 'string') return payload;
    const { actor } = await auth.resolve(req);
    if (!actor) return payload;
    const { rows } = await pool.query<{ backend_url: string }>(
      `SELECT DISTINCT o.backend_url FROM organizations o
         JOIN organization_members m ON m.organization_id = o.id AND m.person_id = $1
        WHERE o.direct AND o.backend_url IS NOT NULL AND o.deleted_at IS NULL`,
      [actor.id],
    );
    const origins = rows.flatMap((row) => {
      try {
        const origin = new URL(row.backend_url).origin;
        return origin === 'null' ? [] : [origin];
      } catch {
        return [];
      }
    });
    if (origins.length > 0) void reply.header('content-security-policy', csp.replace("connect-src 'self'", `connect-src 'self' ${origins.join(' ')}`));
    return payload;
  });
}
