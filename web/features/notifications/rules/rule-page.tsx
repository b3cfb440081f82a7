import { formatRelative } from '@common/format';
import { Pencil, Trash2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { patchSearchParams } from '@web/lib/url-state';
import { useUrlParams } from '@web/lib/use-url-params';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { Switch } from '@web/ui/primitives/switch';
import { useDeleteRule, useRule, useRuleSummary, useSetRuleDisabled } from '../api/rules';
import type { RuleSummary } from '../api/schema';
import { RuleStatusBadge } from '../components/badges';
import { SendHistory } from '../components/send-history';
import { recipientText, waitingDescription } from '../model/format';
import { NOTIFICATIONS_PATH } from '../paths';
import { RuleEditor } from './rule-editor';
import { ruleToYaml } from './rule-yaml';
import RulesPage, { isUiRule } from './rules-page';

const CodeEditor = lazy(() => import('@web/features/canaries/editor/code-editor'));

function Count({ label, value, tone }: { label: string; value: number; tone?: string }) {
  return (
    <div className="flex flex-col rounded-md border border-slate-200 bg-white px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${tone ?? 'text-slate-900'}`}>{value}</dd>
    </div>
  );
}

function Summary({ rule }: { rule: RuleSummary }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
        <RuleStatusBadge status={rule.status} error={rule.error ?? waitingDescription(rule.waiting_for)} />
        <span>
          Events: <span className="font-mono text-xs">{rule.events.join(', ')}</span>
        </span>
        <span>To: {recipientText(rule) || '—'}</span>
        {rule.last_sent ? <span>Last sent {formatRelative(rule.last_sent)} ago</span> : <span>Never sent</span>}
        {isUiRule(rule) ? null : <SourceBadge source={rule.source ?? ''} />}
      </div>
      {rule.error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {rule.error}
        </p>
      ) : null}
      {rule.waiting_for.length > 0 ? (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {waitingDescription(rule.waiting_for)}
        </p>
      ) : null}
      <dl aria-label="Sends of all time" className="grid max-w-2xl grid-cols-5 gap-2">
        <Count label="Sent" value={rule.sent} />
        <Count label="Failed" value={rule.failed} tone={rule.failed > 0 ? 'text-red-700' : undefined} />
        <Count label="Pending" value={rule.pending} />
        <Count label="Silenced" value={rule.silenced} />
        <Count label="Suppressed" value={rule.suppressed} />
      </dl>
    </div>
  );
}

function SpecView({ id }: { id: string }) {
  const rule = useRule(id);
  if (rule.isPending) return <Loading />;
  if (rule.error) return <p role="alert" className="text-sm text-red-600">{rule.error.message}</p>;
  if (!rule.data) return null;
  return (
    <details className="rounded-md border border-slate-200 bg-white">
      <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-700">Spec</summary>
      <div className="p-3">
        <Suspense fallback={<Loading text="loading editor..." />}>
          <CodeEditor value={ruleToYaml(rule.data)} onChange={() => undefined} diagnostics={[]} readOnly label="Notification YAML" />
        </Suspense>
      </div>
    </details>
  );
}

/**
 * Spec §2 /notifications/rules (query id): with an id, a rule, its spec and its send history; without
 * one, the rules (the list of /notifications), not an empty page.
 */
export default function RulePage() {
  const [params] = useUrlParams();
  return params.get('id') ? <OneRule /> : <RulesPage />;
}

function OneRule() {
  const { ready, can } = useAccess();
  if (!ready || !can('notifications', 'read')) return <Page title="Notification rule">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <RuleDetail canWrite={can('notifications', 'write')} />;
}

function RuleDetail({ canWrite }: { canWrite: boolean }) {
  const [params, setParams] = useUrlParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const summary = useRuleSummary(id);
  const toggle = useSetRuleDisabled();
  const remove = useDeleteRule();
  const [confirming, setConfirming] = useState(false);
  const rule = summary.data;
  const editable = canWrite && rule !== null && rule !== undefined && isUiRule(rule);
  const editing = params.get('edit') === '1';
  return (
    <Page
      title={rule?.name ?? 'Notification rule'}
      onRefresh={() => void summary.refetch()}
      refreshing={summary.isFetching}
      extra={
        rule ? (
          <div className="flex items-center gap-3">
            <Switch label="Enabled" checked={!rule.disabled} disabled={!canWrite || toggle.isPending} onCheckedChange={(checked) => toggle.mutate({ id: rule.id, disabled: !checked })} />
            {editable ? (
              <>
                <Button size="sm" onClick={() => setParams((current) => patchSearchParams(current, { edit: '1' }))}>
                  <Pencil className="size-4" aria-hidden="true" />
                  Edit
                </Button>
                <Button size="sm" variant="danger" onClick={() => setConfirming(true)}>
                  <Trash2 className="size-4" aria-hidden="true" />
                  Delete
                </Button>
              </>
            ) : null}
          </div>
        ) : null
      }
    >
      <div className="flex flex-col gap-4">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
          <Link to={NOTIFICATIONS_PATH} className="text-blue-700 hover:underline">
            Notifications
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          <span aria-current="page" className="font-medium text-slate-900">{rule?.name ?? id}</span>
        </nav>
        {summary.isPending ? <Loading /> : null}
        {summary.error ? <p role="alert" className="text-sm text-red-600">{summary.error.message}</p> : null}
        {summary.data === null ? <EmptyState title="Rule not found" description={<Link to={NOTIFICATIONS_PATH} className="text-blue-700 hover:underline">Back to the rules</Link>} /> : null}
        {rule ? (
          <>
            <Summary rule={rule} />
            {isUiRule(rule) ? null : <p className="text-sm text-slate-600">This rule comes from {rule.source}; it is read-only here.</p>}
            <SpecView id={rule.id} />
            <h2 className="text-sm font-semibold text-slate-900">Send history</h2>
            <SendHistory notificationId={rule.id} />
          </>
        ) : null}
      </div>
      {editing && rule ? <RuleEditor ruleId={rule.id} canWrite={canWrite} onClose={() => setParams((current) => patchSearchParams(current, { edit: undefined }))} /> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Notification"
        description={`Are you sure you want to delete ${rule?.name ?? ''}?`}
        busy={remove.isPending}
        onConfirm={() => {
          if (rule) remove.mutate({ id: rule.id, name: rule.name }, { onSuccess: () => void navigate(NOTIFICATIONS_PATH) });
        }}
      />
    </Page>
  );
}
