import { isRecord } from '../../../platform/errors';
import { z } from 'zod';
import type { SourceType } from '../types';
import { expandPaths, readDocuments } from './files';

const manifestsEntry = z.object({
  paths: z.array(z.string().min(1)).min(1, 'name at least one manifest file, folder or glob'),
  ignore: z.array(z.string()).optional(),
});

/**
 * `kubernetesFile`: a folder of Kubernetes manifests (as exported from a cluster or kept in git). Only
 * objects with apiVersion, kind and metadata.name are read; other documents are reported and skipped.
 */
export const kubernetesFileSource: SourceType<z.infer<typeof manifestsEntry>> = {
  key: 'kubernetesFile',
  label: 'Kubernetes manifests',
  schema: manifestsEntry,
  async scrape(entry, ctx) {
    const base = process.cwd();
    const { files, unmatched } = await expandPaths(entry.paths, base, ctx.signal, [...(entry.ignore ?? []), '**/kustomization.yaml']);
    for (const pattern of unmatched) ctx.error(`${pattern}: no such file or folder`);
    const results = await readDocuments(files.filter((file) => /\.(ya?ml|json)$/i.test(file)), { base, error: ctx.error, signal: ctx.signal });
    return results.filter((result) => {
      const ok = isRecord(result.config) && typeof result.config.kind === 'string' && isRecord(result.config.metadata) && typeof result.config.metadata.name === 'string';
      if (!ok) ctx.error(`${result.source ?? 'a document'}: not a Kubernetes object (apiVersion, kind and metadata.name)`);
      return ok;
    });
  },
};
