import { Copy } from 'lucide-react';
import { OneTimeSecretDialog } from '@web/ui/primitives/one-time-secret-dialog';
import { IconButton } from '@web/ui/primitives/icon-button';
import { copyToClipboard } from '@web/lib/clipboard';
import { mcpSnippets } from './mcp-snippets';
import type { CreatedToken } from './schema';
import { scopeSummary } from './scopes';

export interface McpSetupDialogProps {
  token: CreatedToken;
  /** The address clients reach this server at; the browser's own by default. */
  origin?: string;
  onClose: () => void;
}

/**
 * Spec §2 Setup MCP, after the token is created: the one-time token inside ready-to-paste configuration
 * for the common MCP clients, each with a copy button.
 */
export function McpSetupDialog({ token, origin = window.location.origin, onClose }: McpSetupDialogProps) {
  const snippets = mcpSnippets(origin, token.token);
  return (
    <OneTimeSecretDialog
      title="Connect an MCP client"
      size="large"
      warning="Copy this configuration now. The token in it cannot be seen again: once this dialog is closed, only a new token will do."
      onClose={onClose}
    >
      <p className="text-sm text-slate-700">
        Token <span className="font-medium">{token.name}</span> · {scopeSummary(token.scopes)}
      </p>
      {snippets.map((snippet) => (
        <section key={snippet.id} aria-label={snippet.label} className="flex flex-col gap-1">
          <div className="flex items-baseline justify-between gap-2">
            <h3 className="text-sm font-medium text-slate-800">{snippet.label}</h3>
            <span className="text-xs text-slate-500">{snippet.hint}</span>
          </div>
          <div className="flex items-start gap-1 rounded-md border border-slate-300 bg-slate-50 py-1 pl-3 pr-1">
            <pre data-testid={`mcp-snippet-${snippet.id}`} className="min-w-0 flex-1 overflow-x-auto whitespace-pre-wrap break-all py-1 font-mono text-xs text-slate-900">
              {snippet.text}
            </pre>
            <IconButton label={`Copy ${snippet.label}`} onClick={() => void copyToClipboard(snippet.text)} icon={<Copy className="size-4" aria-hidden="true" />} />
          </div>
        </section>
      ))}
    </OneTimeSecretDialog>
  );
}
