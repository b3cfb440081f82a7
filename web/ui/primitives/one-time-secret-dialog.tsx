import { TriangleAlert } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

export interface OneTimeSecretDialogProps {
  title: string;
  size: ComponentProps<typeof Dialog>['size'];
  /** What to copy now and why: the secret cannot be seen once the dialog is closed. */
  warning: string;
  onClose: () => void;
  children: ReactNode;
}

/** A secret shown once (a new token, an agent's start command, an MCP client's configuration): warning, content, Done. */
export function OneTimeSecretDialog({ title, size, warning, onClose, children }: OneTimeSecretDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={title}
      size={size}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <p role="alert" className="flex items-start gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{warning}</span>
        </p>
        {children}
      </div>
    </Dialog>
  );
}
