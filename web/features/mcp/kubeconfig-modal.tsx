import { CircleHelp, Copy, Download, ExternalLink } from 'lucide-react';
import type { ReactNode } from 'react';
import { copyToClipboard } from '@web/lib/clipboard';
import { docsUrl } from '@web/lib/docs';
import { Button, buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import { Dialog } from '@web/ui/primitives/dialog';
import { IconButton } from '@web/ui/primitives/icon-button';
import { KUBECONFIG_PATH, KUBECTL_DOCS_PAGE, kubeconfigCommand, useKubeconfigFile } from './kubeconfig';

export interface KubeconfigModalProps {
  open: boolean;
  onClose: () => void;
}

const linkClass = 'inline-flex items-center gap-1 text-sm text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600';

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span aria-hidden="true" className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-blue-600 text-xs font-semibold text-white">
        {number}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <h3 className="text-sm font-medium text-slate-900">{title}</h3>
        {children}
      </div>
    </li>
  );
}

/**
 * Spec §2 kubeconfig modal 'Download and install kubeconfig': 1. download the file (a new tab on
 * /api/kubeconfig: the server's attachment header saves it), 2. the kubectl command that lists canaries
 * with the file named from the backend host (the name the server gives the download), 3. Learn more.
 * A Close button and a help link.
 */
export function KubeconfigModal({ open, onClose }: KubeconfigModalProps) {
  const { file, error } = useKubeconfigFile(open);
  const command = file ? kubeconfigCommand(file) : undefined;
  const docs = docsUrl(KUBECTL_DOCS_PAGE);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Download and install kubeconfig"
      size="small"
      footer={
        <>
          <a href={docs} target="_blank" rel="noopener noreferrer" className={cn(linkClass, 'mr-auto')}>
            <CircleHelp className="size-4" aria-hidden="true" />
            Help
          </a>
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <ol className="flex flex-col gap-5" aria-label="Steps">
        <Step number={1} title="Download the file">
          <p className="text-sm text-slate-600">
            {file ? <span className="font-mono text-slate-900">{file}</span> : 'The file'} holds a new API token that can do what you can. Keep it private; revoke it in
            Settings → Tokens.
          </p>
          <a href={KUBECONFIG_PATH} target="_blank" rel="noopener" className={cn(buttonBase, 'h-8 gap-1.5 self-start bg-blue-600 px-3 text-sm text-white shadow-sm hover:bg-blue-700')}>
            <Download className="size-4" aria-hidden="true" />
            Download kubeconfig
          </a>
        </Step>
        <Step number={2} title="Apply it with kubectl">
          <p className="text-sm text-slate-600">Once the file is in your Downloads folder, list the canaries:</p>
          {command ? (
            <div className="flex items-start gap-1 rounded-md border border-slate-300 bg-slate-50 py-1 pl-3 pr-1">
              <pre data-testid="kubeconfig-command" className="min-w-0 flex-1 overflow-x-auto whitespace-pre-wrap break-all py-1 font-mono text-xs text-slate-900">
                {command}
              </pre>
              <IconButton label="Copy command" onClick={() => void copyToClipboard(command)} icon={<Copy className="size-4" aria-hidden="true" />} />
            </div>
          ) : error ? (
            <div className="flex flex-col gap-1 text-sm">
              <p role="alert" className="text-red-700">
                Could not read the name of the downloaded file: {error.message}
              </p>
              <p className="text-slate-600">
                Use the name your browser saved it under: <code className="font-mono text-xs text-slate-900">KUBECONFIG=~/Downloads/&lt;file&gt; kubectl get canaries -A</code>
              </p>
            </div>
          ) : (
            <p className="text-sm text-slate-500">loading data...</p>
          )}
        </Step>
        <Step number={3} title="Learn more">
          <p className="text-sm text-slate-600">
            What kubectl can list, apply and delete here, and why it needs HTTPS.{' '}
            <a href={docs} target="_blank" rel="noopener noreferrer" className={linkClass}>
              Learn more
              <ExternalLink className="size-3.5" aria-hidden="true" />
            </a>
          </p>
        </Step>
      </ol>
    </Dialog>
  );
}
