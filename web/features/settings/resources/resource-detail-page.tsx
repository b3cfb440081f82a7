import { lazy, Suspense, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import NotFoundPage from '@web/app/pages/not-found-page';
import { UnauthorizedPage } from '@web/app/pages/unauthorized-page';
import { ConfirmDialog } from '@web/ui/primitives/confirm-dialog';
import { Loading } from '@web/ui/primitives/loading';
import { useUrlParams } from '@web/lib/use-url-params';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { useResourceAccess } from './access';
import { valuesToWrite, type ResourceValues } from './form-values';
import { NEW_ID } from './new-id';
import { useDeleteResource, useResource, useSaveResource } from './queries';
import { findResource, useResourceRegistry } from './registry-context';
import { ResourceForm } from './resource-form';
import { TabBar } from './resource-tabs';
import { SourceBadge } from './source-badge';
import type { ResourceAccess, ResourceEditorProps, ResourceTab, ResourceTabProps, SettingsResource } from './types';
import { useTableParam } from './use-table';
import { linkedSource, valueToText } from './values';

/** The first tab of every detail page (spec "Generic resource editor"). */
export const SPEC_TAB = 'spec';

/** The last tab, for resources whose runs are recorded in job history (spec "Generic resource editor"). */
export const JOB_HISTORY_TAB: ResourceTab = { id: 'job-history', label: 'Job History', load: () => import('./job-history-tab') };

export default function ResourceDetailPage() {
  const { id } = useParams();
  const resource = findResource(useTableParam(), useResourceRegistry());
  if (!resource || !id) return <NotFoundPage />;
  return <GuardedDetail key={`${resource.table}/${id}`} resource={resource} id={id === NEW_ID ? null : id} />;
}

/** Reading a row needs the read object; the empty form for a new row needs create. */
function GuardedDetail({ resource, id }: { resource: SettingsResource; id: string | null }) {
  const access = useResourceAccess(resource);
  const allowed = id === null ? access.create : access.read;
  if (!access.ready || !allowed) return <Page title={resource.label}>{access.ready ? <UnauthorizedPage /> : <Loading />}</Page>;
  return <ResourceDetail resource={resource} id={id} access={access} />;
}

const lazyTabs = new WeakMap<ResourceTab, LazyExoticComponent<ComponentType<ResourceTabProps>>>();
function tabComponent(tab: ResourceTab): LazyExoticComponent<ComponentType<ResourceTabProps>> {
  let component = lazyTabs.get(tab);
  if (!component) {
    component = lazy(tab.load);
    lazyTabs.set(tab, component);
  }
  return component;
}

const lazyEditors = new WeakMap<SettingsResource, LazyExoticComponent<ComponentType<ResourceEditorProps>>>();
function editorComponent(resource: SettingsResource): LazyExoticComponent<ComponentType<ResourceEditorProps>> | undefined {
  if (!resource.editor) return undefined;
  let component = lazyEditors.get(resource);
  if (!component) {
    component = lazy(resource.editor);
    lazyEditors.set(resource, component);
  }
  return component;
}

function ResourceDetail({ resource, id, access }: { resource: SettingsResource; id: string | null; access: ResourceAccess }) {
  const navigate = useNavigate();
  const [params, setParams] = useUrlParams();
  const listPath = `/settings/${resource.table}`;
  const query = useResource(resource, id);
  const row = query.data ?? null;
  // While the row loads the breadcrumb stays blank rather than flashing the raw id.
  const name = id === null ? 'New' : valueToText(row?.[resource.titleKey ?? 'name']) || (query.isLoading ? '' : id);
  const save = useSaveResource(resource, id);
  const remove = useDeleteResource(resource, id ?? '', name);
  const [confirming, setConfirming] = useState(false);
  const linked = linkedSource(row);
  const editable = id === null ? access.create : access.update && linked === undefined;
  const tabs = id !== null && row ? [...(resource.tabs ?? []), ...(resource.jobHistory ? [JOB_HISTORY_TAB] : [])] : [];
  const tabId = pickOption(readSearchParams(params).tab, [SPEC_TAB, ...tabs.map((tab) => tab.id)], SPEC_TAB);
  const activeTab = tabs.find((tab) => tab.id === tabId);
  // Spec §2: after saving, the user returns to the list.
  const submit = (values: ResourceValues) => save.mutate(valuesToWrite(resource.fields, values, id !== null), { onSuccess: () => void navigate(listPath) });
  const onDelete = id !== null && access.delete ? () => setConfirming(true) : undefined;
  const Editor = editorComponent(resource);

  const form = Editor ? (
    <Suspense fallback={<Loading />}>
      <Editor
        resource={resource}
        row={row}
        readOnly={!editable}
        saving={save.isPending}
        saveError={save.error}
        onSubmit={(write) => save.mutate(write, { onSuccess: () => void navigate(listPath) })}
        onBack={() => void navigate(listPath)}
        onDelete={onDelete}
      />
    </Suspense>
  ) : (
    <ResourceForm
      fields={resource.fields}
      row={row}
      saving={save.isPending}
      readOnly={!editable}
      onSubmit={submit}
      onBack={() => void navigate(listPath)}
      onDelete={onDelete}
    />
  );
  const content = (() => {
    if (id !== null && query.isLoading) return <Loading />;
    if (id !== null && !row) return <p role="alert">{query.error?.message ?? 'No resources found'}</p>;
    if (tabs.length === 0) return form;
    const Tab = activeTab ? tabComponent(activeTab) : undefined;
    return (
      <TabBar
        label={`${resource.singular} sections`}
        tabs={[{ id: SPEC_TAB, label: 'Spec' }, ...tabs]}
        value={tabId}
        onValueChange={(tab) => setParams((current) => patchSearchParams(current, { tab }, { tab: SPEC_TAB }))}
      >
        {Tab && row && id !== null ? (
          <Suspense fallback={<Loading />}>
            <Tab resource={resource} id={id} row={row} access={access} linked={linked} />
          </Suspense>
        ) : (
          form
        )}
      </TabBar>
    );
  })();

  return (
    <Page title={resource.label}>
      <nav aria-label="Breadcrumb" className="mb-4 flex items-center gap-2 text-sm text-slate-600">
        <Link to={listPath} className="text-blue-700 hover:underline">
          {resource.label}
        </Link>
        <span aria-hidden="true">/</span>
        <span aria-current="page" className="font-medium text-slate-900">
          {name}
        </span>
        {linked ? <SourceBadge source={linked} /> : null}
      </nav>
      {linked ? <LinkedNote resource={resource} source={linked} /> : null}
      {content}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${resource.singular}`}
        description={`Are you sure you want to delete ${name}?`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSuccess: () => void navigate(listPath) })}
      />
    </Page>
  );
}

function LinkedNote({ resource, source }: { resource: SettingsResource; source: string }) {
  return (
    <p role="note" className="mb-4 max-w-2xl rounded-md border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-900">
      This {resource.singular.toLowerCase()} comes from {source} and is read-only here: change it where it is defined.
    </p>
  );
}

