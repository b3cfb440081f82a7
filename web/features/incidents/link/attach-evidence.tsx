import { Paperclip } from 'lucide-react';
import { useState } from 'react';
import { useAccess } from '@web/app/session';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { Button, type ButtonProps } from '@web/ui/primitives/button';
import { LinkDialog, type EvidenceTarget } from './link-dialog';

/** Spec §6: Attach as Evidence needs write on incidents and is hidden when the incidents feature is off. */
export function useCanAttachEvidence(): boolean {
  const access = useAccess();
  const flags = useFeatureFlags();
  return flags.ready && flags.isEnabled('incidents') && access.can('incident', 'write') && access.can('evidences', 'create');
}

/**
 * The 'Attach as Evidence' button and its Link to Incident dialog, for any page that shows a check, a
 * config, a change, an insight or a component. Renders nothing for people who may not link.
 */
export function AttachEvidenceButton({ target, size = 'sm', variant = 'secondary', label = 'Attach as Evidence' }: { target: EvidenceTarget; label?: string } & Pick<ButtonProps, 'size' | 'variant'>) {
  const allowed = useCanAttachEvidence();
  const [open, setOpen] = useState(false);
  if (!allowed) return null;
  return (
    <>
      <Button size={size} variant={variant} onClick={() => setOpen(true)}>
        <Paperclip className="size-4" aria-hidden="true" />
        {label}
      </Button>
      {open ? <LinkDialog open={open} onOpenChange={setOpen} target={target} /> : null}
    </>
  );
}
