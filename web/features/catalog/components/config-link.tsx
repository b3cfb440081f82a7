import { Link } from 'react-router';
import { cn } from '@web/ui/primitives/cn';
import { ConfigHealthDot } from './config-health';
import { ConfigIcon } from './config-icon';
import type { ConfigHealth } from '../api/schema';

export const configHref = (id: string) => `/catalog/${encodeURIComponent(id)}`;

/** What a link shows when an item has no name: its type, so the link never reads empty. */
export function configName(config: { name: string | null; type: string }): string {
  return config.name?.trim() || config.type;
}

export interface ConfigLinkProps {
  config: { id: string; name: string | null; type: string; health?: ConfigHealth | null; deleted_at?: string | null };
  /** Show the health dot before the name. */
  showHealth?: boolean;
  className?: string;
  onClick?: (event: { stopPropagation: () => void }) => void;
}

/** An item as a link to /catalog/{id}: type icon, (health), name; deleted items are struck through. */
export function ConfigLink({ config, showHealth = false, className, onClick }: ConfigLinkProps) {
  const deleted = Boolean(config.deleted_at);
  return (
    <Link
      to={configHref(config.id)}
      onClick={onClick}
      title={`${config.type}: ${configName(config)}${deleted ? ' (deleted)' : ''}`}
      className={cn('inline-flex min-w-0 items-center gap-1.5 text-blue-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600', className)}
    >
      <ConfigIcon type={config.type} />
      {showHealth ? <ConfigHealthDot health={config.health} /> : null}
      <span className={cn('truncate', deleted && 'text-slate-500 line-through')}>{configName(config)}</span>
    </Link>
  );
}
