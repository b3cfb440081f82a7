import { useQueryClient } from '@tanstack/react-query';
import { Page } from '@web/app/layout/page';
import { useViewAnswer } from '../api/view';
import { viewKeys } from '../api/keys';
import { useUrlVariables } from '../components/view-state';
import { ViewContent } from '../view-content';

/** A view as a whole page: the title in the top bar, its variables in the URL. */
export function ViewFrame({ viewId }: { viewId: string }) {
  // Plain (Mission Control style) keys are read as variables once the view says which keys it has.
  const client = useQueryClient();
  const [probe] = useUrlVariables([]);
  const first = useViewAnswer(viewId, probe);
  const keys = first.data?.variables.map((v) => v.key) ?? [];
  const [selection, setSelection] = useUrlVariables(keys);
  const title = first.data ? first.data.title || first.data.name : 'View';
  return (
    <Page title={title} onRefresh={() => void client.invalidateQueries({ queryKey: viewKeys.answers(viewId) })} refreshing={first.isFetching}>
      <ViewContent viewId={viewId} variables={selection} onVariablesChange={setSelection} />
    </Page>
  );
}
