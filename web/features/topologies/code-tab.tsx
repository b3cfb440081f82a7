import { Copy, LayoutDashboard } from 'lucide-react';
import { Link } from 'react-router';
import { stringify } from 'yaml';
import type { ResourceTabProps } from '@web/features/settings/resources/types';
import { valueToText } from '@web/features/settings/resources/values';
import { RunNowButton } from '@web/features/health/detail/run-now';
import { useRunTopology } from '@web/features/topology/api';
import { copyToClipboard } from '@web/lib/clipboard';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';

/** The resource as a file: what `watchkeeper apply -f` takes (secrets show as ******, as everywhere). */
export function topologyDocument(row: ResourceTabProps['row']): string {
  const labels = row.labels && typeof row.labels === 'object' && Object.keys(row.labels).length > 0 ? row.labels : undefined;
  return stringify({
    apiVersion: 'canaries.flanksource.com/v1',
    kind: 'Topology',
    metadata: { name: valueToText(row.name), namespace: valueToText(row.namespace) || 'default', ...(labels ? { labels } : {}) },
    spec: row.spec ?? {},
  });
}

/**
 * The Code tab of a topology: the whole resource as YAML to keep in git and apply from a file or the
 * watched folder, Run Now, and a link to its card on the dashboard.
 */
export default function CodeTab({ row, access }: ResourceTabProps) {
  const run = useRunTopology();
  const text = topologyDocument(row);
  const rootId = valueToText(row.root_id);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        {access.update ? (
          <RunNowButton
            running={run.isPending}
            onRun={() =>
              run.mutate(valueToText(row.id), {
                onSuccess: (result) => toast.success(`Topology ran: ${result.components.length} components (${result.created} created, ${result.updated} updated, ${result.deleted} deleted)${result.errors.length ? `; ${result.errors.length} errors, see Job History` : ''}`),
                onError: (error) => toast.error(error),
              })
            }
          />
        ) : null}
        <Button size="sm" onClick={() => void copyToClipboard(text)}>
          <Copy className="size-3.5" aria-hidden="true" />
          Copy YAML
        </Button>
        {rootId ? (
          <Link to={`/topology/${rootId}`} className="inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm text-blue-700 hover:underline">
            <LayoutDashboard className="size-3.5" aria-hidden="true" />
            Open in dashboard
          </Link>
        ) : null}
      </div>
      <pre aria-label="Topology YAML" className="max-h-[60vh] overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs text-slate-800">
        {text}
      </pre>
    </div>
  );
}
