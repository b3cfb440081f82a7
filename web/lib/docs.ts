/** Spec §9: docs links resolve against the documentation host; one constant to change for a fork. */
export const DOCS_BASE_URL = 'https://github.com/watchkeeper/watchkeeper/tree/main/docs';

/** A page of the documentation, e.g. docsUrl('OPERATIONS.md'). */
export function docsUrl(page = ''): string {
  return page ? `${DOCS_BASE_URL}/${page.replace(/^\//, '')}` : DOCS_BASE_URL;
}
