import { formatDate } from '@common/format/date';
import { formatDuration } from '@common/format/duration';
import { Copy } from 'lucide-react';
import { useId } from 'react';
import { copyToClipboard } from '@web/lib/clipboard';
import { OneTimeSecretDialog } from '@web/ui/primitives/one-time-secret-dialog';
import { IconButton } from '@web/ui/primitives/icon-button';
import type { GeneratedAgent } from './schema';

/** A block of text to paste elsewhere, with its copy button. */
function CopyBlock({ label, value, copied }: { label: string; value: string; copied: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <div className="flex items-center justify-between gap-2">
        <span id={id} className="text-sm font-medium text-slate-700">
          {label}
        </span>
        <IconButton label={`Copy ${label.toLowerCase()}`} onClick={() => void copyToClipboard(value, copied)} icon={<Copy className="size-4" aria-hidden="true" />} />
      </div>
      <pre aria-labelledby={id} className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-xs text-slate-900">
        {value}
      </pre>
    </div>
  );
}

/**
 * The agent's start instructions, shown once: the command line and the Helm values hold its new token,
 * which cannot be read again (like the 'Token Created Successfully' dialog of spec §2).
 */
export function AgentCreatedDialog({ agent, onClose }: { agent: GeneratedAgent; onClose: () => void }) {
  return (
    <OneTimeSecretDialog
      title={`Agent ${agent.name} is ready to start`}
      size="medium"
      warning="Copy these now. They hold the agent's token, which cannot be seen again: once this dialog is closed, only a new token will do (Add agent with the same name)."
      onClose={onClose}
    >
      {agent.previousTokenValidUntil ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This replaces the agent&apos;s earlier token, which keeps working until {formatDate(agent.previousTokenValidUntil, 'timestamp')}
          {agent.previousTokenGraceSeconds !== undefined ? ` (${formatDuration(agent.previousTokenGraceSeconds * 1000) || 'now'})` : ''} and is refused after that: give the
          running agent the new token before then.
        </p>
      ) : null}
      <CopyBlock label="Command line" value={agent.command} copied="Command copied to clipboard" />
      <CopyBlock label="Helm values" value={agent.helm_values} copied="Helm values copied to clipboard" />
      <p className="text-xs text-slate-500">
        The agent shows as online here once its first heartbeat arrives. Its token is listed in Settings → Tokens as <code className="font-mono">agent-{agent.name}</code>.
      </p>
    </OneTimeSecretDialog>
  );
}
