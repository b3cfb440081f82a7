import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { connectionType, type ConnectionTypeDef } from '@common/connections';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { toast } from '@web/lib/toast';
import { useUrlParams } from '@web/lib/use-url-params';
import { readSearchParams } from '@web/lib/url-state';
import { Loading } from '@web/ui/primitives/loading';
import { ConnectionForm } from './connection-form';
import { TypeIcon } from './columns';
import { formToInput, type FormProblems } from './form';
import { CONNECTIONS_PATH, NEW_CONNECTION_PATH } from './paths';
import { useCreateConnection } from './queries';
import { saveErrorProblems } from './save-errors';
import { TypePicker } from './type-picker';

/**
 * /settings/connections/new: the type picker, then (with ?type=…, so the step is in the URL and Back
 * returns to the picker) the chosen type's form.
 */
export default function NewConnectionPage() {
  const { ready, can } = useAccess();
  if (!ready || !can('connections', 'create')) return <Page title="Connections">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <NewConnection />;
}

function Breadcrumb({ def }: { def: ConnectionTypeDef | undefined }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-4 flex items-center gap-2 text-sm text-slate-600">
      <Link to={CONNECTIONS_PATH} className="text-blue-700 hover:underline">
        Connections
      </Link>
      <span aria-hidden="true">/</span>
      {def ? (
        <>
          <Link to={NEW_CONNECTION_PATH} className="text-blue-700 hover:underline">
            Add connection
          </Link>
          <span aria-hidden="true">/</span>
          <span aria-current="page" className="flex items-center gap-1.5 font-medium text-slate-900">
            <TypeIcon type={def.type} />
            {def.label}
          </span>
        </>
      ) : (
        <span aria-current="page" className="font-medium text-slate-900">
          Add connection
        </span>
      )}
    </nav>
  );
}

function NewConnection() {
  const [params] = useUrlParams();
  const typeParam = readSearchParams(params).type;
  const def = typeParam ? connectionType(typeParam) : undefined;
  return (
    <Page title="Add connection">
      <Breadcrumb def={def} />
      {typeParam && !def ? (
        <p role="alert" className="mb-4 text-sm text-red-600">
          "{typeParam}" is not a connection type: pick one below.
        </p>
      ) : null}
      {def ? <CreateForm key={def.type} def={def} /> : <TypePicker />}
    </Page>
  );
}

function CreateForm({ def }: { def: ConnectionTypeDef }) {
  const navigate = useNavigate();
  const create = useCreateConnection();
  const [serverProblems, setServerProblems] = useState<FormProblems>({});
  return (
    <ConnectionForm
      def={def}
      row={null}
      readOnly={false}
      saving={create.isPending}
      serverProblems={serverProblems}
      onBack={() => void navigate(NEW_CONNECTION_PATH)}
      onDelete={undefined}
      onSubmit={(values) => {
        setServerProblems({});
        create.mutate(formToInput(def, values, false), {
          onSuccess: () => void navigate(CONNECTIONS_PATH),
          onError: (error) => {
            const problems = saveErrorProblems(def, error);
            if (problems) setServerProblems(problems);
            else toast.error(error);
          },
        });
      }}
    />
  );
}
