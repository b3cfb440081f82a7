import { useMemo, useState } from 'react';
import { CodeTab } from '@web/features/canaries/editor/code-tab';
import { codeDiagnostics } from '@web/features/canaries/model/diagnostics';
import { serverProblemsOf, type ServerProblem } from '@web/features/canaries/model/problems';
import { ApiError } from '@web/lib/api';
import { toast } from '@web/lib/toast';
import { Button } from '@web/ui/primitives/button';
import { Dialog } from '@web/ui/primitives/dialog';
import { Loading } from '@web/ui/primitives/loading';
import { useRule, useSaveRule } from '../api/rules';
import type { Rule } from '../api/schema';
import { EventReference } from './event-reference';
import { EXAMPLE_RULE_YAML, parseRuleYaml, ruleToYaml } from './rule-yaml';

/** The server's answer to a refused save, kept with the text it was about (an edit makes it stale). */
interface Refusal {
  text: string;
  errors: ServerProblem[];
}

function refusalOf(error: unknown, text: string): Refusal | undefined {
  const errors = serverProblemsOf(error);
  if (errors.length > 0) return { text, errors };
  // The name is taken in the namespace.
  if (error instanceof ApiError && error.status === 409) return { text, errors: [{ path: 'metadata.name', message: error.message }] };
  return undefined;
}

function EditorBody({ rule, readOnly, onClose }: { rule: Rule | null; readOnly: boolean; onClose: () => void }) {
  const [text, setText] = useState(() => (rule ? ruleToYaml(rule) : EXAMPLE_RULE_YAML));
  const [refusal, setRefusal] = useState<Refusal | undefined>(undefined);
  const save = useSaveRule(rule?.id);
  const parsed = useMemo(() => parseRuleYaml(text), [text]);
  const server = refusal && refusal.text === text ? { errors: refusal.errors, warnings: [] } : undefined;
  const diagnostics = useMemo(
    () => codeDiagnostics({ parsed, original: rule ? { name: rule.name, namespace: rule.namespace } : null, server, noun: 'notification' }),
    [parsed, rule, server],
  );

  const submit = () => {
    // The problems of the text itself are listed under the editor; the server checks the rest.
    const doc = parsed.doc;
    if (!doc || parsed.problems.length > 0) return;
    save.mutate({ name: doc.name.trim(), namespace: doc.namespace.trim() || 'default', labels: doc.labels, spec: doc.spec }, {
      onSuccess: (answer) => {
        // Warnings (fields read but not run) are part of the success, not a failure.
        const warnings = answer.warnings ?? [];
        const saved = rule ? 'Notification updated successfully' : 'Notification created successfully';
        toast.success(warnings.length > 0 ? `${saved}. Note: ${warnings.join('; ')}` : saved);
        onClose();
      },
      onError: (error) => {
        const found = refusalOf(error, text);
        if (found) setRefusal(found);
        else toast.error(error);
      },
    });
  };

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      className="flex flex-col gap-3"
    >
      {readOnly && rule ? (
        <p className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          This rule comes from {rule.source ?? 'a file'} and is read-only here: change it where it is defined.
        </p>
      ) : null}
      <CodeTab value={text} onChange={setText} diagnostics={diagnostics} readOnly={readOnly} kind="Notification" />
      {readOnly ? null : <EventReference />}
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-3">
        <Button onClick={onClose}>{readOnly ? 'Close' : 'Cancel'}</Button>
        {readOnly ? null : (
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : rule ? 'Update' : 'Save'}
          </Button>
        )}
      </div>
    </form>
  );
}

/** The rule editor (spec §2 /notifications): the whole Notification as YAML, the server's problems at their paths. */
export function RuleEditor({ ruleId, canWrite, onClose }: { ruleId: string | undefined; canWrite: boolean; onClose: () => void }) {
  const rule = useRule(ruleId);
  const loaded = ruleId ? rule.data : null;
  const readOnly = !canWrite || (loaded ? (loaded.source ?? 'UI') !== 'UI' : false);
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title={ruleId ? (loaded?.name ?? 'Notification rule') : 'New notification rule'} size="large">
      <div className="overflow-auto px-5 py-4">
        {ruleId && rule.isPending ? <Loading /> : null}
        {ruleId && rule.error ? (
          <p role="alert" className="text-sm text-red-600">
            {rule.error.message}
          </p>
        ) : null}
        {ruleId && rule.data === null ? <p className="text-sm text-slate-600">No details found</p> : null}
        {!ruleId || loaded ? <EditorBody key={loaded?.id ?? 'new'} rule={loaded ?? null} readOnly={readOnly} onClose={onClose} /> : null}
      </div>
    </Dialog>
  );
}
