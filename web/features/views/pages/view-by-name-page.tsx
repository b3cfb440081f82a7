import { useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { Loading } from '@web/ui/primitives/loading';
import { useViewIdByName } from '../api/view';
import { ViewFrame } from './view-frame';

/** /view/{namespace}/{name} and /view/{name} (namespace 'default'): the name resolved to an id, then the view. */
export default function ViewByNamePage() {
  const { namespace, name = '' } = useParams();
  const resolved = useViewIdByName(namespace, name);
  if (resolved.data) return <ViewFrame viewId={resolved.data} />;
  return (
    <Page title={name || 'View'}>
      {resolved.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
          {resolved.error.message}
        </p>
      ) : (
        <Loading />
      )}
    </Page>
  );
}
