import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { serverProblemsOf } from '@web/features/canaries/model/problems';
import { toast } from '@web/lib/toast';
import { useDebouncedValue } from '@web/lib/use-debounced-value';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { Field, TextAreaField } from '@web/ui/primitives/field';
import { Loading } from '@web/ui/primitives/loading';
import { futureRange, parseInputDate, resolveFutureTimeRange, TimeRangePicker, type FutureTimeRangeValue } from '@web/ui/time-range';
import { useCreateSilence, useSilencePreview, useTarget, type SilenceInput, type Target, type TargetKind } from '../api/silences';
import { HistoryTable } from '../components/history-table';
import { SILENCES_PATH } from '../paths';
import { ResourcePicker } from './resource-picker';

/** The preview waits for typing to settle before asking the server. */
const PREVIEW_DEBOUNCE_MS = 500;

interface SilenceForm {
  target: Target | null;
  recursive: boolean;
  filter: string;
  description: string;
  /** Typed as the console writes dates ('2026-10-28 12:18', seconds optional), in the browser's zone; empty means now. */
  from: string;
  until: FutureTimeRangeValue;
}

/** What the From field shows as an example: the console's own date shape, not the browser's mm/dd/yyyy. */
const FROM_EXAMPLE = '2026-01-31 14:00';

/** The body of POST /api/notification/silence (and its preview) for the form, or null before it names anything. */
export function silenceBody(form: SilenceForm, now: Date = new Date()): SilenceInput | null {
  const filter = form.filter.trim();
  if (!form.target && filter === '') return null;
  const typed = form.from.trim() ? parseInputDate(form.from) : null;
  const from = typed ?? now;
  const resolved = form.until.type === 'relative' && form.until.range !== null ? resolveFutureTimeRange(form.until, from) : resolveFutureTimeRange(form.until, now);
  const body: SilenceInput = { until: resolved?.to ? resolved.to.toISOString() : null };
  if (typed) body.from = typed.toISOString();
  if (form.description.trim()) body.description = form.description.trim();
  if (filter) body.filter = filter;
  if (form.target) {
    body[`${form.target.kind}_id`] = form.target.id;
    body.recursive = form.recursive;
  }
  return body;
}

