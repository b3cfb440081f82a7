import { isAdmin } from '@common/rbac';
import { Bot, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSession } from '@web/app/session';
import { DataTable } from '@web/ui/data-table';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { QueryPage } from '@web/ui/query-page';
import { patchSearchParams, readSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { useAuthMode } from '@web/features/identity/auth-mode';
import { tokenColumns } from './columns';
import { CreateTokenDialog } from './create-token-dialog';
import { useDeleteToken, useTokens } from './queries';
import type { Token } from './schema';

export default function TokensPage() {
  const session = useSession();
  const user = session.status === 'ready' ? session.user : undefined;
  const admin = user ? isAdmin(user.roles) : false;
  const tokens = useTokens();
  const remove = useDeleteToken();
  const [deleting, setDeleting] = useState<Token | null>(null);
  // The create dialog is in the URL (a link can open it); the one-time token never is.
  const [params, setParams] = useUrlParams();
  const dialog = readSearchParams(params).dialog;
  const creating = dialog === 'create' || dialog === 'mcp' ? dialog : undefined;
  const setCreating = (open: 'create' | 'mcp' | false) => setParams((current) => patchSearchParams(current, { dialog: open || undefined }));
  // Hosted mode (docs/HOSTED.md "API tokens in hosted mode"): each token works in one organization.
  const hosted = useAuthMode().data?.mode === 'oidc';
  const columns = useMemo(() => tokenColumns({ showOwner: admin, showOrganization: hosted, onDelete: setDeleting }), [admin, hosted]);

  return (
    <QueryPage
      title="Tokens"
      query={tokens}
      extra={
        <div className="ml-auto flex items-center gap-2">
          <Button size="sm" onClick={() => setCreating('mcp')}>
            <Bot className="size-4" aria-hidden="true" />
            Setup MCP
          </Button>
          <Button variant="primary" size="sm" onClick={() => setCreating('create')}>
            <Plus className="size-4" aria-hidden="true" />
            Create new token
          </Button>
        </div>
      }
    >
      <DataTable aria-label="API tokens" data={tokens.data ?? []} columns={columns} getRowId={(token) => token.id} isLoading={tokens.isLoading} />
      {creating ? <CreateTokenDialog key={creating} mode={creating === 'mcp' ? 'mcp' : 'default'} onClose={() => setCreating(false)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete token"
        description={deleting ? `Are you sure you want to delete ${deleting.name}? Anything that uses it is refused from now on.` : ''}
        busy={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting, { onSuccess: () => setDeleting(null) });
        }}
      />
    </QueryPage>
  );
}
