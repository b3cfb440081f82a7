import { BookOpenCheck } from 'lucide-react';
import { CheckIcon } from '@web/ui/check-icon';
import { Badge } from '@web/ui/primitives/badge';
import { cn } from '@web/ui/primitives/cn';
import { statusLabel, statusTone } from '../model/status';

export function RunStatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTone(status)}>{statusLabel(status)}</Badge>;
}

/** A playbook's icon (spec.icon names one of the console's icons), or the playbook mark. */
export function PlaybookIcon({ icon, className }: { icon?: string | null | undefined; className?: string }) {
  if (icon) return <CheckIcon icon={icon} type="" className={cn('size-5 text-blue-600', className)} />;
  return <BookOpenCheck className={cn('size-5 text-blue-600', className)} aria-hidden="true" />;
}

export const playbookTitle = (playbook: { name: string; title?: string | null | undefined }) => playbook.title?.trim() || playbook.name;