/** Which field a server problem belongs to ('body.check_id' → the resource). */
function fieldOf(path: string): keyof SilenceForm | 'form' {
  const key = path.replace(/^body\./, '').split(/[.[]/)[0] ?? '';
  if (key === 'check_id' || key === 'config_id' || key === 'component_id' || key === 'canary_id') return 'target';
  if (key === 'filter' || key === 'description' || key === 'from' || key === 'until' || key === 'recursive') return key;
  return 'form';
}

/** Spec §2 /notifications/silences/add (write access): what to silence, until when, and what it would have held back. */
export default function AddSilencePage() {
  const { ready, can } = useAccess();
  if (!ready || !can('notifications', 'write')) return <Page title="Add silence">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <AddSilence />;
}

/** A silence started from a resource's page names it: ?check_id=…, ?config_id=… or ?component_id=…. */
function presetOf(params: URLSearchParams): { kind: TargetKind; id: string } | undefined {
  for (const kind of ['check', 'config', 'component'] as const) {
    const id = params.get(`${kind}_id`);
    if (id) return { kind, id };
  }
  return undefined;
}

function AddSilence() {
  const navigate = useNavigate();
  const [params] = useUrlParams();
  const preset = presetOf(params);
  const presetTarget = useTarget(preset?.kind, preset?.id);
  const [form, setForm] = useState<SilenceForm>({ target: null, recursive: false, filter: '', description: '', from: '', until: futureRange('1h') });
  const found = presetTarget.data;
  useEffect(() => {
    if (found) setForm((current) => (current.target ? current : { ...current, target: found }));
  }, [found]);
  const [problems, setProblems] = useState<Partial<Record<keyof SilenceForm | 'form', string>>>({});
  const create = useCreateSilence();
  const set = <K extends keyof SilenceForm>(key: K, value: SilenceForm[K]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setProblems((current) => ({ ...current, [key]: undefined, form: undefined }));
  };
  // Relative ends are resolved when the form changes, not on every render, so the preview key stays put.
  const body = useMemo(() => silenceBody(form), [form]);
  const debounced = useDebouncedValue(body, PREVIEW_DEBOUNCE_MS);
  const preview = useSilencePreview(debounced);
  const [openRow, setOpenRow] = useState<string | undefined>(undefined);

  const submit = () => {
    if (form.from.trim() && !parseInputDate(form.from)) {
      setProblems({ from: `From must be a date and time such as ${FROM_EXAMPLE}, or empty for now` });
      return;
    }
    if (!body) {
      setProblems({ form: 'Choose a resource or write a filter: a silence needs something to match.' });
      return;
    }
    create.mutate(body, {
      onSuccess: () => void navigate(SILENCES_PATH),
      onError: (error) => {
        const found = serverProblemsOf(error);
        if (found.length === 0) {
          toast.error(error);
          return;
        }
        const next: Partial<Record<keyof SilenceForm | 'form', string>> = {};
        for (const problem of found) {
          const field = fieldOf(problem.path);
          next[field] = next[field] ? `${next[field]}; ${problem.message}` : problem.message;
        }
        setProblems(next);
      },
    });
  };

  return (
    <Page title="Add silence">
      <div className="flex flex-col gap-4 xl:flex-row xl:items-start">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="flex max-w-2xl flex-1 flex-col gap-4"
        >
          <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
            <Link to={SILENCES_PATH} className="text-blue-700 hover:underline">
              Silences
            </Link>
            <span aria-hidden="true" className="text-slate-400">/</span>
            <span aria-current="page" className="font-medium text-slate-900">Add</span>
          </nav>
          <ResourcePicker value={form.target} onChange={(target) => set('target', target)} error={problems.target} />
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={form.recursive} disabled={!form.target || form.target.kind === 'check'} onChange={(event) => set('recursive', event.target.checked)} className="size-4 rounded border-slate-300" />
            Recursive: also silence what is below this resource
          </label>
          <TextAreaField
            label="Filter"
            monospace
            rows={3}
            spellCheck={false}
            value={form.filter}
            onChange={(event) => set('filter', event.target.value)}
            placeholder="check.type == 'http' && check.labels.env == 'dev'"
            hint="Optional CEL expression over the event; with a resource, both must match"
            {...(problems.filter ? { error: problems.filter } : {})}
          />
          <TextAreaField label="Description" rows={2} value={form.description} onChange={(event) => set('description', event.target.value)} placeholder="Why, and who to ask" {...(problems.description ? { error: problems.description } : {})} />
          <div className="flex flex-wrap items-start gap-4">
            <Field
              label="From"
              value={form.from}
              onChange={(event) => set('from', event.target.value)}
              placeholder={FROM_EXAMPLE}
              autoComplete="off"
              className="w-48 font-mono"
              hint="YYYY-MM-DD HH:MM; empty: now"
              {...(problems.from ? { error: problems.from } : {})}
            />
            <div className="flex flex-col gap-1">
              <span className="text-sm font-medium text-slate-700">Until</span>
              <TimeRangePicker mode="future" value={form.until} onChange={(until) => set('until', until)} />
              {problems.until ? <p role="alert" className="text-xs text-red-600">{problems.until}</p> : null}
            </div>
          </div>
          {problems.form ? <p role="alert" className="text-sm text-red-600">{problems.form}</p> : null}
          <div className="flex gap-2">
            <Button onClick={() => void navigate(SILENCES_PATH)}>Cancel</Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? 'Saving…' : 'Save'}
            </Button>
          </div>
        </form>
        <section aria-label="Preview" className="flex min-w-0 flex-1 flex-col gap-2">
          <h2 className="text-sm font-semibold text-slate-900">Preview</h2>
          {!debounced ? (
            <p className="text-sm text-slate-500">Choose a resource or write a filter to see the notifications of the last 7 days this silence would have held back.</p>
          ) : preview.error ? (
            <p role="alert" className="text-sm text-red-600">{preview.error.message}</p>
          ) : preview.data ? (
            <>
              <p className="text-sm text-slate-700" aria-live="polite">
                {preview.data.total === 0 ? 'It would have silenced no notifications in the last 7 days.' : `It would have silenced ${preview.data.total} notification${preview.data.total === 1 ? '' : 's'} in the last 7 days.`}
              </p>
              {preview.data.rows.length > 0 ? <HistoryTable rows={preview.data.rows} isLoading={preview.isFetching} showRule openId={openRow} onOpen={setOpenRow} /> : null}
            </>
          ) : (
            <Loading />
          )}
        </section>
      </div>
    </Page>
  );
}
