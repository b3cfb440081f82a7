import {
  Box,
  Boxes,
  CalendarClock,
  Cloud,
  Container,
  Copy,
  Cpu,
  Database,
  FileCog,
  FileText,
  Folder,
  GitBranch,
  Globe,
  HardDrive,
  KeyRound,
  Layers,
  Network,
  Play,
  Route,
  Server,
  Shield,
  Table2,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { cn } from '@web/ui/primitives/cn';

/**
 * Icons of config types such as `Kubernetes::Deployment`: by the kind after the last `::`, else by the
 * family before the first, else a box. A static map, so the chunk holds a handful of icons.
 */
const BY_KIND: Readonly<Record<string, LucideIcon>> = {
  pod: Box,
  deployment: Layers,
  replicaset: Copy,
  statefulset: Database,
  daemonset: Boxes,
  job: Play,
  cronjob: CalendarClock,
  namespace: Folder,
  node: Server,
  service: Network,
  ingress: Globe,
  route: Route,
  configmap: FileCog,
  secret: KeyRound,
  persistentvolume: HardDrive,
  persistentvolumeclaim: HardDrive,
  serviceaccount: Users,
  role: Shield,
  rolebinding: Shield,
  clusterrole: Shield,
  clusterrolebinding: Shield,
  table: Table2,
  view: Table2,
  database: Database,
  host: Server,
  instance: Cpu,
  file: FileText,
  repository: GitBranch,
};

const BY_FAMILY: Readonly<Record<string, LucideIcon>> = {
  kubernetes: Container,
  aws: Cloud,
  azure: Cloud,
  gcp: Cloud,
  postgres: Database,
  postgresql: Database,
  mysql: Database,
  mssql: Database,
  sql: Database,
  file: FileText,
  git: GitBranch,
};

function lookup(map: Readonly<Record<string, LucideIcon>>, key: string | undefined): LucideIcon | undefined {
  if (!key) return undefined;
  const normal = key.toLowerCase();
  return Object.hasOwn(map, normal) ? map[normal] : undefined;
}

export function configIconFor(type: string | null | undefined): LucideIcon {
  const parts = (type ?? '').split('::');
  return lookup(BY_KIND, parts.at(-1)) ?? lookup(BY_FAMILY, parts[0]) ?? Box;
}

/** The icon of a config type; decorative (the type is always written next to it or in its label). */
export function ConfigIcon({ type, className }: { type: string | null | undefined; className?: string }) {
  const Icon = configIconFor(type);
  return <Icon className={cn('size-4 shrink-0 text-slate-500', className)} aria-hidden="true" />;
}
