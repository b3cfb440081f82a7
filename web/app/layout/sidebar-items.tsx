import { ChevronRight, Settings } from 'lucide-react';
import { useState } from 'react';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { cn } from '@web/ui/primitives/cn';
import { DropdownMenu, DropdownMenuItem, DropdownMenuLabel } from '@web/ui/primitives/dropdown-menu';
import { Tooltip } from '@web/ui/primitives/tooltip';
import type { NavItem } from './sidebar-nav';

const itemClass = (active: boolean, collapsed: boolean) =>
  cn(
    'flex h-9 items-center gap-3 rounded-md text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-600',
    collapsed ? 'w-10 justify-center' : 'px-2.5',
    active ? 'bg-blue-50 text-blue-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  );

export function SidebarLink({ item, collapsed, nested }: { item: NavItem; collapsed: boolean; nested?: boolean }) {
  const Icon = item.icon;
  const link = (
    <NavLink to={item.to} className={({ isActive }) => cn(itemClass(isActive, collapsed), nested && !collapsed && 'pl-9 font-normal')}>
      {nested ? null : <Icon className="size-[18px] shrink-0" />}
      <span className={cn('truncate', collapsed && 'sr-only')}>{item.label}</span>
    </NavLink>
  );
  return <li>{collapsed ? <Tooltip content={item.label} side="right">{link}</Tooltip> : link}</li>;
}

/**
 * The Settings submenu (spec §2, items sorted by label). Expanded: an inline disclosure, open while a
 * settings page is shown. Collapsed: a menu that opens to the right of the icon.
 */
export function SettingsGroup({ items, collapsed }: { items: NavItem[]; collapsed: boolean }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const inSettings = pathname === '/settings' || pathname.startsWith('/settings/');
  const [open, setOpen] = useState(inSettings);
  // Arriving on a settings page (a link, the '/' redirect) opens the group; leaving does not close it.
  const [wasInSettings, setWasInSettings] = useState(inSettings);
  if (inSettings !== wasInSettings) {
    setWasInSettings(inSettings);
    if (inSettings) setOpen(true);
  }
  if (collapsed) {
    return (
      <li>
        <DropdownMenu
          side="right"
          align="start"
          label="Settings"
          trigger={
            <button type="button" aria-label="Settings" className={itemClass(inSettings, true)}>
              <Settings className="size-[18px]" aria-hidden="true" />
            </button>
          }
        >
          <DropdownMenuLabel>Settings</DropdownMenuLabel>
          {items.map((item) => (
            <DropdownMenuItem
              key={item.to}
              onSelect={() => void navigate(item.to)}
              aria-current={pathname === item.to ? 'page' : undefined}
              className="aria-[current=page]:font-medium aria-[current=page]:text-blue-700"
            >
              {item.label}
            </DropdownMenuItem>
          ))}
        </DropdownMenu>
      </li>
    );
  }
  return (
    <li>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)} className={cn(itemClass(false, false), 'w-full', inSettings && 'text-slate-900')}>
        <Settings className="size-[18px] shrink-0" aria-hidden="true" />
        <span className="flex-1 text-left">Settings</span>
        <ChevronRight className={cn('size-4 text-slate-400 transition-transform', open && 'rotate-90')} aria-hidden="true" />
      </button>
      {open ? (
        <ul aria-label="Settings" className="mt-0.5 flex flex-col gap-0.5">
          {items.map((item) => (
            <SidebarLink key={item.to} item={item} collapsed={false} nested />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
