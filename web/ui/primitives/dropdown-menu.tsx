import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

/**
 * Thin styling over Radix's menu, which brings roving focus, typeahead, Escape and focus return.
 * Compose: <DropdownMenu trigger={<IconButton …/>}> <DropdownMenuItem/> … </DropdownMenu>.
 */
export function DropdownMenu({
  trigger,
  children,
  align = 'end',
  side = 'bottom',
  contentClassName,
  label,
}: {
  trigger: ReactNode;
  children: ReactNode;
  align?: 'start' | 'center' | 'end';
  side?: 'top' | 'right' | 'bottom' | 'left';
  contentClassName?: string;
  /** Accessible name of the menu. */
  label?: string;
}) {
  return (
    <Menu.Root modal={false}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Menu.Portal>
        <Menu.Content
          align={align}
          side={side}
          sideOffset={6}
          aria-label={label}
          className={cn('z-50 min-w-48 rounded-lg border border-slate-200 bg-white p-1 text-sm text-slate-800 shadow-lg', contentClassName)}
        >
          {children}
        </Menu.Content>
      </Menu.Portal>
    </Menu.Root>
  );
}

const itemClass =
  'flex cursor-pointer select-none items-center gap-2 rounded-md px-2 py-1.5 outline-none data-[highlighted]:bg-slate-100 data-[disabled]:pointer-events-none data-[disabled]:opacity-50';

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return <Menu.Item className={cn(itemClass, className)} {...props} />;
}

/** A menu item that is a link (external links open in a new tab, safely). */
export function DropdownMenuLink({ href, children, external }: { href: string; children: ReactNode; external?: boolean }) {
  return (
    <Menu.Item asChild className={itemClass}>
      <a href={href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
        {children}
      </a>
    </Menu.Item>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500', className)} {...props} />;
}

export function DropdownMenuSeparator() {
  return <Menu.Separator className="my-1 h-px bg-slate-200" />;
}
