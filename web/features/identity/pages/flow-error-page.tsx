import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@web/ui/primitives/button';
import { AuthCard, FlowFailure, FlowLoading } from '../components/auth-card';
import { getFlowError } from '../kratos/client';
import { IDENTITY_KEY } from '../kratos/follow';

function describe(error: unknown): { message: string | undefined; reason: string | undefined } {
  if (!error || typeof error !== 'object') return { message: typeof error === 'string' ? error : undefined, reason: undefined };
  const message: unknown = Reflect.get(error, 'message');
  const reason: unknown = Reflect.get(error, 'reason');
  return { message: typeof message === 'string' ? message : undefined, reason: typeof reason === 'string' ? reason : undefined };
}

/** /error?id= (spec §2, §8): a self-service error stored by the server; gone ones (404, 403, 410) lead home. */
export default function FlowErrorPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const query = useQuery({ queryKey: [IDENTITY_KEY, 'error', id], queryFn: () => getFlowError(id), retry: false, enabled: id !== '' });
  const gone = id === '' || (query.isSuccess && query.data === null);
  useEffect(() => {
    if (gone) void navigate('/', { replace: true });
  }, [gone, navigate]);

  const goBack = () => {
    if (window.history.length > 1) void navigate(-1);
    else void navigate('/');
  };
  const details = query.data ? describe(query.data.error) : undefined;
  return (
    <AuthCard title="An error occurred" footer={<Link to="/" className="font-medium text-blue-700 hover:underline">Go to the home page</Link>}>
      {query.isError ? (
        <FlowFailure message={query.error.message} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <FlowLoading />
      ) : (
        <div className="flex flex-col gap-4">
          {details?.reason || details?.message ? (
            <p role="alert" className="text-sm text-red-700">
              {details.reason ?? details.message}
            </p>
          ) : null}
          <details className="text-left">
            <summary className="cursor-pointer text-xs font-medium uppercase tracking-wide text-slate-500">Details</summary>
            <pre className="mt-2 max-h-64 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">{JSON.stringify(query.data.error, null, 2)}</pre>
          </details>
          <Button variant="primary" onClick={goBack}>
            Go back
          </Button>
        </div>
      )}
    </AuthCard>
  );
}
