import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';
import { Tooltip } from './tooltip';

export interface IconButtonProps extends Omit<ComponentProps<'button'>, 'children'> {
  /** Accessible name, also shown as the tooltip: an icon alone says nothing to a screen reader. */
  label: string;
  icon: ReactNode;
  /** Hide the tooltip, e.g. when the button opens a menu that already names itself. */
  noTooltip?: boolean;
}

export function IconButton({ label, icon, noTooltip, className, type = 'button', ...props }: IconButtonProps) {
  const button = (
    <button
      type={type}
      aria-label={label}
      className={cn(
        'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:pointer-events-none disabled:opacity-50 data-[state=open]:bg-slate-100 data-[state=open]:text-slate-900',
        className,
      )}
      {...props}
    >
      {icon}
    </button>
  );
  return noTooltip ? button : <Tooltip content={label}>{button}</Tooltip>;
}
