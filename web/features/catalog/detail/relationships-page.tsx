import { RELATED_CONFIGS_MAX_DEPTH } from '@common/constants';
import { useId } from 'react';
import { useDisplayPreferences } from '@web/lib/preferences';
import { useUrlParams } from '@web/lib/use-url-params';
import { patchSearchParams, pickOption, readInteger, readSearchParams } from '@web/lib/url-state';
import { DataTable, type ColumnDef } from '@web/ui/data-table';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { DIRECTIONS, useRelatedConfigs, type Direction } from '../api/tabs';
import type { ConfigDetail, RelatedConfig } from '../api/schema';
import { ConfigHealthBadge } from '../components/config-health';
import { ConfigLink } from '../components/config-link';
import { ConfigPage } from '../components/config-page';
import { RelationshipGraph } from './relationship-graph';
import { Segmented } from './segmented';

/** How far the walk goes unless the URL says otherwise (spec §9 allows up to 10). */
export const DEFAULT_DEPTH = 3;
const DEPTHS = Array.from({ length: RELATED_CONFIGS_MAX_DEPTH }, (_, i) => i + 1);
const DIRECTION_LABELS: Record<Direction, string> = { all: 'All', incoming: 'Incoming', outgoing: 'Outgoing' };
const URL_DEFAULTS = { direction: 'all', depth: String(DEFAULT_DEPTH) };

export function parseRelationshipParams(params: URLSearchParams): { direction: Direction; depth: number } {
  const p = readSearchParams(params);
  return { direction: pickOption(p.direction, DIRECTIONS, 'all'), depth: readInteger(p.depth, DEFAULT_DEPTH, { min: 1, max: RELATED_CONFIGS_MAX_DEPTH }) };
}

const stop = (event: { stopPropagation: () => void }) => event.stopPropagation();

const COLUMNS: ColumnDef<RelatedConfig>[] = [
  { id: 'name', header: 'Name', accessorFn: (row) => row.name ?? '', cell: ({ row }) => <ConfigLink config={row.original} onClick={stop} /> },
  { accessorKey: 'type', header: 'Type' },
  { accessorKey: 'direction', header: 'Direction', cell: ({ row }) => DIRECTION_LABELS[row.original.direction] },
  { accessorKey: 'depth', header: 'Depth' },
  { accessorKey: 'health', header: 'Health', cell: ({ row }) => <ConfigHealthBadge health={row.original.health} status={row.original.status} /> },
];

function Relationships({ config }: { config: ConfigDetail }) {
  const [params, setParams] = useUrlParams();
  const { direction, depth } = parseRelationshipParams(params);
  const { showDeletedConfigs } = useDisplayPreferences();
  const related = useRelatedConfigs(config.id, { direction, depth, includeDeleted: showDeletedConfigs });
  const depthId = useId();
  const rows = related.data ?? [];
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-4">
        <Segmented
          label="Direction"
          value={direction}
          options={DIRECTIONS.map((value) => ({ value, label: DIRECTION_LABELS[value] }))}
          onChange={(next) => setParams((current) => patchSearchParams(current, { direction: next }, URL_DEFAULTS))}
        />
        <div className="flex items-center gap-2">
          <label htmlFor={depthId} className="text-sm font-medium text-slate-700">
            Depth
          </label>
          <select
            id={depthId}
            value={depth}
            onChange={(event) => setParams((current) => patchSearchParams(current, { depth: event.target.value }, URL_DEFAULTS))}
            className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm"
          >
            {DEPTHS.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <span role="status" className="text-sm text-slate-600">
          {related.data ? `${rows.length} related ${rows.length === 1 ? 'item' : 'items'}` : ''}
        </span>
      </div>
      {related.error ? (
        <p role="alert" className="text-sm text-red-600">
          {related.error.message}
        </p>
      ) : null}
      {related.isLoading ? (
        <Loading />
      ) : rows.length === 0 ? (
        <EmptyState title="No related items" description={`Nothing is related to this item within ${depth} ${depth === 1 ? 'step' : 'steps'} (${DIRECTION_LABELS[direction].toLowerCase()}).`} />
      ) : (
        <>
          <RelationshipGraph root={config} related={rows} />
          <DataTable aria-label="Related items" data={rows} columns={COLUMNS} getRowId={(row) => row.id} />
        </>
      )}
    </div>
  );
}

/** Spec §2 /catalog/{id}/relationships: what the item is part of and what it holds, as a graph and a table. */
export default function RelationshipsPage() {
  return <ConfigPage tab="relationships">{(config) => <Relationships config={config} />}</ConfigPage>;
}
