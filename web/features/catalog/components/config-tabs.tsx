import { Link } from 'react-router';
import { useAccess } from '@web/app/session';
import { ConfigViewTabs } from '@web/features/views/components/config-view-tabs';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { cn } from '@web/ui/primitives/cn';
import type { ConfigDetail } from '../api/schema';
import { configHref } from './config-link';
import { hasPage } from './has-page';

/** `view:{id}`: a view shown as a tab of the item (web/features/views, /catalog/{id}/view/{viewId}). */
export type ConfigTabId = 'spec' | 'changes' | 'insights' | 'relationships' | 'playbooks' | 'checks' | 'notifications' | `view:${string}`;

interface TabDef {
  id: ConfigTabId;
  label: string;
  /** Path after /catalog/{id}. */
  suffix: string;
  /** The tab's count from config_detail.summary. */
  count?: (summary: NonNullable<ConfigDetail['summary']>) => number;
}

/** Spec §2 catalog-scoped pages, in order (insights, relationships, playbooks, checks). */
const TABS: readonly TabDef[] = [
  { id: 'spec', label: 'Spec', suffix: '' },
  { id: 'changes', label: 'Changes', suffix: '/changes', count: (summary) => summary.changes },
  { id: 'insights', label: 'Insights', suffix: '/insights', count: (summary) => summary.analysis },
  { id: 'relationships', label: 'Relationships', suffix: '/relationships', count: (summary) => summary.relationships },
  { id: 'playbooks', label: 'Playbooks', suffix: '/playbooks' },
  { id: 'checks', label: 'Checks', suffix: '/checks', count: (summary) => summary.checks },
  { id: 'notifications', label: 'Notifications', suffix: '/notifications' },
];

/** The tabs this person has: a tab whose page is not in this build, or that needs access they lack, is left out. */
export function useConfigTabs(): readonly TabDef[] {
  const { can } = useAccess();
  const flags = useFeatureFlags();
  return TABS.filter((tab) => {
    if (tab.id === 'changes') return hasPage('catalog/:id/changes');
    // Checks are health's: reading them needs canaries (check_summary_for_config).
    if (tab.id === 'checks') return can('canaries', 'read');
    // The playbooks feature's page (web/features/playbooks/routes.ts): runs on the item need playbook_runs.
    if (tab.id === 'playbooks') return hasPage('catalog/:id/playbooks') && flags.isEnabled('playbooks') && can('playbook_runs', 'read');
    // The notifications feature's page (web/features/notifications/routes.ts).
    if (tab.id === 'notifications') return hasPage('catalog/:id/notifications') && flags.isEnabled('notifications') && can('notifications', 'read');
    return true;
  });
}

const tabClass = (current: boolean) =>
  cn(
    '-mb-px inline-flex shrink-0 items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600',
    current ? 'border-blue-600 text-blue-700' : 'border-transparent text-slate-600 hover:text-slate-900',
  );

export const configTabHref = (id: string, tab: ConfigTabId) => `${configHref(id)}${TABS.find((t) => t.id === tab)?.suffix ?? ''}`;

/**
 * The item's pages as links (each tab is its own URL, so a tab can be bookmarked and the back button
 * works); the current one is marked `aria-current="page"`. Counts come from config_detail.summary.
 */
export function ConfigTabs({ config, active }: { config: Pick<ConfigDetail, 'id' | 'summary'>; active: ConfigTabId }) {
  const tabs = useConfigTabs();
  return (
    <nav aria-label="Config sections" className="flex gap-1 overflow-x-auto border-b border-slate-200">
      {tabs.map((tab) => {
        const count = config.summary && tab.count ? tab.count(config.summary) : undefined;
        const current = tab.id === active;
        return (
          <Link
            key={tab.id}
            to={`${configHref(config.id)}${tab.suffix}`}
            aria-current={current ? 'page' : undefined}
            className={tabClass(current)}
          >
            {tab.label}
            {count !== undefined && count > 0 ? (
              <span className="rounded-full bg-slate-100 px-1.5 text-xs font-medium tabular-nums text-slate-600">{count}</span>
            ) : null}
          </Link>
        );
      })}
      {hasPage('catalog/:id/view/:viewId') ? <ConfigViewTabs configId={config.id} active={active} tabClass={tabClass} /> : null}
    </nav>
  );
}
