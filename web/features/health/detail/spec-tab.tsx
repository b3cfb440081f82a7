import { stringify } from 'yaml';
import { EmptyState } from '@web/ui/primitives/empty-state';
import type { CheckSpec } from '../api/schema';

/**
 * The check's entry in its canary's YAML (spec §2 Spec tab): `<type>: [<the check>]`, as it would sit
 * under the canary's spec. Loaded with the tab, so the YAML library stays out of the page's bundle.
 */
export function checkSpecYaml(record: Pick<CheckSpec, 'type' | 'spec'>): string {
  return stringify({ [record.type]: [record.spec] }, { indent: 2, lineWidth: 0 });
}

export default function SpecTab({ record }: { record: CheckSpec }) {
  if (record.transformed_from) {
    return <EmptyState className="py-8" title="No details found" description="This check is made by a transform of another check's result; its spec is that check's." />;
  }
  const canary = record.canaries;
  return (
    <div className="flex flex-col gap-2">
      {canary ? (
        <p className="text-sm text-slate-600">
          In canary <span className="font-medium text-slate-900">{canary.namespace}/{canary.name}</span>
          {canary.schedule ? <>, scheduled {canary.schedule}</> : <>, run only on demand</>}; source {canary.source}.
        </p>
      ) : null}
      <pre aria-label="Check spec" className="max-h-[28rem] overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-800">
        {checkSpecYaml(record)}
      </pre>
    </div>
  );
}
