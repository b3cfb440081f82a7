import { useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { ViewEditor } from '../editor/view-editor';
import { savedListPath, VIEW_SETTINGS_PATH } from '../paths';
import { ViewsBreadcrumb } from './breadcrumb';

/** /settings/views/new: a view written in the editor (Form or Code), created through POST /api/views. */
export default function NewViewPage() {
  const navigate = useNavigate();
  return (
    <Page title="New view">
      <div className="flex flex-col gap-4">
        <ViewsBreadcrumb current="New view" />
        <ViewEditor view={null} readOnly={false} onBack={() => void navigate(VIEW_SETTINGS_PATH)} onSaved={(id) => void navigate(savedListPath(id))} />
      </div>
    </Page>
  );
}
