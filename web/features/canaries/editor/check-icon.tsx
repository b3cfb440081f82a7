import {
  Activity,
  BookOpen,
  BookUser,
  CircleCheck,
  Cylinder,
  Database,
  DatabaseZap,
  FileCheck,
  FlaskConical,
  Flame,
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
 * The lucide icons check types name in GET /api/canary/about. A static map, so the editor's chunk holds
 * a handful of icons rather than the whole set; an unknown name gets a generic check mark.
 */
const ICONS: Readonly<Record<string, LucideIcon>> = {
  activity: Activity,
  'book-open': BookOpen,
  'book-user': BookUser,
  cylinder: Cylinder,
  database: Database,
  'database-zap': DatabaseZap,
  'file-check': FileCheck,
  flame: Flame,
  'flask-conical': FlaskConical,
  folder: Folder,
  globe: Globe,
  lock: Lock,
  network: Network,
  radar: Radar,
  server: Server,
  'shield-check': ShieldCheck,
  terminal: Terminal,
  webhook: Webhook,
};

export function CheckIcon({ name, className }: { name: string; className?: string }) {
  const Icon = Object.hasOwn(ICONS, name) ? (ICONS[name] ?? CircleCheck) : CircleCheck;
  return <Icon className={className} aria-hidden="true" />;
}
