import { Copy, Eye, EyeOff } from 'lucide-react';
import { useId, useState } from 'react';
import { DateTime } from '@web/ui/primitives/date-time';
import { OneTimeSecretDialog } from '@web/ui/primitives/one-time-secret-dialog';
import { IconButton } from '@web/ui/primitives/icon-button';
import { copyToClipboard } from '@web/lib/clipboard';
import type { CreatedToken } from './schema';
import { scopeSummary } from './scopes';

/** Spec §8 copy message of the token dialog. */
const TOKEN_COPIED = 'Token copied to clipboard';

/** The masked form shows a fixed length, so it says nothing about the token. */
const MASK = '•'.repeat(32);

export interface TokenCreatedDialogProps {
  token: CreatedToken;
  onClose: () => void;
}

/** Spec §2: the one-time token, masked until revealed, with copy and reveal controls and a warning. */
export function TokenCreatedDialog({ token, onClose }: TokenCreatedDialogProps) {
  const [revealed, setRevealed] = useState(false);
  const labelId = useId();
  return (
    <OneTimeSecretDialog
      title="Token Created Successfully"
      size="small"
      warning="Copy this token now. It cannot be seen again: once this dialog is closed, only a new token will do."
      onClose={onClose}
    >
      <div className="flex flex-col gap-1">
        <span id={labelId} className="text-sm font-medium text-slate-700">
          {token.name}
        </span>
        <div className="flex items-center gap-1 rounded-md border border-slate-300 bg-slate-50 py-1 pl-3 pr-1">
          <code aria-labelledby={labelId} data-testid="created-token" className="min-w-0 flex-1 break-all font-mono text-xs text-slate-900">
            {revealed ? token.token : MASK}
          </code>
          <IconButton
            label={revealed ? 'Hide token' : 'Reveal token'}
            aria-pressed={revealed}
            onClick={() => setRevealed((value) => !value)}
            icon={revealed ? <EyeOff className="size-4" aria-hidden="true" /> : <Eye className="size-4" aria-hidden="true" />}
          />
          <IconButton label="Copy token" onClick={() => void copyToClipboard(token.token, TOKEN_COPIED)} icon={<Copy className="size-4" aria-hidden="true" />} />
        </div>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Scopes</dt>
        <dd className="text-slate-800">{scopeSummary(token.scopes)}</dd>
        <dt className="text-slate-500">Expires</dt>
        <dd className="text-slate-800"><DateTime value={token.expires_at} empty="never" /></dd>
      </dl>
      <p className="text-xs text-slate-500">
        Send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code>, or as Basic authentication with the user <code className="font-mono">token</code>.
      </p>
    </OneTimeSecretDialog>
  );
}
