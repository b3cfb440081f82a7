import { z } from 'zod';
import { problemPathSegments, type ResourceKind } from '../../platform/resources';
import { saveCanary } from './canaries';
import { parseCanarySpec } from './spec';

const canarySchema = z
  .object({
    apiVersion: z.string(),
    kind: z.literal('Canary'),
    metadata: z.object({
      name: z.string({ message: 'is required' }).trim().min(1, 'is required').max(255),
      namespace: z.string().trim().min(1).max(255).optional(),
      labels: z.record(z.string(), z.string()).optional(),
      annotations: z.record(z.string(), z.string()).optional(),
    }),
    spec: z.record(z.string(), z.unknown()),
  })
  .superRefine((doc, ctx) => {
    // Every invalid check is reported with its path (spec.http[0].url: is required), nothing written.
    for (const problem of parseCanarySpec(doc.spec, { namespace: doc.metadata.namespace ?? 'default' }).errors) {
      ctx.addIssue({ code: 'custom', path: problemPathSegments(problem.path), message: problem.message });
    }
  });
export type CanaryDocument = z.infer<typeof canarySchema>;

/**
 * `kind: Canary` (canaries.flanksource.com/v1): a file written for canary-checker applies unchanged; its
 * checks of unsupported types or with unsupported fields are reported as warnings by name.
 */
export const canaryKind: ResourceKind<CanaryDocument> = {
  kind: 'Canary',
  apiVersions: ['canaries.flanksource.com/v1'],
  schema: canarySchema,
  async apply(doc, { client, source }) {
    const saved = await saveCanary(client, {
      name: doc.metadata.name,
      namespace: doc.metadata.namespace ?? 'default',
      labels: doc.metadata.labels ?? {},
      spec: doc.spec,
      source,
    });
    return { action: saved.action, id: saved.id, name: doc.metadata.name, ...(saved.warnings.length > 0 ? { warnings: saved.warnings } : {}) };
  },
};
