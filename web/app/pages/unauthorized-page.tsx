import { ShieldX } from 'lucide-react';
import { EmptyState } from '@web/ui/primitives/empty-state';

/** Spec §2/§6: what a route guard shows when the user lacks the page's permission. */
export function UnauthorizedPage() {
  return (
    <EmptyState
      className="py-24"
      icon={<ShieldX className="size-5" aria-hidden="true" />}
      title="You do not have permission to access this page"
    />
  );
}
