import { formatRelative } from '@common/format';
import { Copy, Trash2 } from 'lucide-react';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { AttachEvidenceButton } from '@web/features/incidents/link/attach-evidence';
import { RunPlaybookMenu } from '@web/features/playbooks/run/run-menu';
import { copyToClipboard } from '@web/lib/clipboard';
import { Badge } from '@web/ui/primitives/badge';
import { DateTime } from '@web/ui/primitives/date-time';
import { IconButton } from '@web/ui/primitives/icon-button';
import type { ConfigDetail, ConfigParent } from '../api/schema';
import { ConfigHealthBadge } from './config-health';
import { ConfigIcon } from './config-icon';
import { configHref, configName } from './config-link';
import { KeyValueList } from './config-tags';
import { hasPage } from './has-page';

/** Spec §8 copy message for an id. */
export const copiedIdText = (id: string) => `Copied ${id} to clipboard`;

/** What the header shows of an item: any `config_detail` row has it. */
export type ConfigHeaderData = Pick<
  ConfigDetail,
  'id' | 'name' | 'type' | 'health' | 'status' | 'labels' | 'tags' | 'deleted_at' | 'delete_reason' | 'created_at' | 'updated_at' | 'scraper'
>;

/** Catalog / type / ancestors (root first) / the item: every step but the last is a link. */
export function ConfigBreadcrumb({ config, parents }: { config: Pick<ConfigHeaderData, 'id' | 'name' | 'type'>; parents: readonly ConfigParent[] }) {
  const separator = <span aria-hidden="true" className="text-slate-400">/</span>;
  return (
    <nav aria-label="Breadcrumb" className="flex min-w-0 flex-wrap items-center gap-1.5 text-sm text-slate-600">
      <Link to="/catalog" className="text-blue-700 hover:underline">
        Catalog
      </Link>
      {separator}
      <Link to={`/catalog?type=${encodeURIComponent(config.type)}`} className="text-blue-700 hover:underline">
        {config.type}
      </Link>
      {parents.map((parent) => (
        <Fragment key={parent.id}>
          {separator}
          <Link to={configHref(parent.id)} className="inline-flex items-center gap-1 text-blue-700 hover:underline" title={parent.type}>
            <ConfigIcon type={parent.type} className="size-3.5" />
            {configName(parent)}
          </Link>
        </Fragment>
      ))}
      {separator}
      <span aria-current="page" className="font-medium text-slate-900">
        {configName(config)}
      </span>
    </nav>
  );
}

/**
 * The head of a config item's pages (/catalog/{id} and its tabs): breadcrumb up the parents, type icon,
 * name, health (spec §4 colours) and status, a deleted mark, the id to copy, tags (spec §3 order) and labels.
 */
export function ConfigHeader({ config, parents = [] }: { config: ConfigHeaderData; parents?: readonly ConfigParent[] }) {
  const deleted = Boolean(config.deleted_at);
  const scraperPage = config.scraper && hasPage('catalog/scrapers/:id') ? `/catalog/scrapers/${encodeURIComponent(config.scraper.id)}` : undefined;
  return (
    <section aria-label="Config item" className="flex flex-col gap-3">
      <ConfigBreadcrumb config={config} parents={parents} />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h2 className="flex min-w-0 items-center gap-2 text-lg font-semibold text-slate-900">
          <ConfigIcon type={config.type} className="size-6 text-slate-600" />
          <span className={deleted ? 'truncate text-slate-500 line-through' : 'truncate'}>{configName(config)}</span>
        </h2>
        <ConfigHealthBadge health={config.health} status={config.status} />
        {deleted ? (
          <Badge tone="danger">
            <Trash2 className="size-3" aria-hidden="true" />
            Deleted {formatRelative(config.deleted_at)} ago{config.delete_reason ? ` (${config.delete_reason.toLowerCase()})` : ''}
          </Badge>
        ) : null}
        <span className="inline-flex items-center gap-1 font-mono text-xs text-slate-500">
          {config.id}
          <IconButton label="Copy ID" icon={<Copy className="size-3.5" aria-hidden="true" />} className="size-7" onClick={() => void copyToClipboard(config.id, copiedIdText(config.id))} />
        </span>
        {deleted ? null : (
          <span className="ml-auto flex items-center gap-2">
            <RunPlaybookMenu target={{ kind: 'config', id: config.id, name: configName(config) }} />
            <AttachEvidenceButton target={{ type: 'config', config_id: config.id, summary: `the config ${configName(config)} (${config.type}) as it is now` }} />
          </span>
        )}
      </div>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
        <div className="flex gap-1.5">
          <dt className="text-slate-500">Type</dt>
          <dd className="text-slate-800">{config.type}</dd>
        </div>
        {config.scraper ? (
          <div className="flex gap-1.5">
            <dt className="text-slate-500">Scraper</dt>
            <dd>
              {scraperPage ? (
                <Link to={scraperPage} className="text-blue-700 hover:underline">
                  {config.scraper.namespace}/{config.scraper.name}
                </Link>
              ) : (
                <span className="text-slate-800">
                  {config.scraper.namespace}/{config.scraper.name}
                </span>
              )}
            </dd>
          </div>
        ) : null}
        <div className="flex gap-1.5">
          <dt className="text-slate-500">Created</dt>
          <dd className="text-slate-800">
            <DateTime value={config.created_at} />
          </dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-slate-500">Updated</dt>
          <dd className="text-slate-800">
            <DateTime value={config.updated_at} />
          </dd>
        </div>
      </dl>
      <KeyValueList label="Tags" values={config.tags} tone="info" />
      <KeyValueList label="Labels" values={config.labels} limit={8} />
    </section>
  );
}
