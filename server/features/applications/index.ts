import type { Feature } from '../../platform/context';
import { applicationKind } from './applications';
import { applicationKubeKind } from './kube-kind';
import { applicationRoutes } from './routes';

/**
 * Applications (spec §2 /applications and /applications/{namespace}/{name}, §6 applications; docs/APPLICATIONS.md):
 * the kind `Application`, its cards, its audit report over a time range and that report as a PDF.
 */
export const applicationsFeature: Feature = {
  name: 'applications',
  kinds: [applicationKind],
  kubeKinds: [applicationKubeKind],
  register(app, ctx) {
    applicationRoutes(app, ctx);
  },
};
