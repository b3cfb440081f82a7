import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { AppError } from '../platform/http/errors';
import { route } from '../platform/http/route';
import { ROOT } from '../platform/paths';
import type { Feature } from '../platform/context';

/** The documentation pages shipped with this version (docs/*.md) the console links to: its Docs menu and help links. */
export const DOC_PAGES = ['OPERATIONS.md', 'ARCHITECTURE.md', 'API.md', 'RESOURCES.md', 'AUTH.md', 'APPLICATIONS.md', 'KUBECTL.md', 'MCP.md'] as const;

/**
 * Serves docs/ as plain text, so the documentation a user reads always matches the running version and
 * works without access to any other host.
 */
export const docsFeature: Feature = {
  name: 'docs',
  register(app) {
    route(app, {
      method: 'GET',
      url: '/docs/:page',
      summary: 'A documentation page of this version (Markdown)',
      access: 'public',
      tags: ['platform'],
      params: z.object({ page: z.enum(DOC_PAGES) }),
      handler: async ({ params, reply }) => {
        const text = await fs.readFile(path.join(ROOT, 'docs', params.page), 'utf8').catch(() => {
          throw new AppError('not_found', `documentation page ${params.page} is not installed`);
        });
        return reply.header('cache-control', 'no-cache').type('text/plain; charset=utf-8').send(text);
      },
    });
  },
};
