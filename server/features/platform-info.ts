import { z } from 'zod';
import { route } from '../platform/http/route';
import { VERSION } from '../platform/paths';
import type { Feature } from '../platform/context';

const versionAnswer = z.object({ backend: z.string() });

/** Facts about this server the console shows, such as the user menu's version line (spec §2, §7). */
export const platformInfoFeature: Feature = {
  name: 'platform-info',
  register(app) {
    route(app, {
      method: 'GET',
      url: '/api/version',
      summary: 'The backend version',
      access: 'public',
      tags: ['platform'],
      response: versionAnswer,
      handler: () => ({ backend: VERSION }),
    });
  },
};
