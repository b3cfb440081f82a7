import { Link2 } from 'lucide-react';
import { Badge } from '@web/ui/primitives/badge';
import { UI_SOURCE } from './values';

/** Spec §4: a resource from a CRD, a config file or an agent is shown as linked, not editable. */
export function SourceBadge({ source }: { source: string }) {
  if (source === '' || source === UI_SOURCE) return <span className="text-slate-600">{source}</span>;
  return (
    // A pill keeps to one line: a wrapped "Linked: Demo" makes its table row taller than the others.
    <Badge tone="info" className="whitespace-nowrap">
      <Link2 className="size-3" aria-hidden="true" />
      <span title="Managed outside the console; read-only here">Linked: {source}</span>
    </Badge>
  );
}
