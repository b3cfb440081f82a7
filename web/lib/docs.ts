/**
 * Spec §9: docs links resolve against the documentation host. The server itself serves the
 * documentation of its own version (server/features/docs.ts), so the links work offline and never
 * describe another version.
 */
export const DOCS_BASE_URL = '/docs';

/** The pages of the Docs menu, in reading order. */
export const DOC_PAGES = [
  { page: 'OPERATIONS.md', label: 'Operations guide' },
  { page: 'AUTH.md', label: 'Sign-in and permissions' },
  { page: 'ARCHITECTURE.md', label: 'Architecture' },
  { page: 'API.md', label: 'HTTP API' },
  { page: 'RESOURCES.md', label: 'Resources (YAML)' },
] as const;

/** A page of the documentation, e.g. docsUrl('OPERATIONS.md'). */
export function docsUrl(page: string): string {
  return `${DOCS_BASE_URL}/${page.replace(/^\//, '')}`;
}
