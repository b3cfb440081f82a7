import { Trash2 } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import NotFoundPage from '@web/app/pages/not-found-page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { useAccess } from '@web/app/session';
import { canariesResource } from '@web/features/canaries/resource';
import { ScraperEditor } from '@web/features/config-scrapers/editor/scraper-editor';
import { useDeleteScraper, useSaveScraper, useScraper } from '@web/features/config-scrapers/queries';
import { ConnectionEditor } from '@web/features/connections/connection-editor';
import { useConnection } from '@web/features/connections/queries';
import { logBackendsResource } from '@web/features/log-backends/resource';
import { useDeleteRule, useRule } from '@web/features/notifications/api/rules';
import { RuleEditor } from '@web/features/notifications/rules/rule-editor';
import { valuesToWrite } from '@web/features/settings/resources/form-values';
import { NEW_ID } from '@web/features/settings/resources/new-id';
import { useDeleteResource, useResource, useSaveResource } from '@web/features/settings/resources/queries';
import type { ResourceEditorProps, SettingsResource } from '@web/features/settings/resources/types';
import { SourceBadge } from '@web/features/settings/resources/source-badge';
import { linkedSource, valueToText } from '@web/features/settings/resources/values';
import { topologiesResource } from '@web/features/topologies/resource';
import { Button } from '@web/ui/primitives/button';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Loading } from '@web/ui/primitives/loading';
import { INTEGRATION_TYPE_INFO, INTEGRATIONS_PATH, isIntegrationType, type IntegrationType } from './catalog';
import { SpecForm } from './spec-form';

/**
 * Spec §2 /settings/integrations/{type}/{id} (write on integrations, else the Unauthorized page): the
 * resource's own editor; save and delete return to /settings/integrations. `new` as the id opens the
 * create form (the Add Directly items). Resources from another source are shown read-only.
 */
