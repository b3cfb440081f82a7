import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@web/ui/primitives/cn';

function describe(error: unknown): { message: string | undefined; stack: string | undefined; cause: unknown } {
  if (error instanceof Error) return { message: error.message || undefined, stack: error.stack, cause: error.cause };
  if (typeof error === 'string') return { message: error || undefined, stack: undefined, cause: undefined };
  if (error && typeof error === 'object') {
    const message: unknown = Reflect.get(error, 'message') ?? Reflect.get(error, 'statusText');
    return { message: typeof message === 'string' && message ? message : undefined, stack: undefined, cause: undefined };
  }
  return { message: undefined, stack: undefined, cause: undefined };
}

function causeText(cause: unknown): string | undefined {
  if (cause === undefined || cause === null) return undefined;
  if (cause instanceof Error) return cause.stack ?? `${cause.name}: ${cause.message}`;
  if (typeof cause === 'string') return cause;
  try {
    return JSON.stringify(cause, null, 2);
  } catch {
    return String(cause);
  }
}

export interface ErrorPageProps {
  error?: unknown;
  /** Spec §2: the stack and cause show by default; pages such as "not found" turn them off. */
  showDetails?: boolean;
  /** Heading above the message, e.g. the boundary's 'Sorry.. there was an error'. */
  title?: string;
  actions?: ReactNode;
  className?: string;
}

/** The generic error screen of spec §2: the message, else 'Something went wrong'. */
export function ErrorPage({ error, showDetails = true, title, actions, className }: ErrorPageProps) {
  const { message, stack, cause } = describe(error);
  const heading = title ?? message ?? 'Something went wrong';
  const text = title ? (message ?? 'Something went wrong') : undefined;
  const details = [stack, causeText(cause) && `Caused by: ${causeText(cause)}`].filter(Boolean).join('\n\n');
  return (
    <div role="alert" className={cn('mx-auto flex max-w-3xl flex-col items-center px-6 py-16 text-center', className)}>
      <div className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600 ring-8 ring-red-50/50">
        <TriangleAlert className="size-6" aria-hidden="true" />
      </div>
      <h2 className="mt-5 text-lg font-semibold text-slate-900">{heading}</h2>
      {text ? <p className="mt-2 text-sm text-slate-600">{text}</p> : null}
      {actions ? <div className="mt-6 flex gap-2">{actions}</div> : null}
      {showDetails && details ? (
        <details className="mt-8 w-full text-left" open>
          <summary className="cursor-pointer text-xs font-medium uppercase tracking-wide text-slate-500">Details</summary>
          <pre className="mt-2 max-h-80 overflow-auto rounded-lg border border-slate-200 bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">
            {details}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
