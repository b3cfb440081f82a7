import * as Alert from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import { Button } from './button';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  /** Text of the confirming button; 'Delete' for the usual delete confirmation. */
  confirmLabel?: string;
  /** Text of the confirming button while busy; 'Deleting…' with the default label, else the label. */
  busyLabel?: string;
  /** Red confirm button for destructive actions (the default: this is the delete confirmation). */
  destructive?: boolean;
  /** Disables the buttons while the action runs. */
  busy?: boolean;
  onConfirm: () => void;
}

/**
 * An alert dialog: focus starts on Cancel, so Enter never deletes by accident, and clicking outside does
 * not dismiss it. The caller closes it when the action succeeded.
 */
export function ConfirmDialog({ open, onOpenChange, title, description, confirmLabel, busyLabel, destructive = true, busy, onConfirm }: ConfirmDialogProps) {
  const label = busy ? (busyLabel ?? confirmLabel ?? 'Deleting…') : (confirmLabel ?? 'Delete');
  return (
    <Alert.Root open={open} onOpenChange={onOpenChange}>
      <Alert.Portal>
        {/* Above a Dialog's content too: a confirmation asked from inside a dialog dims that dialog. */}
        <Alert.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Alert.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-slate-200 bg-white p-5 shadow-xl focus:outline-none">
          <Alert.Title className="text-base font-semibold text-slate-900">{title}</Alert.Title>
          <Alert.Description className="mt-2 text-sm text-slate-600">{description}</Alert.Description>
          <div className="mt-5 flex justify-end gap-2">
            <Alert.Cancel asChild>
              <Button disabled={busy}>Cancel</Button>
            </Alert.Cancel>
            <Button
              variant={destructive ? 'danger' : 'primary'}
              disabled={busy}
              onClick={(event) => {
                // Keep the dialog open until the caller decides (it may fail and need a retry).
                event.preventDefault();
                onConfirm();
              }}
            >
              {label}
            </Button>
          </div>
        </Alert.Content>
      </Alert.Portal>
    </Alert.Root>
  );
}
