import { useQueryClient } from '@tanstack/react-query';
import { FileQuestion } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { RelatedIncidents } from '@web/features/incidents/related-incidents';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useConfigDetail, useConfigParents } from '../api/config';
import { catalogKeys } from '../api/keys';
import type { ConfigDetail } from '../api/schema';
import { ConfigHeader } from './config-header';
import { configName } from './config-link';
import { ConfigTabs, type ConfigTabId } from './config-tabs';

export const CONFIG_NOT_FOUND_TEXT = 'Config item not found';

export interface ConfigPageProps {
  /** The tab this page is. */
  tab: ConfigTabId;
  /** The tab's content, given the loaded item. */
  children: (config: ConfigDetail) => ReactNode;
}

/**
 * The frame of every /catalog/{id}… page: the item (id from the route) loaded once, the page title, the
 * header, the tabs, then the tab's content. Loading, error and not-found states are handled here, so a
 * tab only draws its own part. Refresh reloads everything of this item.
 */
export function ConfigPage({ tab, children }: ConfigPageProps) {
  const { id } = useParams();
  const detail = useConfigDetail(id);
  const parents = useConfigParents(id);
  const client = useQueryClient();
  const config = detail.data;
  const title = config ? configName(config) : 'Catalog';
  const content = (() => {
    if (detail.isLoading) return <Loading />;
    if (detail.error) {
      return (
        <p role="alert" className="text-sm text-red-600">
          {detail.error.message}
        </p>
      );
    }
    if (!config) {
      return (
        <EmptyState
          icon={<FileQuestion className="size-5" aria-hidden="true" />}
          title={CONFIG_NOT_FOUND_TEXT}
          description={`There is no config item with the id ${id ?? ''}.`}
          action={
            <Link to="/catalog" className={cn(buttonBase, 'h-9 border border-slate-300 bg-white px-4 text-sm text-slate-800 hover:bg-slate-50')}>
              Back to the catalog
            </Link>
          }
        />
      );
    }
    return (
      <div className="flex flex-col gap-4">
        <ConfigHeader config={config} parents={parents.data ?? []} />
        <RelatedIncidents by="config" id={config.id} compact />
        <ConfigTabs config={config} active={tab} />
        <div>{children(config)}</div>
      </div>
    );
  })();
  return (
    <Page title={title} onRefresh={() => void client.invalidateQueries({ queryKey: catalogKeys.detail(id ?? '') })} refreshing={detail.isFetching}>
      {content}
    </Page>
  );
}
