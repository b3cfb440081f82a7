import type { Feature } from '../../platform/context';
import { artifactRetentionJob } from '../../platform/artifacts';
import { backgroundWork } from '../../platform/jobs';
import { CHECK_STATUS_RETENTION } from '../health';
import { artifactRoutes } from './routes';

/**
 * /api/artifacts: the files check runs (and later playbook actions) left, listed per owner and downloaded
 * by id; and the ArtifactRetention job, which deletes them with the check history they belong to.
 */
export const artifactsFeature: Feature = {
  name: 'artifacts',
  async register(app, ctx) {
    await artifactRoutes(app, ctx);
    backgroundWork.job(artifactRetentionJob(CHECK_STATUS_RETENTION));
  },
};
