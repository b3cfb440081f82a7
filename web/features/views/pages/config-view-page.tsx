import { useParams } from 'react-router';
import NotFoundPage from '@web/app/pages/not-found-page';
import { ConfigPage } from '@web/features/catalog/components';
import { useFeatureFlags } from '@web/lib/feature-flags';
import { useUrlVariables } from '../components/view-state';
import { ViewContent } from '../view-content';

function ConfigView({ viewId }: { viewId: string }) {
  const [selection, setSelection] = useUrlVariables([]);
  return <ViewContent viewId={viewId} variables={selection} onVariablesChange={setSelection} />;
}

/** /catalog/{id}/view/{viewId} (spec §2): a view shown as a tab of a catalog item (display.plugins). */
export default function ConfigViewPage() {
  const { viewId = '' } = useParams();
  const flags = useFeatureFlags();
  if (flags.ready && !flags.isEnabled('views')) return <NotFoundPage />;
  return <ConfigPage tab={`view:${viewId}`}>{() => <ConfigView viewId={viewId} />}</ConfigPage>;
}
