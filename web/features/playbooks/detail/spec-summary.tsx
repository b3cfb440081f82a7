import type { ReactNode } from 'react';
import { isRecord } from '@web/features/canaries/model/document';
import { paramLabel, paramType } from '../model/params';
import { paramSchema } from '../api/schema';
import { ACTION_TYPES, MAIN_FIELDS } from '../editor/playbook-form-values';

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-2">
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

function selectorText(selector: unknown): string {
  if (!isRecord(selector)) return String(selector);
  return Object.entries(selector)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : isRecord(value) ? JSON.stringify(value) : String(value)}`)
    .join('; ');
}

/** What a playbook does, read from its spec: what it runs on, its parameters, approval, triggers and actions. */
export function SpecSummary({ spec }: { spec: Record<string, unknown> }) {
  const params = (Array.isArray(spec.parameters) ? spec.parameters : []).flatMap((raw) => {
    const parsed = paramSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
  const actions = (Array.isArray(spec.actions) ? spec.actions : []).filter(isRecord);
  const targets = (['configs', 'components', 'checks'] as const).flatMap((key) => (Array.isArray(spec[key]) ? spec[key].map((selector: unknown) => ({ key, text: selectorText(selector) })) : []));
  const on = isRecord(spec.on) ? Object.keys(spec.on) : [];
  const approval = isRecord(spec.approval) ? spec.approval : undefined;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <Block title="Actions">
        <ol className="flex flex-col gap-1.5 text-sm">
          {actions.map((action, index) => {
            const type = ACTION_TYPES.find((candidate) => action[candidate] !== undefined) ?? '?';
            const block = isRecord(action[type]) ? action[type] : {};
            const main = MAIN_FIELDS[type];
            const detail = main && typeof block[main.key] === 'string' ? String(block[main.key]) : '';
            return (
              <li key={index} className="flex flex-col rounded-md border border-slate-200 bg-white px-3 py-2">
                <span className="flex items-center gap-2">
                  <span className="text-xs text-slate-400">{index + 1}.</span>
                  <span className="font-medium text-slate-900">{typeof action.name === 'string' ? action.name : ''}</span>
                  <span className="rounded bg-slate-100 px-1.5 font-mono text-xs text-slate-600">{type}</span>
                </span>
                {detail ? <code className="mt-1 truncate text-xs text-slate-600">{detail.split('\n')[0]}</code> : null}
              </li>
            );
          })}
        </ol>
      </Block>
      <div className="flex flex-col gap-5">
        <Block title="Parameters">
          {params.length === 0 ? (
            <p className="text-sm text-slate-600">No parameters for this playbook.</p>
          ) : (
            <table aria-label="Parameters" className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th className="py-1 font-medium">Name</th>
                  <th className="py-1 font-medium">Type</th>
                  <th className="py-1 font-medium">Default</th>
                </tr>
              </thead>
              <tbody>
                {params.map((param) => (
                  <tr key={param.name} className="border-t border-slate-100">
                    <td className="py-1">
                      {paramLabel(param)}
                      {param.required ? <span className="text-red-600"> *</span> : null}
                    </td>
                    <td className="py-1 font-mono text-xs">{paramType(param)}</td>
                    <td className="py-1 font-mono text-xs">{param.default ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Block>
        <Block title="Runs on">
          {targets.length === 0 ? (
            <p className="text-sm text-slate-600">Runs without a resource.</p>
          ) : (
            <ul className="flex flex-col gap-1 text-sm">
              {targets.map((target, index) => (
                <li key={index}>
                  <span className="text-slate-500">{target.key}</span> <span className="font-mono text-xs">{target.text}</span>
                </li>
              ))}
            </ul>
          )}
        </Block>
        {approval || on.length > 0 ? (
          <Block title="Approval and triggers">
            <ul className="flex flex-col gap-1 text-sm text-slate-700">
              {approval ? <li>Needs approval ({typeof approval.type === 'string' ? approval.type : 'any'} approver)</li> : null}
              {on.length > 0 ? <li>Triggered on: {on.join(', ')}</li> : null}
            </ul>
          </Block>
        ) : null}
      </div>
    </div>
  );
}
