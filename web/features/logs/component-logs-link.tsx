import { ScrollText } from 'lucide-react';
import { Link } from 'react-router';
import { useAccess } from '@web/app/session';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { useComponentLogs } from './api';

/** A topology component's way to its logs: shown when some log backend holds them (components_with_logs). */
export function ComponentLogsLink({ componentId }: { componentId: string }) {
  const access = useAccess();
  const flags = useFeatureFlags();
  const allowed = flags.ready && flags.isEnabled('logs') && access.can('logging_backends', 'read');
  const logs = useComponentLogs(componentId, allowed);
  if (!allowed || !logs.data || logs.data.length === 0) return null;
  return (
    <Link to={`/logs?source=${encodeURIComponent(`component:${componentId}`)}`} className="inline-flex items-center gap-1.5 text-sm font-medium text-blue-700 hover:underline">
      <ScrollText className="size-4" aria-hidden="true" />
      Logs ({logs.data.map((backend) => backend.name).join(', ')})
    </Link>
  );
}
