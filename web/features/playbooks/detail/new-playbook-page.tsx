import { Link, useNavigate } from 'react-router';
import { Page } from '@web/app/layout/page';
import { PlaybookEditor } from '../editor/playbook-editor';
import { playbookPath, PLAYBOOKS_PATH } from '../paths';

/** /playbooks/new: a playbook written in the editor (Form or Code), created through POST /api/playbooks. */
export default function NewPlaybookPage() {
  const navigate = useNavigate();
  return (
    <Page title="New playbook">
      <div className="flex flex-col gap-4">
        <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
          <Link to={PLAYBOOKS_PATH} className="text-blue-700 hover:underline">
            Playbooks
          </Link>
          <span aria-hidden="true" className="text-slate-400">/</span>
          <span aria-current="page" className="font-medium text-slate-900">New playbook</span>
        </nav>
        <PlaybookEditor playbook={null} readOnly={false} onBack={() => void navigate(PLAYBOOKS_PATH)} onSaved={(id) => void navigate(id ? playbookPath(id) : PLAYBOOKS_PATH)} />
      </div>
    </Page>
  );
}
