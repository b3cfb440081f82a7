import { BookOpen, ExternalLink } from 'lucide-react';
import { DOC_PAGES, docsUrl } from '@web/lib/docs';
import { DropdownMenu, DropdownMenuLink } from '@web/ui/primitives/dropdown-menu';
import { IconButton } from '@web/ui/primitives/icon-button';

/** Spec §2 Docs menu: the documentation of this version, and this server's own API description. */
export function DocsMenu() {
  return (
    <DropdownMenu label="Docs" trigger={<IconButton label="Docs" icon={<BookOpen className="size-4" aria-hidden="true" />} />}>
      {DOC_PAGES.map(({ page, label }) => (
        <DropdownMenuLink key={page} href={docsUrl(page)} external>
          <span className="flex-1">{label}</span>
          <ExternalLink className="size-3.5 text-slate-400" aria-hidden="true" />
        </DropdownMenuLink>
      ))}
      <DropdownMenuLink href="/api/openapi.json" external>
        <span className="flex-1">OpenAPI description</span>
        <ExternalLink className="size-3.5 text-slate-400" aria-hidden="true" />
      </DropdownMenuLink>
    </DropdownMenu>
  );
}
