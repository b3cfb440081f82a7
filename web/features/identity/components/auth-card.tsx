import type { ReactNode } from 'react';
import { useDocumentTitle } from '@web/app/layout/document-title';
import { Logo } from '@web/app/layout/logo';
import { Button } from '@web/ui/primitives/button';
import { Loading } from '@web/ui/primitives/loading';

/** The public pages' frame (spec §2 auth pages): a centered card under the product mark, no sidebar. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <main className="flex min-h-screen flex-col items-center bg-slate-50 px-4 py-12 sm:py-20">
      <div className="mb-6 flex items-center gap-2.5">
        <Logo className="size-9" />
        <span className="text-lg font-semibold tracking-tight text-slate-900">Watchkeeper</span>
      </div>
      <section aria-labelledby="auth-card-title" className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 id="auth-card-title" className="mb-5 text-center text-xl font-semibold tracking-tight text-slate-900">
          {title}
        </h1>
        {children}
      </section>
      {footer ? <div className="mt-5 flex flex-col items-center gap-2 text-sm text-slate-600">{footer}</div> : null}
    </main>
  );
}

/** The flow could not be loaded: the reason, and a way to try again. */
export function FlowFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <p role="alert" className="text-sm text-red-700">
        {message}
      </p>
      <Button onClick={onRetry}>Try again</Button>
    </div>
  );
}

export function FlowLoading() {
  return <Loading className="py-8" />;
}
