import { useQuery } from '@tanstack/react-query';
import {
  Activity,
  Archive,
  BarChart3,
  Bell,
  Box,
  Boxes,
  Calendar,
  Cloud,
  Container,
  Cpu,
  Database,
  FileText,
  Folder,
  Gauge,
  GitBranch,
  Globe,
  HardDrive,
  HeartPulse,
  KeyRound,
  Layers,
  LayoutDashboard,
  List,
  Lock,
  Network,
  PieChart,
  Rocket,
  Server,
  Shield,
  Table2,
  Users,
  Workflow,
  type LucideIcon,
} from 'lucide-react';
import { LOOKUP_STALE_TIME_MS } from '@common/constants';
import { db } from '@web/lib/db';
import { list, optionalNumber, optionalText, record, text } from '@web/lib/shape';
import type { NavItem } from './sidebar-nav';

/**
 * Icons a view's `display.icon` may name: lucide names (kebab-case) and the Mission Control names used by
 * its fixtures (pod, kubernetes…). A static map, so the chunk holds a handful of icons; any other name
 * gets the table mark.
 */
const VIEW_ICONS: Readonly<Record<string, LucideIcon>> = {
  activity: Activity,
  archive: Archive,
  backup: Archive,
  'bar-chart': BarChart3,
  'bar-chart-3': BarChart3,
  'chart-bar': BarChart3,
  bell: Bell,
  box: Box,
  boxes: Boxes,
  calendar: Calendar,
  cronjob: Calendar,
  cloud: Cloud,
  aws: Cloud,
  azure: Cloud,
  gcp: Cloud,
  container: Container,
  docker: Container,
  kubernetes: Container,
  k8s: Container,
  pod: Box,
  cpu: Cpu,
  database: Database,
  postgres: Database,
  sql: Database,
  'file-text': FileText,
  file: FileText,
  folder: Folder,
  namespace: Folder,
  gauge: Gauge,
  'git-branch': GitBranch,
  git: GitBranch,
  flux: GitBranch,
  globe: Globe,
  http: Globe,
  ingress: Globe,
  'hard-drive': HardDrive,
  disk: HardDrive,
  health: HeartPulse,
  'heart-pulse': HeartPulse,
  'key-round': KeyRound,
  key: KeyRound,
  secret: KeyRound,
  layers: Layers,
  deployment: Layers,
  'layout-dashboard': LayoutDashboard,
  dashboard: LayoutDashboard,
  list: List,
  lock: Lock,
  network: Network,
  service: Network,
  'pie-chart': PieChart,
  'chart-pie': PieChart,
  rocket: Rocket,
  release: Rocket,
  server: Server,
  node: Server,
  shield: Shield,
  security: Shield,
  table: Table2,
  'table-2': Table2,
  view: Table2,
  users: Users,
  team: Users,
  workflow: Workflow,
  pipeline: Workflow,
  playbook: Workflow,
};

/** The icon of a view: its `display.icon` when known (case-insensitive, 'lucide:' prefix allowed), else a table. */
export function viewIcon(name: string | null | undefined): LucideIcon {
  const key = (name ?? '').trim().toLowerCase().replace(/^lucide[:-]/, '');
  return Object.hasOwn(VIEW_ICONS, key) ? (VIEW_ICONS[key] ?? Table2) : Table2;
}

export const sidebarViewsKey = ['views', 'sidebar'] as const;

export interface SidebarView {
  id: string;
  name: string;
  title?: string | null | undefined;
  icon?: string | null | undefined;
  ordinal?: number | null | undefined;
}

/** Reads views_summary rows (the sidebar is in the shell: no zod here, web/lib/shape.ts). */
export function parseSidebarViews(data: unknown): SidebarView[] {
  return list(data, 'views').map((row, index) => {
    const view = record(row, `views[${index}]`);
    const where = `views[${index}]`;
    return { id: text(view, 'id', where), name: text(view, 'name', where), title: optionalText(view, 'title', where), icon: optionalText(view, 'icon', where), ordinal: optionalNumber(view, 'ordinal', where) };
  });
}

const labelOf = (view: SidebarView) => view.title?.trim() || view.name;

/** Spec §2 main sidebar: views flagged for it, by `ordinal` (unnumbered last) then title, each linking /views/{id}. */
export function viewNavItems(views: readonly SidebarView[]): NavItem[] {
  return [...views]
    .sort((a, b) => (a.ordinal ?? Number.MAX_SAFE_INTEGER) - (b.ordinal ?? Number.MAX_SAFE_INTEGER) || labelOf(a).localeCompare(labelOf(b), 'en', { sensitivity: 'base' }))
    .map((view) => ({ label: labelOf(view), to: `/views/${encodeURIComponent(view.id)}`, icon: viewIcon(view.icon) }));
}

/** How many sidebar views are read: a sidebar is not a list page. */
const SIDEBAR_VIEWS_LIMIT = 100;

/**
 * The sidebar's view entries (spec §9: cached 5 minutes). `enabled` is false when the 'views' feature is
 * off or the person may not read views; a failed read leaves the sidebar without them rather than broken.
 */
export function useSidebarViews(enabled: boolean): NavItem[] {
  const query = useQuery({
    queryKey: sidebarViewsKey,
    enabled,
    staleTime: LOOKUP_STALE_TIME_MS,
    retry: false,
    queryFn: async ({ signal }) => {
      const { data, error } = await db.from('views_summary').select('id,name,title,icon,ordinal').eq('sidebar', true).order('ordinal', { nullsFirst: false }).limit(SIDEBAR_VIEWS_LIMIT).abortSignal(signal);
      if (error) throw new Error(error.message, { cause: error });
      return viewNavItems(parseSidebarViews(data ?? []));
    },
  });
  return enabled ? (query.data ?? []) : [];
}
