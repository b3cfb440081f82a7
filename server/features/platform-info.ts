import { z } from 'zod';
import { route } from '../platform/http/route';
import { runningVersion } from '../platform/version';
import type { Feature } from '../platform/context';

const versionAnswer = z.object({
  backend: z.string(),
  version: z.string(),
  commit: z.string().nullable(),
  dirty: z.boolean(),
});

/** Facts about this server the console shows, such as the user menu's version line (spec §2, §7). */
export const platformInfoFeature: Feature = {
  name: 'platform-info',
  register(app) {
    // Read at start: the version and commit of what is running, not of what the checkout holds later.
    const version = runningVersion();
    route(app, {
      method: 'GET',
      url: '/api/version',
      summary: 'The backend version: package version and the git commit the server started from',
      access: 'public',
      tags: ['platform'],
      response: versionAnswer,
      handler: () => version,
    });
  },
};