export default function IntegrationDetailPage() {
  const { type, id } = useParams();
  const { ready, can } = useAccess();
  if (!isIntegrationType(type) || !id) return <NotFoundPage />;
  const info = INTEGRATION_TYPE_INFO[type];
  const allowed = can('integrations', 'write') && can(info.resource, id === NEW_ID ? 'create' : 'read');
  if (!ready || !allowed) return <Page title="Integrations">{ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <Detail key={`${type}/${id}`} type={type} id={id === NEW_ID ? null : id} />;
}

function Breadcrumb({ type, name, source }: { type: IntegrationType; name: string; source?: string | undefined }) {
  const info = INTEGRATION_TYPE_INFO[type];
  const Icon = info.icon;
  return (
    <nav aria-label="Breadcrumb" className="mb-4 flex items-center gap-2 text-sm text-slate-600">
      <Link to={INTEGRATIONS_PATH} className="text-blue-700 hover:underline">
        Integrations
      </Link>
      <span aria-hidden="true">/</span>
      <span className="flex items-center gap-1.5">
        <Icon className="size-4" aria-hidden="true" />
        {info.singular}
      </span>
      <span aria-hidden="true">/</span>
      <span aria-current="page" className="font-medium text-slate-900">
        {name}
      </span>
      {source ? <SourceBadge source={source} /> : null}
    </nav>
  );
}

function LinkedNote({ type, source }: { type: IntegrationType; source: string }) {
  return (
    <p role="note" className="mb-4 max-w-2xl rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
      This {INTEGRATION_TYPE_INFO[type].singular.toLowerCase()} comes from {source} and is read-only here: change it where it is defined.
    </p>
  );
}

function Detail({ type, id }: { type: IntegrationType; id: string | null }) {
  switch (type) {
    case 'topologies':
      return <GenericDetail type={type} resource={topologiesResource} id={id} />;
    case 'logging_backends':
      return <GenericDetail type={type} resource={logBackendsResource} id={id} />;
    case 'canaries':
      return <GenericDetail type={type} resource={canariesResource} id={id} />;
    case 'scrapers':
      return <ScraperDetail id={id} />;
    case 'connections':
      return id === null ? <NotFoundPage /> : <ConnectionDetail id={id} />;
    case 'notifications':
      return <NotificationDetail id={id} />;
  }
}

function Shell({ type, name, source, children }: { type: IntegrationType; name: string; source?: string | undefined; children: ReactNode }) {
  return (
    <Page title="Integrations">
      <Breadcrumb type={type} name={name} source={source} />
      {source ? <LinkedNote type={type} source={source} /> : null}
      {children}
    </Page>
  );
}

const editors = new WeakMap<SettingsResource, ReturnType<typeof lazy<React.ComponentType<ResourceEditorProps>>>>();
function editorOf(resource: SettingsResource) {
  if (!resource.editor) return undefined;
  let editor = editors.get(resource);
  if (!editor) {
    editor = lazy(resource.editor);
    editors.set(resource, editor);
  }
  return editor;
}

/** Topologies, log backends (the spec form) and health checks (their own editor), as the settings pages edit them. */
function GenericDetail({ type, resource, id }: { type: IntegrationType; resource: SettingsResource; id: string | null }) {
  const navigate = useNavigate();
  const { can } = useAccess();
  const query = useResource(resource, id);
  const row = query.data ?? null;
  const name = id === null ? 'New' : valueToText(row?.[resource.titleKey ?? 'name']) || (query.isLoading ? '' : id);
  const save = useSaveResource(resource, id);
  const remove = useDeleteResource(resource, id ?? '', name);
  const [confirming, setConfirming] = useState(false);
  const linked = linkedSource(row);
  const toList = () => void navigate(INTEGRATIONS_PATH);
  const editable = id === null ? can(resource.access.write, 'create') : can(resource.access.write, 'update') && linked === undefined;
  const onDelete = id !== null && linked === undefined && can(resource.access.write, 'delete') ? () => setConfirming(true) : undefined;
  const Editor = editorOf(resource);

  let content: ReactNode;
  if (id !== null && query.isLoading) content = <Loading />;
  else if (id !== null && !row) content = <p role="alert">{query.error?.message ?? 'No resources found'}</p>;
  else if (Editor) {
    content = (
      <Suspense fallback={<Loading />}>
        <Editor resource={resource} row={row} readOnly={!editable} saving={save.isPending} saveError={save.error} onSubmit={(write) => save.mutate(write, { onSuccess: toList })} onBack={toList} onDelete={onDelete} />
      </Suspense>
    );
  } else {
    content = (
      <SpecForm
        fields={resource.fields}
        row={row}
        saving={save.isPending}
        readOnly={!editable}
        onSubmit={(values) => save.mutate(valuesToWrite(resource.fields, values, id !== null), { onSuccess: toList })}
        onCancel={toList}
        onDelete={onDelete}
      />
    );
  }
  return (
    <Shell type={type} name={name} source={linked}>
      {content}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${resource.singular}`}
        description={`Are you sure you want to delete ${name}?`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSuccess: toList })}
      />
    </Shell>
  );
}

function ScraperDetail({ id }: { id: string | null }) {
  const navigate = useNavigate();
  const { can } = useAccess();
  const query = useScraper(id ?? '');
  const scraper = id === null ? null : (query.data ?? null);
  const save = useSaveScraper(id);
  const remove = useDeleteScraper(id ?? '', scraper?.name ?? '');
  const [confirming, setConfirming] = useState(false);
  const linked = linkedSource(scraper);
  const toList = () => void navigate(INTEGRATIONS_PATH);
  const editable = id === null ? can('config_scrapers', 'create') : linked === undefined && can('config_scrapers', 'update');
  const onDelete = id !== null && linked === undefined && can('config_scrapers', 'delete') ? () => setConfirming(true) : undefined;
  if (id !== null && query.isLoading) return <Shell type="scrapers" name="">{<Loading />}</Shell>;
  if (id !== null && !scraper) {
    return (
      <Shell type="scrapers" name={id}>
        <p role="alert">{query.error?.message ?? 'No resources found'}</p>
      </Shell>
    );
  }
  return (
    <Shell type="scrapers" name={scraper?.name ?? 'New'} source={linked}>
      <ScraperEditor row={scraper} readOnly={!editable} saving={save.isPending} saveError={save.error} onSubmit={(write) => save.mutate(write, { onSuccess: toList })} onBack={toList} onDelete={onDelete} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Catalog Scraper"
        description={`Are you sure you want to delete ${scraper?.name ?? ''}? Its items are deleted with it; their changes stay in the history.`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSuccess: toList })}
      />
    </Shell>
  );
}

function ConnectionDetail({ id }: { id: string }) {
  const query = useConnection(id);
  const row = query.data ?? null;
  if (query.isLoading) return <Shell type="connections" name="">{<Loading />}</Shell>;
  if (!row) {
    return (
      <Shell type="connections" name={id}>
        <p role="alert">{query.error?.message ?? 'No resources found'}</p>
      </Shell>
    );
  }
  return (
    <Shell type="connections" name={row.name} source={row.source && row.source !== 'UI' ? row.source : undefined}>
      <ConnectionEditor key={row.id} row={row} listPath={INTEGRATIONS_PATH} linkedNote={false} />
    </Shell>
  );
}

/** A notification rule: its YAML editor (the rule editor of /notifications); Delete beside it. */
function NotificationDetail({ id }: { id: string | null }) {
  const navigate = useNavigate();
  const { can } = useAccess();
  const rule = useRule(id ?? undefined);
  const remove = useDeleteRule();
  const [confirming, setConfirming] = useState(false);
  const toList = () => void navigate(INTEGRATIONS_PATH);
  const loaded = id === null ? null : (rule.data ?? null);
  const linked = loaded && (loaded.source ?? 'UI') !== 'UI' ? (loaded.source ?? undefined) : undefined;
  const canWrite = can('notifications', 'write');
  return (
    <Shell type="notifications" name={id === null ? 'New' : (loaded?.name ?? '')} source={linked}>
      {loaded && canWrite && !linked ? (
        <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
          <Trash2 className="size-4" aria-hidden="true" />
          Delete
        </Button>
      ) : null}
      <RuleEditor ruleId={id ?? undefined} canWrite={canWrite} onClose={toList} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete Notification"
        description={`Are you sure you want to delete ${loaded?.name ?? ''}?`}
        busy={remove.isPending}
        onConfirm={() => loaded && remove.mutate({ id: loaded.id, name: loaded.name }, { onSuccess: toList })}
      />
    </Shell>
  );
}
