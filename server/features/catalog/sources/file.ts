import { z } from 'zod';
import type { SourceType } from '../types';
import { expandPaths, readDocuments } from './files';

const fileEntry = z.object({
  paths: z.array(z.string().min(1)).min(1, 'name at least one file, directory or glob'),
  ignore: z.array(z.string()).optional(),
  /** Where relative paths start (default: the server's working directory). */
  url: z.string().optional(),
  format: z.enum(['json', 'yaml', 'properties']).optional(),
});

/**
 * `file`: YAML and JSON files, directories and globs, every document of a multi-document file one result.
 * Kubernetes manifests among them become Kubernetes::<Kind> items (mapping.ts).
 */
export const fileSource: SourceType<z.infer<typeof fileEntry>> = {
  key: 'file',
  label: 'File',
  schema: fileEntry,
  async scrape(entry, ctx) {
    const base = entry.url && !/^[a-z]+:\/\//i.test(entry.url) ? entry.url : process.cwd();
    const { files, unmatched } = await expandPaths(entry.paths, base, ctx.signal, entry.ignore);
    for (const pattern of unmatched) ctx.error(`${pattern}: no such file`);
    return readDocuments(files, { base, format: entry.format, error: ctx.error, signal: ctx.signal });
  },
};
