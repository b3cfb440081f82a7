import { MailCheck, TriangleAlert } from 'lucide-react';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { CopyField } from './copy-field';
import type { InviteResult } from './schema';

/**
 * How the invitation reaches the person. With a mail server they got it by mail. Without one nothing was
 * sent, and the admin must hand over the link and the code: the page says so plainly. The code is shown
 * only here, once; it is never put in the URL.
 */
export function InviteResultDialog({ result, onClose }: { result: InviteResult; onClose: () => void }) {
  const code = result.recovery_code;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title="User invited"
      size="small"
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      {result.mail_sent ? (
        <div className="flex gap-3 text-sm text-slate-700">
          <MailCheck className="mt-0.5 size-5 shrink-0 text-green-600" aria-hidden="true" />
          <p>
            An invitation was mailed to <strong className="font-medium text-slate-900">{result.email}</strong>. It holds a link and a one-time code to choose a
            password.
          </p>
        </div>
      ) : (
        <div className="flex flex-col gap-4 text-sm text-slate-700">
          <div role="note" className="flex gap-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <p>
              No mail server is configured, so no email was sent. Pass this link and code on to{' '}
              <strong className="font-medium">{result.email}</strong> yourself, privately: they open the link, enter the code and choose a password.
            </p>
          </div>
          <CopyField label="Invitation link" value={result.recovery_link} />
          {code ? <CopyField label="Code" value={code} monospace /> : null}
          <p className="text-xs text-slate-500">
            The code is shown only here and works for a limited time. If it expires, they can ask for a new one on the same page; without a mail
            server that code is written to the server&apos;s log instead of being sent.
          </p>
        </div>
      )}
    </Dialog>
  );
}
