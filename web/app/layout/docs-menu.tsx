import { BookOpen, ExternalLink } from 'lucide-react';
import { docsUrl } from '@web/lib/docs';
import { DropdownMenu, DropdownMenuLink } from '@web/ui/primitives/dropdown-menu';
import { IconButton } from '@web/ui/primitives/icon-button';

/** Spec §2 Docs menu: the external documentation, and this server's own API description. */
export function DocsMenu() {
  return (
    <DropdownMenu label="Docs" trigger={<IconButton label="Docs" icon={<BookOpen className="size-4" aria-hidden="true" />} />}>
      <DropdownMenuLink href={docsUrl()} external>
        <span className="flex-1">Documentation</span>
        <ExternalLink className="size-3.5 text-slate-400" aria-hidden="true" />
      </DropdownMenuLink>
      <DropdownMenuLink href="/api/openapi.json" external>
        <span className="flex-1">HTTP API (OpenAPI)</span>
        <ExternalLink className="size-3.5 text-slate-400" aria-hidden="true" />
      </DropdownMenuLink>
    </DropdownMenu>
  );
}
