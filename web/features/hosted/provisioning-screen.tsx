import { LoaderCircle } from 'lucide-react';

/** Spec §1, exact text: shown while the organization's backend is not known or not answering yet. */
export const PROVISIONING_TEXT = 'Please wait, instance provisioning in-progress ...';

export function ProvisioningScreen({ organization }: { organization: string }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-8 text-center" aria-busy="true">
      <LoaderCircle className="size-8 animate-spin text-slate-400" aria-hidden="true" />
      <p role="status" aria-live="polite" className="text-base font-medium text-slate-800">
        {PROVISIONING_TEXT}
      </p>
      <p className="text-sm text-slate-500">{organization}</p>
    </main>
  );
}
