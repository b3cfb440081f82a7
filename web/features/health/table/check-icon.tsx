import {
  Activity,
  BookOpen,
  BookUser,
  Container,
  Database,
  DatabaseZap,
  Flame,
  FlaskConical,
  Folder,
  Globe,
  Network,
  Radar,
  Server,
  ShieldCheck,
  Terminal,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

/**
 * Icons of the check types (the ones /api/canary/about names, by type and by icon name), plus a few
 * names canary-checker specs use for `icon`. Anything else gets a generic pulse.
 */
const ICONS: Record<string, LucideIcon> = {
  http: Globe,
  https: Globe,
  globe: Globe,
  dns: BookOpen,
  'book-open': BookOpen,
  tcp: Network,
  network: Network,
  icmp: Radar,
  ping: Radar,
  radar: Radar,
  exec: Terminal,
  bash: Terminal,
  terminal: Terminal,
  tls: ShieldCheck,
  'shield-check': ShieldCheck,
  ldap: BookUser,
  'book-user': BookUser,
  postgres: Database,
  mysql: Database,
  mssql: Database,
  mongodb: Database,
  sql: Database,
  database: Database,
  redis: DatabaseZap,
  'database-zap': DatabaseZap,
  prometheus: Flame,
  flame: Flame,
  junit: FlaskConical,
  'flask-conical': FlaskConical,
  folder: Folder,
  webhook: Webhook,
  kubernetes: Container,
  pod: Container,
  docker: Container,
  server: Server,
};

function iconFor(name: string | null | undefined): LucideIcon | undefined {
  if (!name) return undefined;
  const key = name.toLowerCase();
  return Object.hasOwn(ICONS, key) ? ICONS[key] : undefined;
}

export function CheckIcon({ icon, type, className = 'size-4' }: { icon: string | null; type: string; className?: string }) {
  const Icon = iconFor(icon) ?? iconFor(type) ?? Activity;
  return <Icon className={`${className} shrink-0 text-slate-500`} aria-hidden="true" />;
}
