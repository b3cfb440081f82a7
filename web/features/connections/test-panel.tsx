import { CircleCheck, CircleX, FlaskConical, Info, LoaderCircle } from 'lucide-react';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { toastErrorText } from '@web/lib/toast';
import { useTestConnection } from './queries';
import type { TestResult } from './schema';

function Outcome({ result }: { result: TestResult }) {
  const took = result.duration_ms === undefined ? '' : ` (${result.duration_ms} ms)`;
  if (result.ok) {
    return (
      <p className="flex items-start gap-2 text-sm text-green-700">
        <CircleCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          Connection OK: {result.message}
          {took}
        </span>
      </p>
    );
  }
  if (!result.tested) {
    return (
      <p className="flex items-start gap-2 text-sm text-slate-600">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>Cannot test this connection here: {result.message}</span>
      </p>
    );
  }
  return (
    <p className="flex items-start gap-2 text-sm text-red-700">
      <CircleX className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <span>
        Connection failed: {result.message}
        {took}
      </span>
    </p>
  );
}

/**
 * Tests the saved connection (POST /api/connection/test/{id}; the server gives it 10 s): changes in the
 * form are not tested until they are saved.
 */
export function TestPanel({ id, dirty }: { id: string; dirty: boolean }) {
  const test = useTestConnection(id);
  return (
    <section aria-label="Test connection" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex items-center gap-3">
        <Button
          size="sm"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(undefined, {
              onSuccess: (result) => {
                if (result.ok) toast.success(`Connection OK: ${result.message}`);
              },
            })
          }
        >
          {test.isPending ? <LoaderCircle className="size-4 animate-spin" aria-hidden="true" /> : <FlaskConical className="size-4" aria-hidden="true" />}
          {test.isPending ? 'Testing…' : 'Test'}
        </Button>
        <span className="text-xs text-slate-500">{dirty ? 'Tests the saved connection: save your changes first.' : 'Connects with the saved values.'}</span>
      </div>
      <div role="status" aria-live="polite">
        {test.isPending ? <p className="text-sm text-slate-600">Testing the connection…</p> : null}
        {!test.isPending && test.data ? <Outcome result={test.data} /> : null}
        {!test.isPending && test.error ? (
          <p className="flex items-start gap-2 text-sm text-red-700">
            <CircleX className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{toastErrorText(test.error)}</span>
          </p>
        ) : null}
      </div>
    </section>
  );
}
