import type { ReactNode } from 'react';
import { Page, type PageProps } from '@web/app/layout/page';

/** What the page uses of a TanStack Query result. */
export interface PageQuery {
  refetch: () => Promise<unknown>;
  isFetching: boolean;
  error: Error | null;
}

export interface QueryPageProps extends Omit<PageProps, 'onRefresh' | 'refreshing'> {
  /** The query the page shows: Refresh reloads it, and its error is shown above the content. */
  query: PageQuery;
  /** Controls above the error and the content, e.g. filters. */
  toolbar?: ReactNode;
}

/** A settings page built on one query (its table shows the loading and empty states). */
export function QueryPage({ query, toolbar, children, ...page }: QueryPageProps) {
  return (
    <Page {...page} onRefresh={() => void query.refetch()} refreshing={query.isFetching}>
      <div className="flex flex-col gap-3">
        {toolbar}
        {query.error ? (
          <p role="alert" className="text-sm text-red-600">
            {query.error.message}
          </p>
        ) : null}
        {children}
      </div>
    </Page>
  );
}
