import { stringify } from 'yaml';
import { z } from 'zod';
import { presetScopes } from '../../../common/rbac';
import type { Feature } from '../../platform/context';
import { AppError } from '../../platform/http/errors';
import { route } from '../../platform/http/route';
import { kubeconfigCluster } from '../../platform/tls';
import { createAccessToken } from '../identity';
import { KUBE_PREFIX, kubeRoutes } from './api';

export { useKubeKinds } from './kinds';

/**
 * Spec §2: the file is named from the backend host plus '-kubeconfig.yaml' (`localhost-kubeconfig.yaml`),
 * the host kept to [A-Za-z0-9.-]. The web's kubeconfig modal names it the same way (web/features/mcp/kubeconfig.ts).
 */
export function kubeconfigFileName(publicUrl: string): string {
  let host = '';
  try {
    host = new URL(publicUrl).hostname;
  } catch {
    // A public URL is checked at start-up; the fallback name covers anything else.
  }
  const safe = host.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^[.-]+|[.-]+$/g, '');
  return `${safe || 'watchkeeper'}-kubeconfig.yaml`;
}

/**
 * The Kubernetes-style API (issue 24, docs/KUBECTL.md): GET /api/kubeconfig makes a token and a kubeconfig
 * for the signed-in person; /api/kubernetes/... answers kubectl (discovery, namespaces, the stored kinds).
 */
export const kubeFeature: Feature = {
  name: 'kube',
  async register(app, ctx) {
    route(app, {
      method: 'GET',
      url: '/api/kubeconfig/file',
      summary: 'The name GET /api/kubeconfig gives its file, for the kubeconfig modal to name the file actually downloaded',
      tags: ['kubernetes'],
      access: 'authenticated',
      response: z.object({ file: z.string() }),
      handler: () => ({ file: kubeconfigFileName(ctx.config.publicUrl) }),
    });
    route(app, {
      method: 'GET',
      url: '/api/kubeconfig',
      summary: 'A kubeconfig for kubectl: a new API token of yours (what you may do), the server /api/kubernetes, context watchkeeper',
      tags: ['kubernetes'],
      access: 'authenticated',
      handler: async ({ req, reply }) => {
        const actor = req.actor;
        if (!actor) throw new AppError('unauthorized', 'sign in first');
        // A token may not mint tokens (as POST /api/auth/create_token): its scopes would no longer limit the new one.
        if (!actor.session) throw new AppError('forbidden', 'a kubeconfig can only be made from a signed-in session, not with an API token');
        const date = new Date().toISOString().slice(0, 10);
        const created = await createAccessToken(ctx.pool, { personId: actor.id, name: `kubeconfig-${date}`, scopes: presetScopes('Admin'), expiresAt: null, createdBy: actor.id, organizationId: actor.organizationId ?? null });
        req.log.info({ token: created.id }, 'API token created for a kubeconfig');
        const user = actor.email ?? actor.name;
        const cluster = kubeconfigCluster(ctx.config, KUBE_PREFIX);
        const kubeconfig = {
          apiVersion: 'v1',
          kind: 'Config',
          // Over https with the console's CA when this server serves TLS (docs/KUBECTL.md): kubectl sends the token only over https.
          clusters: [{ name: 'watchkeeper', cluster }],
          users: [{ name: user, user: { token: created.token } }],
          contexts: [{ name: 'watchkeeper', context: { cluster: 'watchkeeper', user, namespace: 'default' } }],
          'current-context': 'watchkeeper',
          preferences: {},
        };
        return reply
          .header('content-type', 'application/yaml; charset=utf-8')
          .header('content-disposition', `attachment; filename="${kubeconfigFileName(ctx.config.publicUrl)}"`)
          .header('cache-control', 'no-store')
          .send(`${cluster.server.startsWith('http:') ? '# kubectl sends the token only over https: serve Watchkeeper behind TLS (docs/KUBECTL.md)\n' : ''}${stringify(kubeconfig)}`);
      },
    });
    await kubeRoutes(app, ctx);
  },
};
