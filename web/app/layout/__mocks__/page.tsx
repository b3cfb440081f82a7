import type { PageProps } from '../page';

/**
 * The page shell for component tests (`vi.mock('@web/app/layout/page')`): the title and the page's own
 * controls and content, without the top bar's menus and their requests.
 */
export const BOUNDARY_FALLBACK_TEXT = 'Sorry.. there was an error';

export function Page({ title, extra, children }: PageProps) {
  return (
    <div>
      <h1>{title}</h1>
      {extra}
      {children}
    </div>
  );
}
