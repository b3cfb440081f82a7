import {
  Activity,
  BookOpen,
  BookUser,
  Container,
  Database,
  DatabaseZap,
  FileCheck,
  FileText,
  Flame,
  GitBranch,
  FlaskConical,
  Folder,
  Globe,
  Lock,
  Network,
  Radar,
  Server,
  ShieldCheck,
  Terminal,
  Webhook,
  type LucideIcon,
} from 'lucide-react';

/**
 * Icons of the check and scraper types, by the icon names GET /api/canary/about gives and by type, plus
 * a few names canary-checker specs use for `icon`. A static map, so a chunk holds a handful of icons
 * rather than the whole set; anything else gets a generic pulse.
 */
const ICONS: Readonly<Record<string, LucideIcon>> = {
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
  lock: Lock,
  ldap: BookUser,
  'book-user': BookUser,
  postgres: Database,
  mysql: Database,
  mssql: Database,
  mongodb: Database,
  sql: Database,
  database: Database,
  cylinder: Database,
  redis: DatabaseZap,
  'database-zap': DatabaseZap,
  prometheus: Flame,
  flame: Flame,
  junit: FlaskConical,
  'flask-conical': FlaskConical,
  'file-check': FileCheck,
  folder: Folder,
  file: FileText,
  'file-text': FileText,
  git: GitBranch,
  'git-branch': GitBranch,
  kubernetesfile: Container,
  webhook: Webhook,
  kubernetes: Container,
  pod: Container,
  docker: Container,
  server: Server,
  activity: Activity,
};

function iconFor(name: string | null | undefined): LucideIcon | undefined {
  if (!name) return undefined;
  const key = name.toLowerCase();
  return Object.hasOwn(ICONS, key) ? ICONS[key] : undefined;
}

/** A check's icon: its own `icon` when known, else its type's, else a pulse. */
export function CheckIcon({ icon, type, className = 'size-4 text-slate-500' }: { icon: string | null | undefined; type?: string; className?: string }) {
  const Icon = iconFor(icon) ?? iconFor(type) ?? Activity;
  return <Icon className={`${className} shrink-0`} aria-hidden="true" />;
}
