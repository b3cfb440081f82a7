import {
  Activity,
  Archive,
  Boxes,
  Clock,
  CreditCard,
  Database,
  Globe,
  HeartPulse,
  Server,
  Store,
  Table2,
  type LucideIcon,
} from 'lucide-react';
import { ConfigIcon } from '@web/features/catalog/components';

/** Icons a topology names (spec `icon: store`), beside the catalog's icons by type. */
const BY_NAME: Readonly<Record<string, LucideIcon>> = {
  activity: Activity,
  archive: Archive,
  clock: Clock,
  'credit-card': CreditCard,
  database: Database,
  globe: Globe,
  'heart-pulse': HeartPulse,
  server: Server,
  store: Store,
  table: Table2,
};

/** The component's icon: the one its spec names, else the catalog's for its type, else boxes. */
export function ComponentIcon({ icon, type, className = 'size-4 text-slate-500' }: { icon: string | null; type: string | null; className?: string }) {
  const Named = icon ? BY_NAME[icon.toLowerCase()] : undefined;
  if (Named) return <Named className={className} aria-hidden="true" />;
  if (type || icon) return <ConfigIcon type={type || icon || ''} className={className} />;
  return <Boxes className={className} aria-hidden="true" />;
}
