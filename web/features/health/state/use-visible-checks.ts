import { useMemo, useState } from 'react';
import { useAgentNames } from '../api/agents';
import type { CheckSummary } from '../api/schema';
import { ALL_TAB, groupByOptions, LOCAL_AGENT_ID, tabByOptions, tabsFor, tabValueFn, type Tab } from './checks';
import { labelFilterPredicate, labelOptions, type LabelFilterEntry } from './labels';
import { pivotDimensions } from './pivot';

const NO_CHECKS: CheckSummary[] = [];

/**
 * From the server's checks to what the page shows, each step memoised on its own inputs: the label
 * filter (in the browser, so the options stay those of every check), the tabs with their counts, and
 * the selected tab's checks. A tab that disappears falls back to 'All'.
 */
export function useVisibleChecks(checks: CheckSummary[] | undefined, labels: readonly LabelFilterEntry[], tabBy: string) {
  const all = checks ?? NO_CHECKS;
  const options = useMemo(() => labelOptions(all), [all]);
  const labelKeys = useMemo(() => options.map((option) => option.key), [options]);
  const filtered = useMemo(() => {
    if (labels.length === 0) return all;
    const pass = labelFilterPredicate(labels);
    return all.filter((check) => pass(check.labels));
  }, [all, labels]);

  const agentIds = useMemo(() => (tabBy === 'agent_id' ? filtered.map((check) => check.agent_id).filter((id) => id !== LOCAL_AGENT_ID) : []), [filtered, tabBy]);
  const agentNames = useAgentNames(agentIds, tabBy === 'agent_id');
  const tabs = useMemo(() => {
    const valueOf = tabValueFn(tabBy);
    const counts = new Map<string, number>();
    for (const check of filtered) {
      const value = valueOf(check);
      if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    return tabsFor(tabBy, filtered, agentNames).map((tab: Tab) => ({ ...tab, count: tab.value === ALL_TAB.value ? filtered.length : (counts.get(tab.value) ?? 0) }));
  }, [filtered, tabBy, agentNames]);

  // The selected tab is not one of spec §2's URL parameters; it lasts while the page is open.
  const [selected, setSelected] = useState<{ tabBy: string; value: string }>({ tabBy, value: ALL_TAB.value });
  const wanted = selected.tabBy === tabBy ? selected.value : ALL_TAB.value;
  const tab = tabs.some((candidate) => candidate.value === wanted) ? wanted : ALL_TAB.value;
  const visible = useMemo(() => {
    if (tab === ALL_TAB.value) return filtered;
    const valueOf = tabValueFn(tabBy);
    return filtered.filter((check) => valueOf(check) === tab);
  }, [filtered, tab, tabBy]);

  const groupOptions = useMemo(() => groupByOptions(labelKeys), [labelKeys]);
  return {
    labelOptions: options,
    groupByOptions: groupOptions,
    tabByOptions: useMemo(() => tabByOptions(labelKeys), [labelKeys]),
    pivotDimensions: useMemo(() => pivotDimensions(groupOptions), [groupOptions]),
    tabs,
    tab,
    setTab: (value: string) => setSelected({ tabBy, value }),
    visible,
  };
}
