import { Page } from '@web/app/layout/page';
import { useViewAnswer } from '../api/view';
import { useTableStateReader, useUrlVariables } from '../components/view-state';
import { ViewContent } from '../view-content';

/**
 * A view as a whole page: the title in the top bar, its variables in the URL. The top bar has no refresh
 * button of its own: the view's Refresh (which re-runs its queries) is the one.
 */
export function ViewFrame({ viewId }: { viewId: string }) {
  // Plain (Mission Control style) keys are read as variables once the view says which keys it has.
  const [probe] = useUrlVariables([]);
  // The same reader as ViewContent's: whichever asks first, the rows follow the answer at once.
  const first = useViewAnswer(viewId, probe, useTableStateReader(false));
  const keys = first.data?.variables.map((v) => v.key) ?? [];
  const [selection, setSelection] = useUrlVariables(keys);
  const title = first.data ? first.data.title || first.data.name : 'View';
  return (
    <Page title={title}>
      <ViewContent viewId={viewId} variables={selection} onVariablesChange={setSelection} />
    </Page>
  );
}
