import { EVENT_DESCRIPTIONS, EVENT_NAMES } from '@common/events';

/** The events a rule can name (common/events.ts), beside the editor; `family.*` names a whole family. */
export function EventReference() {
  return (
    <details className="rounded-md border border-slate-200 bg-white text-sm">
      <summary className="cursor-pointer px-3 py-2 font-medium text-slate-700">Events a rule can name</summary>
      <dl className="grid max-h-64 grid-cols-[auto_1fr] gap-x-4 gap-y-1 overflow-auto px-3 pb-3">
        {EVENT_NAMES.map((name) => (
          <div key={name} className="contents">
            <dt className="font-mono text-xs text-slate-900">{name}</dt>
            <dd className="text-xs text-slate-600">{EVENT_DESCRIPTIONS[name]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
