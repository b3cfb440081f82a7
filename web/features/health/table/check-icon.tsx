import { Activity, Cable, Container, Database, Globe, Radio, Server, Terminal, type LucideIcon } from 'lucide-react';

/** One icon per family of check (the check's own `icon` first, its type otherwise). */
const ICONS: Record<string, LucideIcon> = {
  http: Globe,
  https: Globe,
  dns: Globe,
  tcp: Cable,
  icmp: Radio,
  ping: Radio,
  exec: Terminal,
  bash: Terminal,
  postgres: Database,
  mysql: Database,
  mssql: Database,
  mongodb: Database,
  redis: Database,
  sql: Database,
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
