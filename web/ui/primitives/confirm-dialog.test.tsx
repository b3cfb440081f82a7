// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';
import { Dialog } from './dialog';

describe('dialogs', () => {
  it('confirm dialog: focus starts on Cancel, Delete calls back and stays open until closed', async () => {
    const onConfirm = vi.fn();
    function Harness() {
      const [open, setOpen] = useState(true);
      return <ConfirmDialog open={open} onOpenChange={setOpen} title="Delete token?" description="It stops working at once." onConfirm={onConfirm} />;
    }
    render(<Harness />);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete token?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledOnce();
    expect(dialog.isConnected).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('confirm dialog: says Deleting… and disables both buttons while busy', () => {
    render(<ConfirmDialog open onOpenChange={() => undefined} title="Delete token?" description="It stops working at once." busy onConfirm={() => undefined} />);
    const confirm = screen.getByRole<HTMLButtonElement>('button', { name: 'Deleting…' });
    expect(confirm.disabled).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Cancel' }).disabled).toBe(true);
  });

  it('dialog: titled, closable with the close button, sized', async () => {
    function Harness() {
      const [open, setOpen] = useState(true);
      return (
        <Dialog open={open} onOpenChange={setOpen} title="Edit" size="very-small">
          body
        </Dialog>
      );
    }
    render(<Harness />);
    const dialog = screen.getByRole('dialog', { name: 'Edit' });
    expect(dialog.className).toContain('max-w-sm');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
