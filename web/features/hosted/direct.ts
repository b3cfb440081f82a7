import { setRequestRoute } from '@web/lib/api';
import { fetchOrganizationToken } from './api';

/** Answered by the front itself, as on the server (server/features/hosted/proxy.ts). */
const FRONT_ONLY = /^\/api\/(auth|\.ory|organizations)(\/|\?|$)/;
/** A token is fetched again a minute before it expires (they live five). */
const RENEW_MARGIN_MS = 60_000;

/**
 * Spec §7, a `direct` organization: the browser calls its backend itself with the front's bearer token
 * (the backend allows the front's origin). `null`: requests stay on this origin (the front proxies them).
 * Answers the undo, for a React effect's cleanup.
 */
export function routeToBackend(backendUrl: string | null): () => void {
  if (!backendUrl) return () => undefined;
  const base = backendUrl.replace(/\/+$/, '');
  let token: Promise<{ value: string; expiresAt: number }> | undefined;
  const current = async () => {
    const held = token ? await token.catch(() => undefined) : undefined;
    if (held && held.expiresAt - Date.now() > RENEW_MARGIN_MS) return held.value;
    token = fetchOrganizationToken().then((answer) => ({ value: answer.token, expiresAt: Date.parse(answer.expires_at) }));
    return (await token).value;
  };
  setRequestRoute(async (path) => {
    if (!path.startsWith('/api/') || FRONT_ONLY.test(path)) return undefined;
    return { url: `${base}${path}`, headers: { authorization: `Bearer ${await current()}` } };
  });
  return () => setRequestRoute(undefined);
}
