import { Link } from 'react-router';
import { VIEW_SETTINGS_PATH } from '../paths';

export function ViewsBreadcrumb({ current }: { current: string }) {
  return (
    <nav aria-label="Breadcrumb" className="flex items-center gap-1.5 text-sm text-slate-600">
      <Link to={VIEW_SETTINGS_PATH} className="text-blue-700 hover:underline">
        Views
      </Link>
      <span aria-hidden="true" className="text-slate-400">
        /
      </span>
      <span aria-current="page" className="font-medium text-slate-900">
        {current}
      </span>
    </nav>
  );
}
