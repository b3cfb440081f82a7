import { useMemo } from 'react';
import { useParams } from 'react-router';
import NotFoundPage from '@web/app/pages/not-found-page';
import { ConfigPage } from '@web/features/catalog/components/config-page';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { useUrlVariables } from '../components/view-state';
import { useViewsForConfig } from '../api/view';
import { ViewContent } from '../view-content';

/** The tab's own variables (set from the item by the view's plugin) hold until the person picks others. */
function ConfigView({ configId, viewId }: { configId: string; viewId: string }) {
  const [selection, setSelection] = useUrlVariables([]);
  const tabs = useViewsForConfig(configId);
  const fromItem = tabs.data?.find((tab) => tab.id === viewId)?.variables;
  const variables = useMemo(() => ({ ...fromItem, ...selection }), [fromItem, selection]);
  if (tabs.isPending) return null;
  return <ViewContent viewId={viewId} variables={variables} onVariablesChange={setSelection} />;
}

/** /catalog/{id}/view/{viewId} (spec §2): a view shown as a tab of a catalog item (display.plugins). */
export default function ConfigViewPage() {
  const { id = '', viewId = '' } = useParams();
  const flags = useFeatureFlags();
  if (flags.ready && !flags.isEnabled('views')) return <NotFoundPage />;
  return <ConfigPage tab={`view:${viewId}`}>{() => <ConfigView configId={id} viewId={viewId} />}</ConfigPage>;
}
