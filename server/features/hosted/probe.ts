import { request } from 'undici';

/**
 * Spec §1: while the backend's whoami answers 5xx or 404 (or nothing yet), the person sees "Please wait,
 * instance provisioning in-progress ...". Any other failure is an error, not provisioning. An
 * organization without a backend URL is served by this server's database (migration 0030), so it is
 * ready: to hold its people on the provisioning screen while its instance is made, set the backend URL
 * first (docs/HOSTED.md).
 */
export type BackendState =
  | { state: 'ready' }
  | { state: 'provisioning'; reason: string }
  | { state: 'error'; reason: string };

const PROBE_TIMEOUT_MS = 5_000;

export async function probeBackend(backendUrl: string | null, token: string): Promise<BackendState> {
  if (!backendUrl) return { state: 'ready' };
  let status: number;
  try {
    const answer = await request(`${backendUrl.replace(/\/+$/, '')}/api/auth/whoami`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      headersTimeout: PROBE_TIMEOUT_MS,
      bodyTimeout: PROBE_TIMEOUT_MS,
    });
    status = answer.statusCode;
    await answer.body.dump();
  } catch {
    // Not listening yet (starting, or being made): the same as a 5xx from a proxy in front of it.
    return { state: 'provisioning', reason: 'the backend is not answering yet' };
  }
  if (status >= 200 && status < 300) return { state: 'ready' };
  if (status >= 500 || status === 404) return { state: 'provisioning', reason: `the backend's whoami answers HTTP ${status}` };
  return { state: 'error', reason: `the backend refused this console's token (HTTP ${status}): check its --trusted-issuer and --trusted-audience` };
}
